// P/api-keys: create (secret shown once), list, delete (revoked at once).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { scopes } from '../../scopes.ts';
import { createApiKey, deleteApiKey, listApiKeys, type ApiKey } from './api-keys.ts';
import { actingAccount, assertCanGrant, assertCanRevoke } from './auth.ts';
import { StringEnum, DateTime, NullableDateTime, Page, ShortListQuery, withProblems, WorkspaceParams } from '../../http/schemas/common.ts';
import { offsetPage, offsetStart } from '../../core/cursor.ts';

const Scope = StringEnum(scopes);

const KeyCard = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the secret, to recognise it' }),
  scopes: Type.Array(Type.String()),
  expires_at: NullableDateTime,
  last_used_at: NullableDateTime,
  created_at: DateTime,
  created_by: Type.Union([Type.String(), Type.Null()], {
    description: 'The account the key answers to: it grants no more than that account\'s role in the workspace now, and nothing once the account has left it; null for an operator\'s key (hark admin) or one made before keys named their maker',
  }),
});

const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    scopes: Type.Array(Scope, { minItems: 1, maxItems: scopes.length * 2 }),
    expires_at: Type.Optional(Type.Union([DateTime, Type.Null()])),
  },
  { additionalProperties: false },
);

const presentKey = (key: ApiKey) => ({
  id: key.id,
  name: key.name,
  prefix: key.key_prefix,
  scopes: key.scopes,
  expires_at: key.expires_at,
  last_used_at: key.last_used_at,
  created_at: key.created_at,
  created_by: key.created_by,
});

export const apiKeyRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const config = { scope: 'keys:manage' as const };
  app.post(
    '/api/v1/workspaces/:workspace_id/api-keys',
    {
      config,
      schema: {
        tags: ['api-keys'],
        summary: 'Create an API key; the secret is in the response only',
        params: WorkspaceParams,
        body: CreateBody,
        response: withProblems({ 201: Type.Composite([KeyCard, Type.Object({ key: Type.String() })]) }),
      },
    },
    async (request, reply) => {
      assertCanGrant(request, request.body.scopes, 'these scopes');
      const maker = request.principal!.key;
      const { key, secret } = await createApiKey(ctx.db, request.params.workspace_id, request.body, {
        account: actingAccount(request),
        key: maker ? { id: maker.id, expires_at: maker.expires_at } : null,
      });
      return reply.code(201).send({ ...presentKey(key), key: secret });
    },
  );
  app.get(
    '/api/v1/workspaces/:workspace_id/api-keys',
    {
      config,
      schema: { tags: ['api-keys'], summary: 'List API keys (no secrets), newest first', params: WorkspaceParams, querystring: ShortListQuery, response: withProblems({ 200: Page(KeyCard) }) },
    },
    async (request) => {
      const start = offsetStart(request.query, 'api-keys');
      return offsetPage((await listApiKeys(ctx, request.params.workspace_id, { start, take: request.query.limit + 1 })).map(presentKey), request.query.limit, start, 'api-keys');
    },
  );
  app.delete(
    '/api/v1/workspaces/:workspace_id/api-keys/:key_id',
    {
      config,
      schema: {
        tags: ['api-keys'],
        summary: 'Delete (revoke) an API key at once (a caller holding every scope the key holds)',
        params: Type.Object({ workspace_id: Type.String(), key_id: Type.String() }),
        response: withProblems({ 204: Type.Null() }, 404),
      },
    },
    async (request, reply) => {
      await deleteApiKey(ctx, request.params.workspace_id, request.params.key_id, (scopes) => assertCanRevoke(request, scopes));
      return reply.code(204).send(null);
    },
  );
};
