// JSON request bodies, parsed by JSON.parse (which makes a `__proto__` key an ordinary own key,
// never a prototype). A body that holds such a key, or `constructor` with a `prototype`, is valid
// JSON refused by name (400 validation_failed), as metadata in a form field is: no code that
// copies a body can be led into changing a prototype. Malformed or empty JSON is 400 invalid_json.
// An integer beyond what a number keeps exactly is refused too (./json-numbers.ts). A byte order
// mark before the JSON (Windows tools write one) is read past, as RFC 8259 allows a parser to.
import type { FastifyInstance } from 'fastify';
import { AppError, invalid } from '../errors.ts';
import { hasPrototypeKey, PROTOTYPE_KEY_MESSAGE } from '../prototype-keys.ts';
import { inexactNumber, inMetadata } from './json-numbers.ts';

export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).replace(/^\uFEFF/, '');
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
