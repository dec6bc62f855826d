// Turns every error into application/problem+json; a 500 says nothing about its cause.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../platform/db/outage.ts';
import { AppError, diskFull, invalid, isDiskFull, problemOf, type ErrorCode, type FieldError } from '../errors.ts';
import { settleUnreadBody } from './unread-body.ts';
import { isPageRequest, sendPage, type LivePage } from './web.ts';

const byStatus: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** How long a client is asked to wait while the database is away (pg's connect timeout is 10 s). */
const DATABASE_RETRY_SECONDS = 10;

type ValidationError = NonNullable<FastifyError['validation']>[number];

/**
 * The errors worth reading where a value matches none of several shapes (a schema's anyOf): those
 * of the shape it was meant to have, not every shape's. A shape whose type or `type` constant the
 * value has is the one meant (a too-long term is a string, not a `{phrase}` object; a condition
 * whose type is "sentiment" is the sentiment one); among several, the one with fewest errors. A
 * union of plain types the value is none of is one error naming them ("must be boolean or string").
 * Where no shape fits that way, the anyOf's own message stays.
 */
export function meantErrors(errors: readonly ValidationError[]): ValidationError[] {
  let kept = [...errors];
  for (const anyOf of errors.filter((e) => e.keyword === 'anyOf')) {
    const branchOf = (e: ValidationError) => (e.schemaPath.startsWith(`${anyOf.schemaPath}/`) ? e.schemaPath.slice(anyOf.schemaPath.length + 1).split('/')[0] : undefined);
    const branches = new Map<string, ValidationError[]>();
    for (const e of kept) {
      const branch = branchOf(e);
      if (branch !== undefined) branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    // A union of constants (a question's `type`): every constant is kept, to be named together.
    if ([...branches.values()].every((list) => list.every((e) => e.keyword === 'const' && e.instancePath === anyOf.instancePath))) {
      kept = kept.filter((e) => e !== anyOf);
      continue;
    }
    // A union of plain types (a boolean or a string) the value is none of: one message naming them.
    const lists = [...branches.values()];
    if (lists.length > 1 && lists.every((list) => list.length === 1 && list[0]!.keyword === 'type' && list[0]!.instancePath === anyOf.instancePath)) {
      // A branch of several types names them as "string,null" (or a list): each is said.
      const types = lists.flatMap((list) => [(list[0]!.params as { type?: unknown }).type].flat().flatMap((type) => String(type).split(',')));
      kept = kept.filter((e) => e !== anyOf && branchOf(e) === undefined);
      kept.push({ ...anyOf, keyword: 'type', message: `must be ${types.slice(0, -1).join(', ')} or ${types.at(-1)}` });
      continue;
    }
    const wrongShape = (e: ValidationError) => (e.keyword === 'type' && e.instancePath === anyOf.instancePath) || (e.keyword === 'const' && e.instancePath === `${anyOf.instancePath}/type`);
    const meant = [...branches.values()].filter((list) => !list.some(wrongShape)).sort((a, b) => a.length - b.length)[0];
    if (!meant) continue;
    kept = kept.filter((e) => e === anyOf ? false : branchOf(e) === undefined || meant.includes(e));
  }
  return kept;
}

/** Any error as the AppError a client is told of: validation, framework refusals, outages, or an internal error. */
export function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const where = error.validationContext ?? 'body';
    const meant = meantErrors(error.validation);
    // A field that must be one constant of several (a question's `type`) is told them all.
    const constants = new Map<string, unknown[]>();
    for (const v of meant) if (v.keyword === 'const') constants.set(v.instancePath, [...(constants.get(v.instancePath) ?? []), (v.params as { allowedValue?: unknown }).allowedValue]);
    const named: FieldError[] = meant.map((v) => {
      const params = v.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
      // A field as the client wrote it (`questions/0/text`, a query parameter's name), as the
      // checks made in code name theirs; the request's part only where the error is the part's own.
      const named = params.missingProperty ?? params.additionalProperty;
      const pointer = `${v.instancePath}${named ? `/${named}` : ''}`.replace(/^\//, '');
      const path = pointer === '' ? where : pointer;
      const unknown = params.additionalProperty === undefined ? undefined : where === 'querystring' ? 'is not a query parameter of this route' : 'is not a field of this request';
      const allowed = params.allowedValues ?? (v.keyword === 'const' ? [...new Set(constants.get(v.instancePath))] : undefined);
      const message = allowed ? (allowed.length === 1 ? `must be ${String(allowed[0])}` : `must be one of: ${allowed.join(', ')}`) : (unknown ?? v.message ?? 'is invalid');
      return { path, message };
    });
    // The same complaint about the same field (from two branches of a schema) is said once.
    const fieldErrors = named.filter((e, i) => named.findIndex((o) => o.path === e.path && o.message === e.message) === i);
    return new AppError('validation_failed', fieldErrors.map((e) => `${e.path} ${e.message}`).join('; '), fieldErrors);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json', error.message);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('unsupported_media_type', error.message);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('payload_too_large', error.message);
  }
  if (error instanceof SyntaxError) return new AppError('invalid_json', error.message);
  if (isDiskFull(error)) return diskFull();
  if (isDatabaseUnavailable(error)) return new AppError('database_unavailable', 'the database cannot be reached at the moment; nothing was changed, try again', undefined, { 'retry-after': String(DATABASE_RETRY_SECONDS) });
  const status = error.statusCode ?? 500;
  const code = byStatus[status];
  if (code && status < 500) return new AppError(code, error.message);
  return new AppError('internal_error', 'an unexpected error occurred; quote the request id when reporting it');
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, error: AppError): FastifyReply {
  settleUnreadBody(request, reply);
  if (error.headers) for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(error.status).type('application/problem+json').send(problemOf(error, request.id));
}

/**
 * Fastify answers some requests before any route or hook sees them (a path that is not valid
 * percent-encoding, an id longer than the router allows); these answer problem+json too. An id
 * too long to exist is a 404 like any other unknown id.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('not_found', 'no resource has an id this long')
      : error.code === 'FST_ERR_BAD_URL'
        ? invalid('path', 'is not valid percent-encoding')
        : toAppError(error);
  void sendProblem(reply, request, appError);
}

/**
 * Errors Node's HTTP parser raises before a request exists (headers too large, a malformed
 * request line, a client timeout): written straight to the socket, as problem+json.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? urlOverflowed(error.rawPacket)
        ? new AppError('uri_too_long', 'the request URL is longer than the server accepts (send long filters in fewer or shorter values)')
        : new AppError('headers_too_large', 'the request headers are larger than the server accepts')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('request_timeout')
        : new AppError('bad_request', 'the request could not be parsed as HTTP');
  const requestId = randomUUID();
  const body = JSON.stringify(problemOf(appError, requestId));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status] ?? ''}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** A request line longer than this is what overflowed the parser's limit, not the headers after it. */
const LONG_REQUEST_LINE = 8 * 1024;

/**
 * Whether the data the parser failed on begins with a request line that never ended, or ended
 * after LONG_REQUEST_LINE bytes: a URL too long (414) rather than headers too large (431).
 * Data that does not begin a request (a later piece of a slow one) is read as headers.
 */
function urlOverflowed(packet: unknown): boolean {
  if (!Buffer.isBuffer(packet) || !/^[A-Z]+ \S/.test(packet.toString('latin1', 0, 16))) return false;
  const end = packet.indexOf('\r\n');
  return end < 0 || end > LONG_REQUEST_LINE;
}

/** `page`: the web interface's page, sent for a browser's page request that matched no route. */
export function registerErrorHandling(app: FastifyInstance, page: LivePage | null = null): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendProblem(reply, request, appError);
  });
  app.setNotFoundHandler((request, reply) => {
    if (page && isPageRequest(request)) return sendPage(reply, page);
    return sendProblem(reply, request, new AppError('not_found', `no route for ${request.method} ${request.url.split('?')[0]}`));
  });
}
