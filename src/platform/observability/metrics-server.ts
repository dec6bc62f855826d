// /metrics on a port of its own (HARK_METRICS_PORT), in any process: the way to scrape a worker,
// which serves no API, and a way to keep metrics off an API host's public port. The token is
// asked for when one is set.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.ts';
import { bearerMatches } from './metrics.ts';
import { AppError, problemOf, type ErrorCode } from '../../errors.ts';

export interface MetricsServer {
  address: string;
  close: () => Promise<void>;
}

export async function startMetricsServer(metrics: Metrics, options: { host: string; port: number; token: string | null; log: Logger }): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const answer = (status: number, contentType: string, body: string) => response.writeHead(status, { 'content-type': contentType }).end(body);
    const problem = (code: ErrorCode, detail: string) => {
      const error = new AppError(code, detail);
      answer(error.status, 'application/problem+json', JSON.stringify(problemOf(error, randomUUID())));
    };
    if (new URL(request.url ?? '/', 'http://metrics').pathname !== '/metrics' || request.method !== 'GET') return problem('not_found', 'only GET /metrics is served here');
    if (options.token && !bearerMatches(request.headers.authorization, options.token)) return problem('unauthorized', 'send the metrics token as "Authorization: Bearer <token>"');
    metrics.scrape().then(
      ({ contentType, body }) => answer(200, contentType, body),
      (error: unknown) => {
        options.log.warn({ err: error }, 'metrics scrape failed');
        problem('not_ready', 'the metrics could not be read');
      },
    );
  });
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics`;
  options.log.info({ metrics: url }, 'metrics served on their own port');
  return {
    address: url,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
