// An invitation link: which workspace, for which address and role; accepting it with the account's
// password (or a new one) joins the workspace and signs in.
import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, ok } from '../api/client.ts';
import { keys, queries } from '../api/queries.ts';
import { AuthCard } from '../components/AuthCard.tsx';
import { ProblemAlert } from '../components/Problem.tsx';
import { usePageTitle } from '../components/PageTitle.ts';

export default function Invite() {
  usePageTitle('Join a workspace');
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const navigate = useNavigate();
  const client = useQueryClient();
  const invitation = useQuery({ ...queries.invitation(token), retry: false });
  const accept = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/invitations/{token}/accept', { params: { path: { token } }, body: { password } })),
    onSuccess: async ({ workspace_id }) => {
      await client.invalidateQueries({ queryKey: keys.session });
      navigate(`/w/${workspace_id}/recordings`, { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.mutate();
  };
  const data = invitation.data;
  return (
    <AuthCard title={data ? `Join ${data.workspace_name}` : 'Invitation'} footer="Invitation links work once and expire after 7 days.">
      {invitation.isError && <ProblemAlert error={invitation.error} title="This link cannot be used" />}
      {data && (
        <form onSubmit={submit}>
          <Stack>
            <Alert color="blue">
              You are invited as <strong>{data.role}</strong> with the address <strong>{data.email}</strong>.
            </Alert>
            <ProblemAlert error={accept.error} title="Could not join" />
            <Text size="sm">{data.account_exists ? 'Enter the password of your Hark account to join.' : 'Choose a password for your new Hark account.'}</Text>
            <PasswordInput
              label={data.account_exists ? 'Password' : 'New password'}
              description={data.account_exists ? undefined : 'At least 8 characters'}
              autoComplete={data.account_exists ? 'current-password' : 'new-password'}
              required
              minLength={8}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Button type="submit" loading={accept.isPending}>
              Join the workspace
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
