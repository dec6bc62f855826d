// The signed-in account: its address and a new password (which ends every other session).
import { Button, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../../api/client.ts';
import { useSession, useSetSession } from '../../session.tsx';
import { ProblemAlert } from '../Problem.tsx';

export function AccountSettings() {
  const session = useSession();
  const setSession = useSetSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation({
    mutationFn: () => ok(api.PUT('/api/v1/account/password', { body: { current_password: current, new_password: next } })),
    onSuccess: (renewed) => {
      setSession(renewed);
      setCurrent('');
      setNext('');
      notifications.show({ color: 'green', message: 'Password changed. Every other session of your account has ended.' });
    },
  });
  return (
    <Stack maw={420}>
      <Title order={2} fz="h3">
        Your account
      </Title>
      <Text size="sm">Signed in as {session.data?.account.email}.</Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          change.mutate();
        }}
      >
        <Stack>
          <ProblemAlert error={change.error} title="Password not changed" />
          <PasswordInput label="Current password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.currentTarget.value)} />
          <PasswordInput label="New password" description="At least 8 characters; other sessions end" autoComplete="new-password" required minLength={8} value={next} onChange={(e) => setNext(e.currentTarget.value)} />
          <Button type="submit" w="fit-content" loading={change.isPending}>
            Change password
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
