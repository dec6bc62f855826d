// The built web interface (web/dist), served by Hark itself: hashed assets cached for a year, the
// page for any other path a browser opens (the app routes itself), sent with a Content Security
// Policy that allows no inline script and no framing. API paths never fall back to the page.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  // Components set style attributes; no script can be injected through them.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const apiPaths = /^\/(api|v1|healthz|readyz)(\/|$|\?)/;

/** Whether a request that matched no route is a browser opening a page of the app. */
export function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (apiPaths.test(request.url)) return false;
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', contentSecurityPolicy)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', 'no-cache');
}

/** The built page, or null when the web interface has not been built (the API is served alone). */
export function loadPage(webDir: string): Buffer | null {
  const file = path.join(webDir, 'index.html');
  return fs.existsSync(file) ? fs.readFileSync(file) : null;
}

export function sendPage(reply: FastifyReply, page: Buffer): FastifyReply {
  return pageHeaders(reply).type('text/html; charset=utf-8').send(page);
}

/** Serves the built files (public, out of the OpenAPI document) and the page at `/`. */
export async function registerWeb(app: FastifyInstance, webDir: string, page: Buffer): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), public: true };
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    await scope.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build wrote .br and .gz copies (web/scripts/compress.mjs): the one the browser accepts is sent.
      preCompressed: true,
      // The headers below decide caching, not the plugin's default max-age=0.
      cacheControl: false,
      allowedPath: (pathname) => pathname !== '/index.html',
      setHeaders: (res, file) => {
        res.setHeader('x-content-type-options', 'nosniff');
        // A cache must keep the brotli, gzip and plain forms apart.
        res.setHeader('vary', 'accept-encoding');
        res.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    scope.get('/', (_request, reply) => sendPage(reply, page));
  });
}
