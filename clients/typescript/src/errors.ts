// Errors a caller can branch on: the HTTP status, the problem's code and detail, the request id.
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  request_id?: string;
  errors?: { path: string; message: string }[];
}

export class HarkError extends Error {
  override name = 'HarkError';
}

/** The server answered with an error (problem+json). */
export class APIError extends HarkError {
  override name = 'APIError';
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly requestId: string | null;
  readonly problem: Problem;

  constructor(status: number, problem: Problem, requestId: string | null) {
    super(`${status} ${problem.code ?? 'error'}: ${problem.detail ?? problem.title ?? 'request failed'}`);
    this.status = status;
    this.code = problem.code ?? 'unknown';
    this.detail = problem.detail ?? problem.title ?? '';
    this.requestId = problem.request_id ?? requestId;
    this.problem = problem;
  }
}

export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
}
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
}
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/** No answer: the connection failed or the time limit passed. */
export class ConnectionError extends HarkError {
  override name = 'ConnectionError';
}

/** A waiting helper gave up, or the work it waited for failed. */
export class WaitError extends HarkError {
  override name = 'WaitError';
}

export function errorFor(status: number, problem: Problem, requestId: string | null): APIError {
  const kinds: Record<number, typeof APIError> = { 400: BadRequestError, 401: AuthenticationError, 403: PermissionDeniedError, 404: NotFoundError, 409: ConflictError, 422: UnprocessableEntityError, 429: RateLimitError };
  const Kind = kinds[status] ?? (status >= 500 ? InternalServerError : APIError);
  return new Kind(status, problem, requestId);
}
