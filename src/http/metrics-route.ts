// GET /metrics in Prometheus format, for a scraper bearing HARK_METRICS_TOKEN (no token set: no
// endpoint); and the timing of every request by route and status.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { bearerMatches, type Metrics } from '../platform/observability/metrics.ts';

export function registerMetrics(app: FastifyInstance, ctx: { config: Pick<Config, 'metricsToken'>; metrics: Metrics }): void {
  app.addHook('onResponse', async (request, reply) => {
    // Unmatched paths share one label, so a scan cannot blow up the series count.
    const route = request.routeOptions.url ?? 'unmatched';
    ctx.metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  const token = ctx.config.metricsToken;
  if (!token) return;
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) throw new AppError('unauthorized', 'send the metrics token as "Authorization: Bearer <token>"');
    const { contentType, body } = await ctx.metrics.scrape();
    return reply.type(contentType).send(body);
  });
}
