// On the sign-in and sign-up pages, for a person who is already signed in: who they are, and the
// way back to their workspace.
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useSession } from '../session.tsx';

export function AlreadySignedIn({ hint }: { hint: string }) {
  const session = useSession();
  if (!session.data) return null;
  const first = session.data.workspaces[0];
  return (
    <Alert color="blue" title={`You are signed in as ${session.data.account.email}`}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{hint}</Text>
        {first && (
          <Button component={Link} to={`/w/${first.id}/recordings`} size="xs" variant="white">
            Open {first.name}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
