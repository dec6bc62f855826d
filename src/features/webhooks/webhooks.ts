// Webhook endpoints: create (secret shown once), list, update, delete, rotate the secret (the old
// one keeps signing for 24 h), the delivery log and redelivery.
import type { Selectable } from 'kysely';
import type { Context } from '../../context.ts';
import type { WebhooksTable } from '../../platform/db/tables.ts';
import { invalid, notFound } from '../../errors.ts';
import { isId, newId, newUuid } from '../../ids.ts';
import { AddressNotAllowedError, assertLiteralAllowed, isPublicAddress } from '../../platform/net/address-policy.ts';
import dns from 'node:dns/promises';
import { newWebhookSecret } from './signature.ts';
import { eventTypes } from '../../core/events.ts';
import { decodeCursor, page, type RowWindow } from '../../core/cursor.ts';

export type Webhook = Selectable<WebhooksTable>;

export interface WebhookInput {
  url?: string | undefined;
  events?: string[] | undefined;
  enabled?: boolean | undefined;
  description?: string | undefined;
}

async function checkUrl(ctx: Context, raw: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('url', 'is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('url', 'must be http or https');
  if (url.username || url.password) throw invalid('url', 'must not contain credentials');
  if (!ctx.config.importAllowPrivate) {
    try {
      assertLiteralAllowed(url.hostname, { allowPrivate: false });
    } catch (error) {
      if (error instanceof AddressNotAllowedError) throw invalid('url', `must reach a public address (${error.address} is not; an operator may allow private addresses with HARK_ALLOW_PRIVATE_ADDRESSES=1)`);
      throw error;
    }
    const addresses = await dns.lookup(url.hostname.replace(/^\[|\]$/g, ''), { all: true }).catch(() => []);
    if (addresses.some((a) => !isPublicAddress(a.address))) throw invalid('url', 'must reach a public address (an operator may allow private addresses with HARK_ALLOW_PRIVATE_ADDRESSES=1)');
  }
  return url.toString();
}

function checkEvents(events: string[]): string[] {
  const unknown = events.filter((e) => e !== '*' && !(eventTypes as readonly string[]).includes(e));
  if (unknown.length > 0) throw invalid('events', `unknown event types ${unknown.join(', ')}; use "*" or ${eventTypes.join(', ')}`);
  return [...new Set(events)];
}

export async function createWebhook(ctx: Context, workspaceId: string, input: WebhookInput & { url: string }): Promise<Webhook> {
  // One clock for both: the database's now() (the transaction's start) could fall after this one.
  const now = new Date();
  return ctx.db
    .insertInto('webhooks')
    .values({
      id: newId('webhook'),
      workspace_id: workspaceId,
      url: await checkUrl(ctx, input.url),
      description: input.description ?? '',
      events: checkEvents(input.events ?? ['*']),
      enabled: input.enabled ?? true,
      secret: newWebhookSecret(),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getWebhook(ctx: Context, workspaceId: string, id: string): Promise<Webhook> {
  const hook = isId('webhook', id) ? await ctx.db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst() : undefined;
  if (!hook) throw notFound(`webhook ${id}`);
  return hook;
}

/** A workspace's endpoints, oldest first; `window` takes a page of them. */
export function listWebhooks(ctx: Context, workspaceId: string, window?: RowWindow) {
  let query = ctx.db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id');
  if (window) query = query.offset(window.start).limit(window.take);
  return query.execute();
}

export async function updateWebhook(ctx: Context, workspaceId: string, id: string, input: WebhookInput): Promise<Webhook> {
  const hook = await getWebhook(ctx, workspaceId, id);
  const enabling = input.enabled === true && !hook.enabled;
  return ctx.db
    .updateTable('webhooks')
    .set({
      ...(input.url !== undefined ? { url: await checkUrl(ctx, input.url) } : {}),
      ...(input.events !== undefined ? { events: checkEvents(input.events) } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(enabling ? { disabled_reason: null, failing_since: null } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', hook.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteWebhook(ctx: Context, workspaceId: string, id: string): Promise<void> {
  const hook = await getWebhook(ctx, workspaceId, id);
  await ctx.db.deleteFrom('webhooks').where('id', '=', hook.id).execute();
}

export async function rotateWebhookSecret(ctx: Context, workspaceId: string, id: string): Promise<Webhook> {
  const hook = await getWebhook(ctx, workspaceId, id);
  return ctx.db
    .updateTable('webhooks')
    .set({ secret: newWebhookSecret(), previous_secret: hook.secret, previous_secret_expires_at: new Date(Date.now() + 86_400_000), updated_at: new Date() })
    .where('id', '=', hook.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A webhook's delivery attempts, newest first, a page at a time (every attempt is kept, so the log can be read to its start). */
export async function listDeliveries(ctx: Context, workspaceId: string, id: string, options: { limit: number; offset?: number | undefined; cursor?: string | undefined }) {
  const hook = await getWebhook(ctx, workspaceId, id);
  let query = ctx.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', hook.id);
  if (options.cursor) query = query.where('seq', '<', decodeCursor(options.cursor, 'webhook-deliveries'));
  return page(await query.orderBy('seq', 'desc').offset(options.offset ?? 0).limit(options.limit + 1).execute(), options.limit, 'webhook-deliveries');
}

export async function redeliver(ctx: Context, workspaceId: string, id: string, deliveryId: string): Promise<void> {
  const hook = await getWebhook(ctx, workspaceId, id);
  const delivery = await ctx.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', hook.id).where('id', '=', deliveryId).executeTakeFirst();
  if (!delivery) throw notFound(`delivery ${deliveryId}`);
  const last = await ctx.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.max('attempt').as('attempt')).where('webhook_id', '=', hook.id).where('event_id', '=', delivery.event_id).executeTakeFirst();
  await ctx.queue.send('deliver-webhook', { webhookId: hook.id, eventId: delivery.event_id, attempt: Number(last?.attempt ?? 0) + 1, manual: true });
}

/**
 * A `webhook.test` event sent to one webhook at once, whatever its event filter (one attempt, in
 * its delivery log): lets an integrator check the endpoint and its signature check.
 */
export async function sendTestEvent(ctx: Context, workspaceId: string, id: string): Promise<string> {
  const hook = await getWebhook(ctx, workspaceId, id);
  const eventId = `msg_${newUuid()}`;
  const createdAt = new Date();
  const data = { webhook_id: hook.id, message: 'A test event from Hark: your endpoint and its signature check work.' };
  const payload = JSON.stringify({ id: eventId, type: 'webhook.test', created_at: createdAt.toISOString(), workspace_id: workspaceId, data });
  await ctx.db.transaction().execute(async (trx) => {
    await trx.insertInto('webhook_events').values({ id: eventId, workspace_id: workspaceId, type: 'webhook.test', payload, created_at: createdAt }).execute();
    await ctx.queue.send('deliver-webhook', { webhookId: hook.id, eventId, attempt: 1, manual: true }, { trx });
  });
  return eventId;
}
