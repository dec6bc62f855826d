// PostgreSQL text and jsonb cannot hold U+0000, so a NUL anywhere in a request (path, query, JSON
// body, form field, file name) is refused here with a 400 naming where it was, before any query.
import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.ts';

const NUL = '\u0000';

/** The JSON-pointer-like path of the first string (or key) holding a NUL, or null. */
export function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${path}/${i}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes(NUL)) return `${path}/${key.replaceAll(NUL, '\\u0000')}`;
    const found = findNul(item, `${path}/${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

export function assertNoNul(value: unknown, path: string): void {
  const found = findNul(value, path);
  if (found) throw invalid(found, 'must not contain the NUL character (U+0000)');
}

export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (/%00/.test(request.url)) throw invalid(request.url.includes('?') && request.url.indexOf('%00') > request.url.indexOf('?') ? 'querystring' : 'path', 'must not contain the NUL character (%00)');
  });
  app.addHook('preValidation', async (request) => {
    assertNoNul(request.query, 'querystring');
    assertNoNul(request.params, 'params');
    const body: unknown = request.body;
    if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body)) assertNoNul(body, 'body');
    else if (typeof body === 'string') assertNoNul(body, 'body');
  });
}
