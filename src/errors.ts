// The error catalogue: every error a client can see, with its status and stable code.
export const errors = {
  validation_failed: { status: 400, title: 'The request is not valid' },
  invalid_json: { status: 400, title: 'The request body is not valid JSON' },
  bad_request: { status: 400, title: 'The request is not valid HTTP' },
  unauthorized: { status: 401, title: 'A valid API key is required' },
  invalid_credentials: { status: 401, title: 'The email or password is wrong' },
  trial_expired: { status: 402, title: 'The trial has ended' },
  insufficient_scope: { status: 403, title: 'The API key lacks a required scope' },
  forbidden: { status: 403, title: 'The API key does not belong to this workspace' },
  registration_closed: { status: 403, title: 'Registration is closed on this server' },
  not_a_member: { status: 403, title: 'The account is not a member of this workspace' },
  insufficient_role: { status: 403, title: 'The account\'s role in this workspace does not allow this' },
  account_required: { status: 403, title: 'A signed-in account is required' },
  csrf_failed: { status: 403, title: 'The request lacks a valid CSRF token or comes from another site' },
  not_found: { status: 404, title: 'Not found' },
  request_timeout: { status: 408, title: 'The request was not received in time' },
  client_closed_request: { status: 499, title: 'The client closed the connection before the answer was ready' },
  email_taken: { status: 409, title: 'An account with this email exists' },
  recording_not_ready: { status: 409, title: 'The recording is not ready' },
  recording_failed: { status: 409, title: 'The recording failed to prepare' },
  audio_expired: { status: 409, title: 'The recording\'s audio has expired' },
  run_not_completed: { status: 409, title: 'The run has not completed' },
  result_superseded: { status: 409, title: 'The call has a newer result for this scenario' },
  run_not_retryable: { status: 409, title: 'Only a failed run can be retried' },
  run_not_cancellable: { status: 409, title: 'The run has already finished' },
  import_not_failed: { status: 409, title: 'Only a failed import can be retried' },
  transcript_not_available: { status: 409, title: 'No completed transcript is available' },
  transcript_changed: { status: 409, title: 'The transcript has a newer version than the one corrected' },
  scenario_changed: { status: 409, title: 'The scenario has a newer version than the one edited' },
  scenario_conflict: { status: 409, title: 'The scenario conflicts with another' },
  category_name_taken: { status: 409, title: 'The workspace has a category of this name' },
  category_limit_reached: { status: 409, title: 'The workspace has as many categories as it may' },
  already_member: { status: 409, title: 'The account is already a member of this workspace' },
  last_owner: { status: 409, title: 'A workspace keeps at least one owner' },
  payload_too_large: { status: 413, title: 'The payload is too large' },
  unsupported_media_type: { status: 415, title: 'The media type is not supported' },
  unsupported_content_encoding: { status: 415, title: 'The request body\'s content encoding is not supported' },
  range_not_satisfiable: { status: 416, title: 'The requested range is outside the audio' },
  idempotency_key_reused: { status: 422, title: 'The idempotency key was used with another request' },
  rate_limited: { status: 429, title: 'Too many requests' },
  uri_too_long: { status: 414, title: 'The request URL is too long' },
  headers_too_large: { status: 431, title: 'The request headers are too large' },
  internal_error: { status: 500, title: 'Internal server error' },
  insufficient_storage: { status: 507, title: 'The server has no room to store this' },
  engine_failed: { status: 502, title: 'The engine failed' },
  not_ready: { status: 503, title: 'The service is not ready' },
  database_unavailable: { status: 503, title: 'The database cannot be reached; try again' },
  storage_unavailable: { status: 503, title: 'The audio store cannot be reached; try again' },
} as const;

export type ErrorCode = keyof typeof errors;

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly fieldErrors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail ?? errors[code].title);
    this.status = errors[code].status;
  }
}

/** ENOSPC, or a quota, anywhere in an error's causes. */
export function isDiskFull(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return code === 'ENOSPC' || code === 'EDQUOT' || isDiskFull(cause, depth + 1);
}

export const diskFull = (): AppError => new AppError('insufficient_storage', 'the server\'s storage is full: nothing was kept; try again later or ask the operator to free space');

export const notFound = (what: string): AppError => new AppError('not_found', `${what} was not found`);
export const invalid = (path: string, message: string): AppError =>
  new AppError('validation_failed', `${path}: ${message}`, [{ path: String(path), message }]);

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  request_id: string;
  errors?: FieldError[];
}

export function problemOf(error: AppError, requestId: string): Problem {
  const problem: Problem = {
    type: `https://hark.dev/problems/${error.code.replace(/_/g, '-')}`,
    title: errors[error.code].title,
    status: error.status,
    detail: error.detail ?? errors[error.code].title,
    code: error.code,
    request_id: requestId,
  };
  if (error.fieldErrors) problem.errors = error.fieldErrors;
  return problem;
}
