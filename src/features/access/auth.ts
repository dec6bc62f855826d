// Authentication, workspace isolation, scopes, rate limits and the trial rule, in one hook. A
// request carries an API key (bearer) or a browser session (cookie); a session's writes also carry
// its CSRF token and, when the browser sends one, an Origin of this server.
import { timingSafeEqual } from 'node:crypto';
import type {} from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import { isId } from '../../ids.ts';
import { roleScopes, type Role } from '../../scopes.ts';
import { findKeyBySecret } from './api-keys.ts';
import { roleIn } from './memberships.ts';
import { csrfTokenFor, findSession } from './sessions.ts';
import { assertCanCreateWork, getWorkspace } from './workspaces.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import { assertScope, type Principal } from '../../http/request-context.ts';

export const SESSION_COOKIE = 'hark_session';
export const CSRF_HEADER = 'x-csrf-token';

const unauthorized = (detail: string) => new AppError('unauthorized', detail, undefined, { 'www-authenticate': 'Bearer realm="hark"' });
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A cookie-authenticated write must carry the session's CSRF token, and come from this origin. */
function checkCsrf(request: FastifyRequest, token: string): void {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    let same = false;
    try {
      // Through URL on both sides, so a default port written or left out compares equal.
      same = new URL(origin).host === new URL(`${request.protocol}://${request.headers.host ?? ''}`).host;
    } catch {
      // reported below
    }
    if (!same) throw new AppError('csrf_failed', 'the request comes from another origin');
  }
  const sent = request.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !sameText(sent, csrfTokenFor(token))) throw new AppError('csrf_failed', `send the session's CSRF token in ${CSRF_HEADER}`);
}

/** Failed authentications (a wrong key, a dead session) an address may make in a minute. */
export const AUTH_FAILURES_PER_MINUTE = 60;

/**
 * An address past its failed authentications waits out the minute before any key it sends is
 * looked up: guessing keys costs the guesser, not the database.
 */
async function authenticate(ctx: Context, request: FastifyRequest, failures: RateLimiter): Promise<{ principal: Principal; limitKey: string }> {
  const secret = bearer(request);
  const token = secret ? null : request.cookies[SESSION_COOKIE];
  if (!secret && !token) throw unauthorized('send an API key as "Authorization: Bearer <key>", or sign in');
  const standing = failures.peek(request.ip);
  if (!standing.allowed) {
    throw new AppError('rate_limited', `more than ${standing.limit} failed authentications a minute from this address`, undefined, { 'retry-after': String(standing.resetSeconds) });
  }
  if (secret) {
    const key = await findKeyBySecret(ctx, secret);
    if (!key) {
      failures.take(request.ip);
      throw unauthorized('the API key is unknown, expired or revoked');
    }
    if (key.created_by === null) return { principal: { workspaceId: key.workspace_id, scopes: key.scopes, key, session: null, role: null }, limitKey: key.id };
    // A person's key grants what the key holds and their role still does: nothing once they have
    // left the workspace, a viewer's reading once demoted to viewer.
    if (key.creator_role === null) throw unauthorized('the API key was made by someone who is no longer a member of the workspace');
    const allowed = roleScopes[key.creator_role];
    const scopes = key.scopes.filter((scope) => (allowed as readonly string[]).includes(scope));
    return { principal: { workspaceId: key.workspace_id, scopes, key, session: null, role: null }, limitKey: key.id };
  }
  const session = await findSession(ctx, token!);
  if (!session) {
    failures.take(request.ip);
    throw unauthorized('the session has ended: sign in again');
  }
  if (!safeMethods.has(request.method)) checkCsrf(request, token!);
  return { principal: { workspaceId: null, scopes: [], key: null, session, role: null }, limitKey: session.id };
}

function applyRateLimit(limiter: RateLimiter, key: string, reply: FastifyReply): void {
  const decision = limiter.take(key);
  reply.header('ratelimit-limit', String(decision.limit));
  reply.header('ratelimit-remaining', String(decision.remaining));
  reply.header('ratelimit-reset', String(decision.resetSeconds));
  if (!decision.allowed) {
    throw new AppError('rate_limited', `more than ${decision.limit} requests a minute`, undefined, { 'retry-after': String(decision.resetSeconds) });
  }
}

