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

export { DateTime, JsonObject, Nullable, NullableDateTime, StringEnum } from './schema-types.ts';

export const WorkspaceParams = Type.Object({ workspace_id: Type.String() });

/**
 * The paging every list takes (the specification's `limit`, `offset`, `cursor`): a page of `limit`
 * rows, `offset` rows skipped first (counted from the cursor's place where there is one).
 */
export const pagingFields = (defaultLimit = 50, maxLimit = 200) => ({
  limit: Type.Integer({ minimum: 1, maximum: maxLimit, default: defaultLimit }),
  offset: Type.Integer({ minimum: 0, maximum: 100_000, default: 0, description: 'Rows skipped before the page (after the cursor\'s place, with one)' }),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'The next_cursor of the page before' })),
});

/** The paging of a short list (scenarios, API keys, webhooks): all of it, up to 200, by default. */
export const ShortListQuery = Type.Object(pagingFields(200), { additionalProperties: false });

/** A problem+json response, documented with the media type it is sent with. */
export const problemResponse = (description: string) => ({ description, content: { 'application/problem+json': { schema: ProblemRef } } });

const problemDescriptions: Record<number, string> = {
  400: 'The request is not valid',
  401: 'No valid API key or session',
  402: 'The trial has ended',
  403: 'Not allowed for this key or role',
  404: 'Not found',
  409: 'The resource is not in a state that allows this',
  413: 'The body is larger than the limit',
  414: 'The request URL is too long',
  415: 'The media type or content encoding is not supported',
  422: 'The idempotency key was used with another request',
  429: 'Too many requests (see Retry-After)',
  431: 'The request headers are too large',
  502: 'The engine failed',
  503: 'The database or the audio store cannot be reached (see Retry-After)',
  507: 'The server has no room to store this',
};

/**
 * Error responses every authenticated route can give (including 414, 431 and 503, which any
 * request can meet), plus the route's own.
 */
export function withProblems<T extends Record<number, TSchema | object>>(ok: T, ...statuses: number[]) {
  const responses: Record<number, TSchema | object> = { ...ok };
  for (const status of [400, 401, 403, 414, 429, 431, 503, ...statuses]) responses[status] = problemResponse(problemDescriptions[status] ?? 'A problem');
  return responses as T;
}

/** Error responses of a public route (no key): those any request can meet, plus the route's own. */
export function withPublicProblems<T extends Record<number, TSchema | object>>(ok: T, ...statuses: number[]) {
  const responses: Record<number, TSchema | object> = { ...ok };
  for (const status of [414, 431, 503, ...statuses]) responses[status] = problemResponse(problemDescriptions[status] ?? 'A problem');
  return responses as T;
}

/** A successful response in media types other than JSON (audio, exports), each with its schema. */
export const mediaResponse = (description: string, types: Record<string, TSchema>) => ({
  description,
  content: Object.fromEntries(Object.entries(types).map(([type, schema]) => [type, { schema }])),
});

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Opaque cursor of the next page; null on the last page' }),
  });

