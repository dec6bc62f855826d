// The HTTP application: plugins, auth, error handling, OpenAPI and every route.
import fastifyCookie from '@fastify/cookie';
import { Type } from '@sinclair/typebox';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Context } from '../context.ts';
import { AppError, invalid } from '../errors.ts';
import { registerAuth } from '../features/access/auth.ts';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './error-handler.ts';
import { registerTextGuard } from './text-guard.ts';
import { registerJsonBody } from './json-body.ts';
import { validatorCompiler } from './validation.ts';
import { registerMetrics } from './metrics-route.ts';
import { OneLinePerRequest } from './request-log.ts';
import { operationIdOf } from './operation-ids.ts';
import { loadPage, registerWeb } from './web.ts';
import { accountRoutes } from '../features/access/account-routes.ts';
import { analysisRoutes } from '../features/analysis/analysis-routes.ts';
import { apiKeyRoutes } from '../features/access/api-key-routes.ts';
import { catalogRoutes } from '../features/catalog/catalog-routes.ts';
import { audioRoutes } from '../features/recordings/audio-routes.ts';
import { fileRoutes } from '../features/files/file-routes.ts';
import { healthRoutes } from './routes/health.ts';
import { invitationRoutes } from '../features/access/invitation-routes.ts';
import { openAiCompatRoutes } from '../features/transcription/openai-compat-routes.ts';
import { recordingRoutes } from '../features/recordings/recording-routes.ts';
import { reportRoutes } from '../features/insights/report-routes.ts';
import { searchRoutes } from '../features/transcription/search-routes.ts';
import { sessionRoutes } from '../features/access/session-routes.ts';
import { transcriptionRunRoutes } from '../features/transcription/transcription-run-routes.ts';
import { transcriptionScenarioRoutes } from '../features/transcription/transcription-scenario-routes.ts';
import { webhookRoutes } from '../features/webhooks/webhook-routes.ts';
import { workspaceRoutes } from '../features/access/workspace-routes.ts';
import { Problem, problemResponse } from './schemas/common.ts';
import { categoryRoutes } from '../features/categories/category-routes.ts';
import { executionRoutes } from '../core/executions/execution-routes.ts';

export interface AppOptions {
  readiness: () => Promise<Record<string, string>>;
}