export function registerAuth(app: FastifyInstance, ctx: Context): void {
  const limiter = new RateLimiter(ctx.config.rateLimitPerMinute, sharedLimit(ctx, 'request'));
  const failures = new RateLimiter(AUTH_FAILURES_PER_MINUTE, sharedLimit(ctx, 'auth-failure'));
  app.addHook('onClose', async () => {
    limiter.stop();
    failures.stop();
  });
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (request.is404 || config.public) return;

    const { principal, limitKey } = await authenticate(ctx, request, failures);
    request.principal = principal;
    applyRateLimit(limiter, limitKey, reply);

    const workspaceId = (request.params as { workspace_id?: string }).workspace_id;
    // A malformed id names no workspace at all (CONTRACT.md: unknown or malformed ids are 404); a
    // well-formed one of another workspace is that workspace's 403.
    if (workspaceId !== undefined && !isId('workspace', workspaceId)) throw notFound(`workspace ${workspaceId}`);
    if (principal.key) {
      if (workspaceId !== undefined && workspaceId !== principal.key.workspace_id) throw new AppError('forbidden', 'the API key belongs to another workspace');
    } else if (workspaceId !== undefined) {
      const role = await roleIn(ctx, workspaceId, principal.session!.account_id);
      if (!role) throw new AppError('not_a_member', `the account is not a member of workspace ${workspaceId}`);
      Object.assign(principal, { workspaceId, role, scopes: roleScopes[role] });
    } else if (!config.account) {
      throw unauthorized('this route takes an API key, not a browser session');
    }

    const needed: readonly string[] = config.scope ? [config.scope].flat() : [];
    for (const scope of needed) assertScope(request, scope);
    if (config.createsWork && principal.workspaceId) assertCanCreateWork(await getWorkspace(ctx, principal.workspaceId));
  });
}

/**
 * What a caller hands out (a key's scopes, a role by invitation or membership) never exceeds what
 * it holds: a key with only `keys:manage` cannot make an owner, who could then mint every scope.
 */
export function assertCanGrant(request: FastifyRequest, granted: readonly string[], what: string): void {
  const held = request.principal?.scopes ?? [];
  const beyond = [...new Set(granted)].filter((scope) => !held.includes(scope));
  if (beyond.length > 0) throw new AppError('insufficient_scope', `cannot grant ${what}: it includes scopes the caller does not hold (${beyond.join(', ')})`);
}

/** Revoking a key is for a caller holding every scope it holds: a key with only `keys:manage` cannot cut off the owner's. */
export function assertCanRevoke(request: FastifyRequest, scopes: readonly string[]): void {
  const held = request.principal?.scopes ?? [];
  const beyond = [...new Set(scopes)].filter((scope) => !held.includes(scope));
  if (beyond.length > 0) throw new AppError('insufficient_scope', `cannot revoke this key: it holds scopes the caller does not (${beyond.join(', ')})`);
}

/**
 * The person a request acts for: the signed-in account, or the one behind its key (null for an
 * operator's key). What the request makes (a key, an invitation) answers to them.
 */
export function actingAccount(request: FastifyRequest): string | null {
  const { session, key } = request.principal!;
  return session?.account_id ?? key?.created_by ?? null;
}

/** Granting a role is granting its scopes. */
export const assertCanGrantRole = (request: FastifyRequest, role: Role): void => assertCanGrant(request, roleScopes[role], `the role "${role}"`);

/** On PostgreSQL, the limits are shared by every API process (see rate-limit.ts); the embedded store has one process. */
export function sharedLimit(ctx: Context, namespace: string): ConstructorParameters<typeof RateLimiter>[1] {
  if (ctx.database.kind !== 'postgres') return null;
  return { db: ctx.db, namespace, onError: (error) => ctx.log.warn({ err: error }, 'rate limit sync failed') };
}
