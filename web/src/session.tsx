// The signed-in account: read once from the server (the cookie is HttpOnly), with its workspaces
// and CSRF token; null when signed out.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, ok, setCsrfToken, type Answer, type Schemas } from './api/client.ts';
import { keys } from './api/query-keys.ts';

export type SessionInfo = Answer<'/api/v1/sessions/current', 'get'>;
export type WorkspaceInfo = Schemas['Workspace'];

/** Set beside the HttpOnly session cookie by sign-in, cleared by sign-out. */
export const signedIn = () => document.cookie.split('; ').includes('hark_signed_in=1');

export async function fetchSession(): Promise<SessionInfo | null> {
  if (!signedIn()) return null;
  try {
    const session = await ok(api.GET('/api/v1/sessions/current'));
    setCsrfToken(session.csrf_token);
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      setCsrfToken(null);
      return null;
    }
    throw error;
  }
}

export const SESSION_STALE_MS = 60_000;

export function useSession() {
  return useQuery({ queryKey: keys.session, queryFn: fetchSession, staleTime: SESSION_STALE_MS });
}

/** Stores a session answered by sign-in or a password change. */
export function useSetSession() {
  const client = useQueryClient();
  return (session: SessionInfo | null) => {
    setCsrfToken(session?.csrf_token ?? null);
    client.setQueryData(keys.session, session);
  };
}

export const can = {
  write: (role: WorkspaceInfo['role']) => role === 'owner' || role === 'member',
  manage: (role: WorkspaceInfo['role']) => role === 'owner',
};
