// Turns every error into application/problem+json; a 500 says nothing about its cause.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, problemOf, type ErrorCode, type FieldError } from '../errors.ts';

const byStatus: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const where = error.validationContext ?? 'body';
    const fieldErrors: FieldError[] = error.validation.map((v) => {
      const params = v.params as { missingProperty?: string; allowedValues?: unknown[] };
      const path = `${where}${v.instancePath}${params.missingProperty ? `/${params.missingProperty}` : ''}`;
      const message = params.allowedValues ? `must be one of: ${params.allowedValues.join(', ')}` : (v.message ?? 'is invalid');
      return { path, message };
    });
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
  const status = error.statusCode ?? 500;
  const code = byStatus[status];
  if (code && status < 500) return new AppError(code, error.message);
  return new AppError('internal_error', 'an unexpected error occurred; quote the request id when reporting it');
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, error: AppError): FastifyReply {
  if (error.headers) for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(error.status).type('application/problem+json').send(problemOf(error, request.id));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendProblem(reply, request, appError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, request, new AppError('not_found', `no route for ${request.method} ${request.url.split('?')[0]}`)),
  );
}
