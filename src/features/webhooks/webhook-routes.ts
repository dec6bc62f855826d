// P/webhooks: endpoints, secret rotation, the delivery log and redelivery.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { eventTypes } from '../../core/events.ts';
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, redeliver, rotateWebhookSecret, sendTestEvent, updateWebhook, type Webhook } from './webhooks.ts';
import { StringEnum, DateTime, Nullable, NullableDateTime, Page, ShortListQuery, pagingFields, withProblems, WorkspaceParams } from '../../http/schemas/common.ts';
import { offsetPage, offsetStart } from '../../core/cursor.ts';

const EventName = StringEnum(['*', ...eventTypes]);
const WebhookCard = Type.Object(
  {
    id: Type.String({ description: 'wh-<uuid>' }),
    url: Type.String(),
    description: Type.String(),
    events: Type.Array(Type.String()),
    enabled: Type.Boolean(),
    disabled_reason: Nullable(Type.String()),
    failing_since: NullableDateTime,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Webhook' },
);
const WithSecret = Type.Composite([WebhookCard, Type.Object({ secret: Type.String({ description: 'whsec_…: shown on create and rotate only' }) })]);
const Delivery = Type.Object({
  id: Type.String(),
  event_id: Type.String({ description: 'The webhook-id header: stable across attempts' }),
  event_type: Type.String(),
  attempt: Type.Integer(),
  status_code: Nullable(Type.Integer()),
  success: Type.Boolean(),
  duration_ms: Type.Integer(),
  response_body: Nullable(Type.String({ description: 'The first 1 KiB of the answer' })),
  error: Nullable(Type.String()),
  next_attempt_at: NullableDateTime,
  created_at: DateTime,
});
const HookParams = Type.Object({ workspace_id: Type.String(), webhook_id: Type.String() });

const present = (hook: Webhook) => ({
  id: hook.id,
  url: hook.url,
  description: hook.description,
  events: hook.events,
  enabled: hook.enabled,
  disabled_reason: hook.disabled_reason,
  failing_since: hook.failing_since,
  created_at: hook.created_at,
  updated_at: hook.updated_at,
});

export const webhookRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const base = '/api/v1/workspaces/:workspace_id/webhooks';
  const config = { scope: 'webhooks:manage' as const };
  const tags = ['webhooks'];
  const fields = {
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    events: Type.Array(EventName, { minItems: 1, maxItems: 20 }),
    enabled: Type.Boolean(),
    description: Type.String({ maxLength: 500 }),
  };

  app.post(
    base,
    {
      config,
      schema: {
        tags,
        summary: 'Create a webhook endpoint; the signing secret is in this response only',
        description: 'Deliveries are signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256>).',
        params: WorkspaceParams,
        body: Type.Composite([Type.Object({ url: fields.url }), Type.Partial(Type.Object({ events: fields.events, enabled: fields.enabled, description: fields.description }))], { additionalProperties: false }),
        response: withProblems({ 201: WithSecret }),
      },
    },
    async (request, reply) => {
      const hook = await createWebhook(ctx, request.params.workspace_id, request.body);
      return reply.code(201).send({ ...present(hook), secret: hook.secret });
    },
  );
  app.get(base, { config, schema: { tags, summary: 'List webhook endpoints, oldest first', params: WorkspaceParams, querystring: ShortListQuery, response: withProblems({ 200: Page(WebhookCard) }) } }, async (request) => {
    const start = offsetStart(request.query, 'webhooks');
    return offsetPage((await listWebhooks(ctx, request.params.workspace_id, { start, take: request.query.limit + 1 })).map(present), request.query.limit, start, 'webhooks');
  });
  app.get(`${base}/:webhook_id`, { config, schema: { tags, summary: 'A webhook endpoint', params: HookParams, response: withProblems({ 200: WebhookCard }, 404) } }, async (request) =>
    present(await getWebhook(ctx, request.params.workspace_id, request.params.webhook_id)),
  );
  app.patch(
    `${base}/:webhook_id`,
    { config, schema: { tags, summary: 'Update a webhook endpoint (enabling it again clears its failure state)', params: HookParams, body: Type.Partial(Type.Object(fields), { additionalProperties: false }), response: withProblems({ 200: WebhookCard }, 404) } },
    async (request) => present(await updateWebhook(ctx, request.params.workspace_id, request.params.webhook_id, request.body)),
  );
  app.delete(`${base}/:webhook_id`, { config, schema: { tags, summary: 'Delete a webhook endpoint', params: HookParams, response: withProblems({ 204: Type.Null() }, 404) } }, async (request, reply) => {
    await deleteWebhook(ctx, request.params.workspace_id, request.params.webhook_id);
    return reply.code(204).send(null);
  });
  app.post(`${base}/:webhook_id/rotate-secret`, { config, schema: { tags, summary: 'A new secret; the old one also signs for 24 hours', params: HookParams, response: withProblems({ 200: WithSecret }, 404) } }, async (request) => {
    const hook = await rotateWebhookSecret(ctx, request.params.workspace_id, request.params.webhook_id);
    return { ...present(hook), secret: hook.secret };
  });
  app.get(
    `${base}/:webhook_id/deliveries`,
    {
      config,
      schema: {
        tags,
        summary: 'Delivery attempts, newest first, a page at a time',
        params: HookParams,
        querystring: Type.Object(pagingFields(), { additionalProperties: false }),
        response: withProblems({ 200: Page(Delivery) }, 404),
      },
    },
    async (request) => listDeliveries(ctx, request.params.workspace_id, request.params.webhook_id, request.query),
  );
  app.post(
    `${base}/:webhook_id/test`,
    {
      config,
      schema: {
        tags,
        summary: 'Send a webhook.test event to this webhook now, whatever its event filter (one attempt)',
        params: HookParams,
        response: withProblems({ 202: Type.Object({ event_id: Type.String({ description: 'The webhook-id of the delivery' }) }) }, 404),
      },
    },
    async (request, reply) => reply.code(202).send({ event_id: await sendTestEvent(ctx, request.params.workspace_id, request.params.webhook_id) }),
  );
  app.post(
    `${base}/:webhook_id/deliveries/:delivery_id/redeliver`,
    { config, schema: { tags, summary: 'Send the event of a delivery again (one attempt, same webhook-id)', params: Type.Object({ workspace_id: Type.String(), webhook_id: Type.String(), delivery_id: Type.String() }), response: withProblems({ 202: Type.Object({ queued: Type.Boolean() }) }, 404) } },
    async (request, reply) => {
      await redeliver(ctx, request.params.workspace_id, request.params.webhook_id, request.params.delivery_id);
      return reply.code(202).send({ queued: true });
    },
  );
};
