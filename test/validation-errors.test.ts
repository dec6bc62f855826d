// Where a value matches none of a schema's shapes (anyOf), the error names what is wrong with the
// shape it was meant to have, not every shape's mismatch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { validatorCompiler } from '../src/http/validation.ts';
import { meantErrors } from '../src/http/error-handler.ts';
import { CategoryRuleSchema } from '../src/features/categories/category-rule.ts';

const Body = Type.Object({
  rule: Type.Optional(CategoryRuleSchema),
  vocabulary: Type.Optional(Type.Array(Type.Union([Type.String({ maxLength: 60 }), Type.Object({ phrase: Type.String() }, { additionalProperties: false })]))),
  when: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  either: Type.Optional(Type.Union([Type.Unsafe<string | null>({ type: ['string', 'null'] }), Type.Integer()])),
});
const validate = validatorCompiler({ schema: Body, httpPart: 'body', method: 'POST', url: '/' } as never) as ((body: unknown) => boolean) & { errors?: Parameters<typeof meantErrors>[0] };
const messages = (body: unknown) => {
  assert.equal(validate(body), false);
  return meantErrors(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
};

test('a term too long is named as too long, not as "must be object" and "must match a schema in anyOf"', () => {
  assert.deepEqual(messages({ vocabulary: ['Zendesk', 'x'.repeat(61)] }), ['/vocabulary/1 must NOT have more than 60 characters']);
});

test('a condition is read as the kind its type names', () => {
  assert.deepEqual(messages({ rule: { match: 'all', conditions: [{ type: 'sentiment', op: 'below', value: -2 }] } }), ['/rule/conditions/0/value must be >= -1']);
});

test('a value of none of several plain types is told them in one message', () => {
  assert.deepEqual(messages({ when: 'soon' }), ['/when must be number or null']);
  // A branch that itself allows several types names each of them.
  assert.deepEqual(messages({ either: true }), ['/either must be string, null or integer']);
});

test('a value of no shape at all keeps every message', () => {
  assert.ok(messages({ rule: { match: 'all', conditions: [{ type: 'shouting' }] } }).some((m) => /anyOf/.test(m)));
});
