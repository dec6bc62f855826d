// Typing of what the auth hook attaches to a request and of each route's auth settings.
import type { Role, Scope } from '../scopes.ts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/** Who is calling: an API key, or a signed-in account with its role in the route's workspace. */
export interface Principal {
  /** The workspace the request acts in: the key's, or the route's for a session (null outside one). */
  workspaceId: string | null;
  scopes: readonly string[];
  /** The API key (its id, workspace, the account it answers to and its expiry), or null for a session. */
  key: { id: string; workspace_id: string; scopes: readonly string[]; created_by: string | null; expires_at: Date | null } | null;
  /** The browser session (its id and account), or null for a key. */
  session: { id: string; account_id: string; email: string } | null;
  role: Role | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No credentials needed (health, registration, sign-in, docs). */
    public?: boolean;
    /** A route of the signed-in account outside any workspace (its session, its workspaces). */
    account?: boolean;
    /** The scope (or every scope of a list) the route needs; null means any valid key of the workspace. */
    scope?: Scope | readonly Scope[] | null;
    /** The route creates billable work: refused with 402 after the trial. */
    createsWork?: boolean;
    /** The multipart form a route reads itself, for the OpenAPI document only. */
    docBody?: object;
    /** The route reads a multipart form (every other route refuses one with 415). */
    form?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export {};

/** The workspace the request acts in (routes under P have already been checked against it). */
export function workspaceOf(request: FastifyRequest): string {
  const workspaceId = request.principal?.workspaceId;
  if (!workspaceId) throw new AppError('unauthorized');
  return workspaceId;
}

/**
 * Refuses a request whose caller lacks `scope` (for the route, or for a part of it such as a filter
 * that reads what calls say): 403 `insufficient_scope` for a key, `insufficient_role` for a member.
 */
export function assertScope(request: FastifyRequest, scope: string, forWhat = ''): void {
  const principal = request.principal;
  if (!principal || principal.scopes.includes(scope)) return;
  const why = forWhat ? ` ${forWhat}` : '';
  if (principal.key) throw new AppError('insufficient_scope', `the API key needs the "${scope}" scope${why}`);
  throw new AppError('insufficient_role', `the role "${principal.role}" does not include "${scope}"${why}`);
}
