// JSON request bodies, parsed by JSON.parse (which makes a `__proto__` key an ordinary own key,
// never a prototype). A body that holds such a key, or `constructor` with a `prototype`, is valid
// JSON refused by name (400 validation_failed), as metadata in a form field is: no code that
// copies a body can be led into changing a prototype. Malformed or empty JSON is 400 invalid_json.
// An integer beyond what a number keeps exactly is refused too (./json-numbers.ts). A byte order
// mark before the JSON (Windows tools write one) is read past, as RFC 8259 allows a parser to.
// JSON is UTF-8 (RFC 8259): a body holding bytes that are not is refused (400 invalid_json), never
// read with those bytes replaced (metadata is returned unchanged or refused, never changed).
import type { FastifyInstance } from 'fastify';
import { AppError, invalid } from '../errors.ts';
import { hasPrototypeKey, PROTOTYPE_KEY_MESSAGE } from '../prototype-keys.ts';
import { inexactNumber, inMetadata } from './json-numbers.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer).replace(/^\uFEFF/, '');
    } catch {
      return done(new AppError('invalid_json', 'the body is not UTF-8 text, as JSON must be: it holds bytes that are not (Latin-1 or Windows-1252 text?)'), undefined);
    }
    if (text.trim() === '') return done(new AppError('invalid_json', 'the body is empty, but its content type is application/json'), undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return done(new AppError('invalid_json', `the body is not valid JSON: ${(error as Error).message}`), undefined);
    }
    // Only a body that could name such a key is walked: one spelling it, or escaping any character.
    if (/__proto__|"constructor"|\\u/.test(text) && hasPrototypeKey(value)) return done(invalid('body', PROTOTYPE_KEY_MESSAGE), undefined);
    const inexact = inexactNumber(text, value, '', 'body', inMetadata);
    if (inexact) return done(invalid(inexact.path, inexact.message), undefined);
    done(null, value);
  });
}
