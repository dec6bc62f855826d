// Liveness and readiness: no key needed.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const Health = Type.Object({ status: Type.String(), checks: Type.Optional(Type.Record(Type.String(), Type.String())) });

export const healthRoutes = (ctx: { readiness: () => Promise<Record<string, string>> }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/healthz', { config: { public: true }, schema: { tags: ['health'], summary: 'Liveness', response: { 200: Health } } }, async () => ({
      status: 'ok',
    }));
    app.get(
      '/readyz',
      { config: { public: true }, schema: { tags: ['health'], summary: 'Readiness of the database and storage', response: { 200: Health, 503: Health } } },
      async (_request, reply) => {
        const checks = await ctx.readiness();
        const ready = Object.values(checks).every((v) => v === 'ok');
        return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
      },
    );
  };