export async function buildApp(ctx: Context, options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log as unknown as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    // Ids longer than Fastify's default of 100 characters are answered 404 like any unknown id.
    routerOptions: { maxParamLength: 1000 },
    frameworkErrors,
    clientErrorHandler,
    // Behind a TLS proxy, its X-Forwarded-* headers give the client's address and scheme.
    trustProxy: ctx.config.trustProxy,
    logController: new OneLinePerRequest(),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // JSON endpoints take JSON: other bodies are 415, not a confusing schema error.
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // Bodies are read as sent: a compressed one would be parsed as garbage (a confusing 400).
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') throw new AppError('unsupported_content_encoding', `bodies are accepted uncompressed only, not "${encoding}": leave out Content-Encoding`, undefined, { 'accept-encoding': 'identity' });
  });
  const page = loadPage(ctx.config.webDir);
  if (!page) ctx.log.info({ webDir: ctx.config.webDir }, 'no web interface built: serving the API only');
  registerErrorHandling(app, page);
  registerTextGuard(app);
  // A POST sent without any body (no content type) is an empty JSON object, so optional bodies
  // (a run on the default scenario) can be left out as with any JSON API.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.method === 'POST' && !request.headers['content-type']) request.body = {};
  });
  // A form goes only where a form is read: a form body sent elsewhere is 415 as any other body not
  // JSON (not a schema error, nor a body-less route acting on it). Whether a form was sent is the
  // multipart parser's word (a GET's stray header is no body).
  app.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    if (request.is404 || config.form || config.docBody !== undefined || !request.isMultipart()) return;
    throw new AppError('unsupported_media_type', 'this route does not take a multipart form: send JSON (application/json), or no body where it takes none');
  });
  // A route that takes no body (a retry, a cancel) refuses one with fields, as a route with a body
  // refuses a field it does not take: a field sent in vain is a mistake the client hears of. (A
  // form route reads its own body: JSON sent there is its 415.)
  app.addHook('preValidation', async (request) => {
    const body: unknown = request.body;
    const takesBody = request.routeOptions.schema?.body !== undefined || request.routeOptions.config.docBody !== undefined;
    if (request.is404 || takesBody || body === null || typeof body !== 'object' || Buffer.isBuffer(body)) return;
    const [first] = Object.keys(body);
    if (first !== undefined) throw invalid(Array.isArray(body) ? 'body' : first, 'is not a field of this request (it takes no body)');
  });
  app.addSchema(Problem);

  await app.register(fastifySwagger, {
    // Shared schemas keep their $id as their component name (Recording, Transcript, …).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Hark API',
        version: '1.0.0',
        description:
          'Self-hosted audio transcription and analysis. Every error is application/problem+json with a stable `code`. ' +
          'Authenticate with `Authorization: Bearer <API key>`, or, in a browser, with the session cookie set by `POST /api/v1/sessions` ' +
          '(writes then carry the session\'s `X-CSRF-Token`).',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'hark_session' },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const isPublic = (route.config as { public?: boolean } | undefined)?.public === true;
      const scopeConfig = (route.config as { scope?: string | readonly string[] | null } | undefined)?.scope;
      const scope = scopeConfig ? [scopeConfig].flat().map((s) => `\`${s}\``).join(' and ') : null;
      const transformed = { ...schema } as Record<string, unknown>;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!(schema as { hide?: boolean } | undefined)?.hide) transformed.operationId ??= operationIdOf(String(methods[0]), url);
      const docBody = (route.config as { docBody?: unknown } | undefined)?.docBody;
      if (docBody) {
        transformed.body = docBody;
        transformed.consumes = ['multipart/form-data'];
      }
      // A query parameter with a default may be left out: the document says so (validation still
      // fills the default in), so clients do not make it required.
      const querystring = transformed.querystring as { required?: string[]; properties?: Record<string, { default?: unknown }> } | undefined;
      if (querystring?.required && querystring.properties) {
        const properties = querystring.properties;
        transformed.querystring = { ...querystring, required: querystring.required.filter((name) => properties[name]?.default === undefined) };
      }
      // A request that may carry a body (one a route takes, or refuses) can meet a body over the
      // limit and one it cannot read; a workspace path's id that is no id at all is a 404.
      const responses = { ...(transformed.response as Record<string, unknown> | undefined) };
      if (transformed.body || docBody || methods.some((method) => ['POST', 'PUT', 'PATCH'].includes(String(method)))) {
        for (const status of ['413', '415']) responses[status] ??= problemResponse(status === '413' ? 'The body is larger than the limit' : 'The media type or content encoding is not supported');
      }
      if (url.includes(':workspace_id')) responses['404'] ??= problemResponse('Not found');
      if (transformed.response || Object.keys(responses).length > 0) transformed.response = responses;
      if (!isPublic) {
        transformed.security = [{ bearerAuth: [] }, { sessionCookie: [] }];
        if (scope) transformed.description = `${(schema?.description as string | undefined) ?? ''}\n\nScope: ${scope}`.trim();
      }
      return { schema: transformed as typeof schema, url };
    },
  });
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/v1/docs')) route.config = { ...(route.config ?? {}), public: true };
    // A read that takes no query parameters says so for any it is sent (`/engines?limit=1`, a typo
    // of a filter), as the routes that take some do: a 400 naming it, not an answer that ignored it.
    if (route.method === 'GET' && route.url.startsWith('/api/v1/') && !route.url.startsWith('/api/v1/docs') && route.schema && !route.schema.querystring) {
      route.schema = { ...route.schema, querystring: Type.Object({}, { additionalProperties: false }) };
    }
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/v1/docs', uiConfig: { docExpansion: 'list' } });
  // Fields: room for a vocabulary of 200 terms (`vocabulary[]`) beside the other form fields.
  await app.register(fastifyMultipart, { limits: { files: 1, fields: 250, fieldSize: ctx.config.maxMetadataBytes + 1, parts: 251 } });

  await app.register(fastifyCookie);
  registerAuth(app, ctx);

  await app.register(healthRoutes({ ...ctx, readiness: options.readiness }));
  await app.register(accountRoutes(ctx));
  await app.register(sessionRoutes(ctx));
  await app.register(workspaceRoutes(ctx));
  await app.register(invitationRoutes(ctx));
  await app.register(apiKeyRoutes(ctx));
  await app.register(recordingRoutes(ctx));
  await app.register(transcriptionScenarioRoutes(ctx));
  await app.register(transcriptionRunRoutes(ctx));
  await app.register(analysisRoutes(ctx));
  await app.register(executionRoutes(ctx));
  await app.register(webhookRoutes(ctx));
  await app.register(reportRoutes(ctx));
  await app.register(searchRoutes(ctx));
  await app.register(catalogRoutes(ctx));
  await app.register(audioRoutes(ctx));
  await app.register(categoryRoutes(ctx));
  await app.register(fileRoutes(ctx));
  await app.register(async (scope) => openAiCompatRoutes(scope, ctx));

  if (page) await registerWeb(app, ctx.config.webDir, page);
  registerMetrics(app, ctx);
  app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  return app;
}
