// The one client of Hark's public API, typed from openapi.json. The browser is signed in by an
// HttpOnly cookie; every write carries the session's CSRF token, held in memory only (never in
// localStorage). Errors are thrown as ApiError with the problem's fields.
import createClient, { type Middleware } from 'openapi-fetch';
import { fetchEarlyFirst } from './early.ts';
// One generated schema for the web app and the TypeScript client (npm run api-types --prefix web).
import type { components, paths } from '../../../clients/typescript/src/schema.d.ts';

export type Schemas = components['schemas'];

export interface Problem {
  title: string;
  detail: string;
  code: string;
  status: number;
  request_id?: string;
  errors?: { path: string; message: string }[];
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail || problem.title);
  }
  get status(): number {
    return this.problem.status;
  }
}

let csrfToken: string | null = null;
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

const csrf: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD' && csrfToken) request.headers.set('x-csrf-token', csrfToken);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin', fetch: fetchEarlyFirst });
api.use(csrf);

function toProblem(error: unknown, response: Response): Problem {
  if (error && typeof error === 'object' && 'code' in error) return error as Problem;
  return { title: response.statusText || 'Request failed', detail: `The server answered ${response.status}`, code: 'unknown', status: response.status };
}

/** Awaits an openapi-fetch call and returns its data, or throws its problem as an ApiError. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new ApiError({ title: 'Hark cannot be reached', detail: 'Check your connection and try again.', code: 'network_error', status: 0 });
  }
  if (result.error !== undefined || !result.response.ok) throw new ApiError(toProblem(result.error, result.response));
  return result.data as T;
}

/**
 * `ok` for routes that can also answer text (transcript exports, CSV reports): these calls ask for
 * JSON, which is what comes back.
 */
export async function okJson<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<Exclude<T, string>> {
  const data = await ok(call);
  if (typeof data === 'string') throw new ApiError({ title: 'Unexpected answer', detail: 'Hark answered text where JSON was asked for.', code: 'unexpected_response', status: 0 });
  return data as Exclude<T, string>;
}

/** A path under a workspace, for the few requests made without the typed client (uploads, CSV). */
export const workspacePath = (workspaceId: string, rest: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}${rest}`;

/** Sends a form (an upload) with progress, which fetch cannot report. */
export function sendForm(url: string, form: FormData, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    if (csrfToken) request.setRequestHeader('x-csrf-token', csrfToken);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // not JSON
      }
      if (request.status >= 200 && request.status < 300) resolve(body);
      else reject(new ApiError((body as Problem | null) ?? { title: 'Upload failed', detail: `The server answered ${request.status}`, code: 'unknown', status: request.status }));
    };
    request.onerror = () => reject(new ApiError({ title: 'Upload failed', detail: 'The connection was lost.', code: 'network_error', status: 0 }));
    request.onabort = () => reject(new ApiError({ title: 'Upload cancelled', detail: 'The upload was cancelled.', code: 'cancelled', status: 0 }));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(form);
  });
}

/** Downloads a response (CSV, an export) as a file. */
export async function download(url: string, filename: string, accept?: string): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin', headers: accept ? { accept } : {} });
  if (!response.ok) throw new ApiError(toProblem(await response.json().catch(() => null), response));
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = filename;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The JSON a path and method answer with (200, or 201/202 for creations). */
export type Answer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: infer R;
}
  ? R extends { 200: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 201: { content: { 'application/json': infer T } } }
      ? T
      : R extends { 202: { content: { 'application/json': infer T } } }
        ? T
        : never
  : never;
