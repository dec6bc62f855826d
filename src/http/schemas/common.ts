// Schemas shared by every route: problem+json, list pages, and timestamps.
import { Type, type TSchema } from '@sinclair/typebox';
import { errors } from '../../errors.ts';

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable machine-readable error code' }),
    request_id: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: 'Problem', description: `An RFC 9457 problem. Codes: ${Object.keys(errors).join(', ')}` },
);

export const ProblemRef = Type.Ref('Problem');

/** Dates leave as ISO 8601 strings; handlers may hand the serialiser a Date. */
export const DateTime = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' });
export const NullableDateTime = Type.Union([DateTime, Type.Null()]);
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One of a fixed set of strings, as a JSON-schema enum (validation names the allowed values). */
export const StringEnum = <T extends readonly string[]>(values: T, options: { description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const WorkspaceParams = Type.Object({ workspace_id: Type.String() });

/** Error responses every authenticated route can give, plus the route's own. */
export function withProblems<T extends Record<number, TSchema>>(ok: T, ...statuses: number[]) {
  const responses: Record<number, TSchema> = { ...ok };
  for (const status of [400, 401, 403, 429, ...statuses]) responses[status] = ProblemRef;
  return responses as T;
}

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Opaque cursor of the next page; null on the last page' }),
  });

export const JsonObject = Type.Object({}, { additionalProperties: true, description: 'Any JSON object, returned unchanged' });
