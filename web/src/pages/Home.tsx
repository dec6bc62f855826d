// The start page: the first workspace of a signed-in account, or the sign-in page.
import { Center, Loader } from '@mantine/core';
import { Navigate } from 'react-router';
import { ProblemAlert } from '../components/Problem.tsx';
import { useSession } from '../session.tsx';

export function Home() {
  const session = useSession();
  if (session.isPending) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (session.isError) return <ProblemAlert error={session.error} />;
  const first = session.data?.workspaces[0];
  if (!session.data) return <Navigate to="/sign-in" replace />;
  return <Navigate to={first ? `/w/${first.id}/recordings` : '/sign-in'} replace />;
}
