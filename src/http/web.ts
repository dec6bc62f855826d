// The built web interface (web/dist), served by Hark itself: hashed assets cached for a year, the
// page for any other path a browser opens (the app routes itself), sent with a Content Security
// Policy that allows no framing and no inline script but the page's own (each allowed by its
// hash). API paths never fall back to the page.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The page's policy; `scriptHashes`: the inline scripts the page itself carries. */
export const contentSecurityPolicy = (scriptHashes: readonly string[] = []) => [
  "default-src 'self'",
  ["script-src 'self'", ...scriptHashes.map((hash) => `'${hash}'`)].join(' '),
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

/** The built page and the policy it is sent with. */
export interface Page {
  html: Buffer;
  policy: string;
}

/**
 * The built page as it is on disk now: read again when `web/dist` is rebuilt under a running
 * server (a page kept from before names script files the build has replaced: a blank page).
 */
export interface LivePage {
  current(): Page;
}

const apiPaths = /^\/(api|v1|healthz|readyz)(\/|$|\?)/;

/** Whether a request that matched no route is a browser opening a page of the app. */
export function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (apiPaths.test(request.url)) return false;
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

function pageHeaders(reply: FastifyReply, page: Page): FastifyReply {
  return reply
    .header('content-security-policy', page.policy)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', 'no-cache');
}

/** The hashes (CSP's `sha256-…`) of the inline scripts of a page: those without a `src`. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => `sha256-${createHash('sha256').update(match[1]!).digest('base64')}`);
}

/** The built page, or null when the web interface has not been built (the API is served alone). */
export function loadPage(webDir: string): LivePage | null {
  const file = path.join(webDir, 'index.html');
  if (!fs.existsSync(file)) return null;
  const read = (): Page => {
    const html = fs.readFileSync(file);
    return { html, policy: contentSecurityPolicy(inlineScriptHashes(html.toString('utf8'))) };
  };
  let page = read();
  let changed = fs.statSync(file).mtimeMs;
  return {
    current() {
      // A stat per page opened (not per asset): cheap beside the page itself. A build midway (the
      // file gone for a moment) keeps the page already read.
      const now = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs;
      if (now !== undefined && now !== changed) {
        changed = now;
        page = read();
      }
      return page;
    },
  };
}

export function sendPage(reply: FastifyReply, live: LivePage): FastifyReply {
  const page = live.current();
  return pageHeaders(reply, page).type('text/html; charset=utf-8').send(page.html);
}

/**
 * Whether a path asked for may be served as a file: resolved as the file system will (".." and
 * "//" read as it reads them), never the page itself or a compressed copy of it, nor a dotfile.
 */
export function servedFile(pathname: string): boolean {
  const resolved = path.posix.resolve('/', `.${pathname}`);
  if (/^\/index\.html(\.(br|gz))?$/.test(resolved)) return false;
  return !resolved.split('/').some((part) => part.startsWith('.'));
}

/** Serves the built files (public, out of the OpenAPI document) and the page at `/`. */
export async function registerWeb(app: FastifyInstance, webDir: string, page: LivePage): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), public: true };
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    await scope.register(fastifyStatic, {
      root: webDir,
      // Files are looked up as asked for, not listed once at start: a rebuild's new files are served.
      // One not there falls through to the not-found handler (the page, for a browser's page request).
      wildcard: true,
      index: false,
      // The build wrote .br and .gz copies (web/scripts/compress.mjs): the one the browser accepts is sent.
      preCompressed: true,
      // The headers below decide caching, not the plugin's default max-age=0.
      cacheControl: false,
      // The page only as a page (with its policy): index.html in no spelling ("//index.html",
      // "/assets/../index.html") nor its compressed copies; no dotfile (the build's .vite manifest).
      allowedPath: (pathname) => servedFile(pathname),
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
