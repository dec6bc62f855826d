// Stored JSON is checked against its schema when read back, not cast: a value that does not match
// (a bug, or a row written by another version) is a clear error, not a crash further on. Each
// schema is compiled once.
import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';

const checkers = new WeakMap<TSchema, TypeCheck<TSchema>>();

export function readStored<S extends TSchema>(schema: S, value: unknown, what: string): Static<S> {
  let checker = checkers.get(schema);
  if (!checker) {
    checker = TypeCompiler.Compile(schema);
    checkers.set(schema, checker);
  }
  if (checker.Check(value)) return value as Static<S>;
  const first = checker.Errors(value).First();
  throw new Error(`stored ${what} does not match its schema${first ? ` at ${first.path || '/'}: ${first.message}` : ''}`);
}
