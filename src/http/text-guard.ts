// What PostgreSQL text and jsonb cannot hold is refused here with a 400 naming where it was, before
// any query: U+0000 (NUL) and lone UTF-16 surrogates ("\ud800", which is no character) anywhere in
// a request (path, query, JSON body, form field, file name), and numbers a JSON body writes beyond
// what a number can hold (1e400, read as Infinity). Paths are a field's JSON pointer without its
// leading slash ("metadata/a", "retention_days"), as the schemas' errors name them.
import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.ts';

const NUL = '\u0000';
const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
const SURROGATE_MESSAGE = 'must be well-formed Unicode (a lone surrogate such as \\ud800 is no character)';

/** A high surrogate not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source);

/** Why a string cannot be stored, or null. */
const textProblem = (text: string): string | null => (text.includes(NUL) ? NUL_MESSAGE : HAS_LONE_SURROGATE.test(text) ? SURROGATE_MESSAGE : null);

/** A key as a path may show it. */
const shown = (key: string): string => key.replaceAll(NUL, '\\u0000').replace(LONE_SURROGATE, '\uFFFD');

/** `key` under `path` ("" for the top of a body or query: the key alone). */
const under = (path: string, key: string | number): string => (path === '' ? String(key) : `${path}/${key}`);

/** The JSON-pointer-like path of the first string, key or number that cannot be stored, and why; or null. */
export function findUnstorable(value: unknown, path: string, depth = 0): { path: string; message: string } | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { path, message: problem } : null;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? null : { path, message: 'must be a finite number (1e400 is beyond what a number can hold)' };
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorable(value[i], under(path, i), depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const problem = textProblem(key);
    if (problem) return { path: under(path, shown(key)), message: problem };
    const found = findUnstorable(item, under(path, key), depth + 1);
    if (found) return found;
  }
  return null;
}

/** Throws a 400 naming the first string, key or number of `value` that cannot be stored; `whole` names `value` itself. */
export function assertStorable(value: unknown, path: string, whole = path): void {
  const found = findUnstorable(value, path);
  if (found) throw invalid(found.path || whole, found.message);
}

export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (/%00/.test(request.url)) throw invalid(request.url.includes('?') && request.url.indexOf('%00') > request.url.indexOf('?') ? 'querystring' : 'path', 'must not contain the NUL character (%00)');
  });
  app.addHook('preValidation', async (request) => {
    assertStorable(request.query, '', 'querystring');
    assertStorable(request.params, '', 'path');
    const body: unknown = request.body;
    if ((body !== null && typeof body === 'object' && !Buffer.isBuffer(body)) || typeof body === 'string') assertStorable(body, '', 'body');
  });
}
