// Sign up: an account and its workspace on a 7-day trial. The first API key is shown once.
import { Alert, Anchor, Button, Code, CopyButton, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, ok } from '../api/client.ts';
import { AlreadySignedIn } from '../components/AlreadySignedIn.tsx';
import { AuthCard } from '../components/AuthCard.tsx';
import { ProblemAlert } from '../components/Problem.tsx';
import { useSetSession } from '../session.tsx';
import { formatDate } from '../lib/dates.ts';
import { usePageTitle } from '../components/PageTitle.ts';

export default function SignUp() {
  usePageTitle('Sign up');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [workspace, setWorkspace] = useState('');
  const navigate = useNavigate();
  const setSession = useSetSession();
  const signUp = useMutation({
    mutationFn: async () => {
      const registration = await ok(api.POST('/api/v1/accounts', { body: { email, password, workspace_name: workspace } }));
      const session = await ok(api.POST('/api/v1/sessions', { body: { email, password } }));
      return { registration, session };
    },
    onSuccess: ({ session }) => setSession(session),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signUp.mutate();
  };

  if (signUp.data) {
    const { registration } = signUp.data;
    return (
      <AuthCard title="Your workspace is ready" footer="You can make more keys, with fewer scopes, in Settings.">
        <Alert color="green" title="Trial started">
          Your 7-day trial runs until {formatDate(registration.trial_ends_at)}.
        </Alert>
        <Stack gap="xs">
          <Text fw={500}>Your first API key, for programs and scripts</Text>
          <Text size="sm" c="dimmed">
            It is shown only now. Copy it somewhere safe if you will call the API; you do not need it to use this site.
          </Text>
          <Code block data-testid="first-api-key" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {registration.api_key}
          </Code>
          <CopyButton value={registration.api_key}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy} w="fit-content">
                {copied ? 'Copied' : 'Copy key'}
              </Button>
            )}
          </CopyButton>
        </Stack>
        <Group>
          <Button onClick={() => navigate(`/w/${registration.workspace_id}/recordings`, { replace: true })}>Continue to my recordings</Button>
        </Group>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Start your free trial"
      footer={
        <>
          Already have an account?{' '}
          <Anchor component={Link} to="/sign-in">
            Sign in
          </Anchor>
        </>
      }
    >
      {!signUp.isPending && <AlreadySignedIn hint="Signing up makes another account, with a workspace of its own." />}
      <form onSubmit={submit}>
        <Stack>
          <ProblemAlert error={signUp.error} title="Could not create the account" />
          <TextInput label="Workspace name" description="Your team or project" required maxLength={200} value={workspace} onChange={(e) => setWorkspace(e.currentTarget.value)} />
          <TextInput label="E-mail" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <PasswordInput label="Password" description="At least 8 characters" autoComplete="new-password" required minLength={8} value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <Button type="submit" loading={signUp.isPending}>
            Create account
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
