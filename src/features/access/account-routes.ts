// Registration: an account, its workspace and a first key with every scope.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { register } from './accounts.ts';
import { sharedLimit } from './auth.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import { DateTime, withPublicProblems } from '../../http/schemas/common.ts';

const Body = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Type.String({ minLength: 8, maxLength: 256 }),
    workspace_name: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

const Registration = Type.Object({
  account_id: Type.String(),
  workspace_id: Type.String(),
  api_key: Type.String({ description: 'Shown once: a key with every scope' }),
  trial_ends_at: DateTime,
});

/** Registration needs no key, so it is limited per client address instead. */
const REGISTRATIONS_PER_MINUTE = 20;

export const accountRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const limiter = new RateLimiter(REGISTRATIONS_PER_MINUTE, sharedLimit(ctx, 'registration'));
  app.addHook('onClose', async () => limiter.stop());
  app.post(
    '/api/v1/accounts',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'Register an account with a workspace on a 7-day trial',
        body: Body,
        response: withPublicProblems({ 201: Registration }, 400, 403, 409, 415, 429),
      },
    },
    async (request, reply) => {
      const decision = limiter.take(request.ip);
      if (!decision.allowed) {
        throw new AppError('rate_limited', `more than ${decision.limit} registrations a minute from this address`, undefined, { 'retry-after': String(decision.resetSeconds) });
      }
      return reply.code(201).send(await register(ctx, request.body));
    },
  );
};
