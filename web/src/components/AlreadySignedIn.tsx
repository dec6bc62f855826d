// On the sign-in and sign-up pages, for a person who is already signed in: that they are, and the
// way back to their workspace. Drawn at once from the signed-in marker (so nothing moves when the
// session arrives), and taken away only if the session turns out to have ended.
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { signedIn, useSession } from '../session.tsx';

export function AlreadySignedIn({ hint }: { hint: string }) {
  const session = useSession();
  if (!signedIn() || session.data === null) return null;
  return (
    <Alert color="blue" title="You are already signed in">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{hint}</Text>
        <Button component={Link} to="/" size="xs" variant="white">
          Open your workspace
        </Button>
      </Stack>
    </Alert>
  );
}
