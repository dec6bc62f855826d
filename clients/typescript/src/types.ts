// Request and answer types of each operation, read from the types generated from openapi.json.
import type { components, paths } from './schema.d.ts';

export type Schemas = components['schemas'];
type Op<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];

type PathParams<O> = O extends { parameters: { path?: infer T } } ? (T extends object ? T : never) : never;
type QueryParams<O> = O extends { parameters: { query?: infer T } } ? T : never;
type JsonBody<O> = O extends { requestBody?: { content: { 'application/json': infer T } } } ? T : never;
type FormBody<O> = O extends { requestBody?: { content: { 'multipart/form-data': unknown } } } ? FormData : never;

/** The workspace comes from the client (the key's own) unless given. */
type WithWorkspace<T> = [T] extends [never] ? never : T extends { workspace_id: string } ? Omit<T, 'workspace_id'> & { workspace_id?: string } : T;

export type Args<P extends keyof paths, M extends keyof paths[P]> = {
  path?: WithWorkspace<PathParams<Op<P, M>>>;
  query?: QueryParams<Op<P, M>> & Record<string, unknown>;
  body?: JsonBody<Op<P, M>> | FormBody<Op<P, M>>;
};

type Content<R> = R extends { content: { 'application/json': infer T } } ? T : R extends { content: infer C } ? C[keyof C] : undefined;
export type Answer<P extends keyof paths, M extends keyof paths[P]> = Op<P, M> extends { responses: infer R }
  ? R extends { 200: infer A }
    ? Content<A>
    : R extends { 201: infer A }
      ? Content<A>
      : R extends { 202: infer A }
        ? Content<A>
        : undefined
  : never;

export interface RequestOptions {
  /** Overrides the client's time limit for this request, in milliseconds. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Sent as Idempotency-Key; makes a POST safe to retry. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
}
