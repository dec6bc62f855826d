// Authentication, workspace isolation, scopes, rate limits and the trial rule, in one hook.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { AppError } from '../errors.ts';
import { findKeyBySecret } from '../services/api-keys.ts';
import { assertCanCreateWork, getWorkspace } from '../services/workspaces.ts';
import { RateLimiter } from './rate-limit.ts';
import './request-context.ts';

const unauthorized = (detail: string) => new AppError('unauthorized', detail, undefined, { 'www-authenticate': 'Bearer realm="hark"' });

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

export function registerAuth(app: FastifyInstance, ctx: Context): void {
  const limiter = new RateLimiter(ctx.config.rateLimitPerMinute);
  app.decorateRequest('apiKey', null);

  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (request.is404 || config.public) return;

    const secret = bearer(request);
    if (!secret) throw unauthorized('send an API key as "Authorization: Bearer <key>"');
    const key = await findKeyBySecret(ctx, secret);
    if (!key) throw unauthorized('the API key is unknown, expired or revoked');
    request.apiKey = key;

    const decision = limiter.take(key.id);
    reply.header('ratelimit-limit', String(decision.limit));
    reply.header('ratelimit-remaining', String(decision.remaining));
    reply.header('ratelimit-reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new AppError('rate_limited', `more than ${decision.limit} requests a minute`, undefined, {
        'retry-after': String(decision.resetSeconds),
      });
    }

    const workspaceId = (request.params as { workspace_id?: string }).workspace_id;
    if (workspaceId !== undefined && workspaceId !== key.workspace_id) {
      throw new AppError('forbidden', 'the API key belongs to another workspace');
    }
    const needed: readonly string[] = config.scope ? (typeof config.scope === 'string' ? [config.scope] : config.scope) : [];
    const missing = needed.find((scope) => !key.scopes.includes(scope));
    if (missing) throw new AppError('insufficient_scope', `the API key needs the "${missing}" scope`);
    if (config.createsWork) assertCanCreateWork(await getWorkspace(ctx, key.workspace_id));
  });
}

/** The authenticated key's workspace (routes under P have already been checked against it). */
export function workspaceOf(request: FastifyRequest): string {
  if (!request.apiKey) throw new AppError('unauthorized');
  return request.apiKey.workspace_id;
}
