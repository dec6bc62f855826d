// A local HTTP origin for import tests: routes answer from a script of responses.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Responder = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export interface Origin {
  url: (path: string) => string;
  hits: (path: string) => number;
  close: () => Promise<void>;
}

export async function startOrigin(routes: Record<string, Responder | Responder[]>, host = '127.0.0.1'): Promise<Origin> {
  const counts = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const count = counts.get(path) ?? 0;
    counts.set(path, count + 1);
    const route = routes[path];
    const responder = Array.isArray(route) ? route[Math.min(count, route.length - 1)] : route;
    if (!responder) {
      response.writeHead(404).end('not found');
      return;
    }
    responder(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://${host}:${port}${path}`,
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const serveBytes =
  (body: Buffer, contentType = 'audio/wav'): Responder =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': contentType, 'content-length': body.length }).end(body);
  };

export const status =
  (code: number, headers: Record<string, string> = {}): Responder =>
  (_request, response) => {
    response.writeHead(code, headers).end(`status ${code}`);
  };
