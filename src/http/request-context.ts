// Typing of what the auth hook attaches to a request and of each route's auth settings.
import type { ApiKey } from '../services/api-keys.ts';
import type { Scope } from '../scopes.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No key needed (health, registration, docs). */
    public?: boolean;
    /** The scope (or every scope of a list) the route needs; null means any valid key of the workspace. */
    scope?: Scope | readonly Scope[] | null;
    /** The route creates billable work: refused with 402 after the trial. */
    createsWork?: boolean;
    /** The multipart form a route reads itself, for the OpenAPI document only. */
    docBody?: object;
  }
  interface FastifyRequest {
    apiKey: ApiKey | null;
  }
}

export {};
