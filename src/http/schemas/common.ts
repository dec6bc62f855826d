// Schemas shared by every route: problem+json, list pages, path parameters (and, re-exported,
// the card building blocks).
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

export { DateTime, JsonObject, Nullable, NullableDateTime, StringEnum } from '../../cards/schema-types.ts';

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

