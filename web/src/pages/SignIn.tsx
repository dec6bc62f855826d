// Sign in with e-mail and password; the session lives in an HttpOnly cookie.
import { Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, ok } from '../api/client.ts';
import { AlreadySignedIn } from '../components/AlreadySignedIn.tsx';
import { AuthCard } from '../components/AuthCard.tsx';
import { ProblemAlert } from '../components/Problem.tsx';
import { useSetSession } from '../session.tsx';
import { usePageTitle } from '../components/PageTitle.ts';

export default function SignIn() {
  usePageTitle('Sign in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const setSession = useSetSession();
  const signIn = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/sessions', { body: { email, password } })),
    onSuccess: (session) => {
      setSession(session);
      const next = search.get('next');
      navigate(next?.startsWith('/w/') ? next : `/w/${session.workspaces[0]?.id ?? ''}/recordings`, { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <AuthCard
      title="Sign in"
      footer={
        <>
          No account yet?{' '}
          <Anchor component={Link} to="/sign-up">
            Start a free 7-day trial
          </Anchor>
        </>
      }
    >
      {!signIn.isPending && !signIn.isSuccess && <AlreadySignedIn hint="Signing in below switches to another account." />}
      <form onSubmit={submit}>
        <Stack>
          <ProblemAlert error={signIn.error} title="Could not sign in" />
          <TextInput label="E-mail" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} data-autofocus />
          <PasswordInput label="Password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <Button type="submit" loading={signIn.isPending}>
            Sign in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
