// Stored JSON is checked against its schema when read back, not cast: a run's scenario snapshot
// that does not match its kind's schema is a bug worth a clear error, not a crash further on.
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export function readStored<S extends TSchema>(schema: S, value: unknown, what: string): Static<S> {
  if (Value.Check(schema, value)) return value;
  const first = Value.Errors(schema, value).First();
  throw new Error(`stored ${what} does not match its schema${first ? ` at ${first.path || '/'}: ${first.message}` : ''}`);
}
