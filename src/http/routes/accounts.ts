// Registration: an account, its workspace and a first key with every scope.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { register } from '../../services/accounts.ts';
import { DateTime, ProblemRef } from '../schemas/common.ts';

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

export const accountRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  app.post(
    '/api/v1/accounts',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'Register an account with a workspace on a 7-day trial',
        body: Body,
        response: { 201: Registration, 400: ProblemRef, 403: ProblemRef, 409: ProblemRef },
      },
    },
    async (request, reply) => reply.code(201).send(await register(ctx, request.body)),
  );
};
