// deliver-webhook: one attempt to deliver one event to one endpoint, logged; failures are tried
// again with exponential backoff and jitter; 410 disables the endpoint, and so does a day of
// failures.
import type { Context } from '../../context.ts';
import { newUuid } from '../../ids.ts';
import { postWebhook } from './post.ts';
import { signatureHeader } from './signature.ts';
import type { JobHandler } from '../../platform/queue/queue.ts';

const DAY_MS = 86_400_000;

export function backoffSeconds(base: number, attempt: number, random = Math.random()): number {
  return Math.round(base * 3 ** (attempt - 1) * (0.8 + 0.4 * random));
}

export function deliverWebhookJob(ctx: Context): JobHandler<'deliver-webhook'> {
  const { maxAttempts, backoffSeconds: base } = ctx.config.webhooks;
  return {
    name: 'deliver-webhook',
    settings: { retryLimit: 2, retryDelay: 5, retryBackoff: true, expireInSeconds: 120 },
    concurrency: 4,
    async handle({ webhookId, eventId, attempt, manual }) {
      const hook = await ctx.db.selectFrom('webhooks').selectAll().where('id', '=', webhookId).executeTakeFirst();
      const event = await ctx.db.selectFrom('webhook_events').selectAll().where('id', '=', eventId).executeTakeFirst();
      if (!hook || !event || (!hook.enabled && !manual)) return;
      const already = await ctx.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhookId).where('event_id', '=', eventId).where('attempt', '=', attempt).executeTakeFirst();
      if (already && !manual) return; // this attempt was made before a crash

      const timestamp = Math.floor(Date.now() / 1000);
      const secrets = [hook.secret];
      if (hook.previous_secret && hook.previous_secret_expires_at && hook.previous_secret_expires_at.getTime() > Date.now()) secrets.push(hook.previous_secret);
      const headers = {
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, event.id, timestamp, event.payload),
      };
      const result = await postWebhook(hook.url, headers, event.payload, { allowPrivate: ctx.config.importAllowPrivate, timeoutMs: 10_000 });
      const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      ctx.metrics.webhookDeliveries.inc({ outcome: success ? 'delivered' : result.statusCode === null ? 'no_answer' : `http_${result.statusCode}` });
      const gone = result.statusCode === 410;
      const failingSince = success ? null : (hook.failing_since ?? new Date());
      const tooLong = !success && failingSince !== null && Date.now() - failingSince.getTime() > DAY_MS;
      const retry = !success && !gone && !tooLong && !manual && attempt < maxAttempts;
      const wait = retry ? backoffSeconds(base, attempt) : 0;

      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('webhook_deliveries')
          .values({
            id: `whd_${newUuid()}`,
            webhook_id: hook.id,
            event_id: event.id,
            event_type: event.type,
            attempt,
            status_code: result.statusCode,
            success,
            duration_ms: result.durationMs,
            response_body: result.body,
            error: result.error,
            next_attempt_at: retry ? new Date(Date.now() + wait * 1000) : null,
          })
          .execute();
        // A manual attempt (a test event, a redelivery) is logged and changes nothing of the endpoint's state: a test answered 410 does not disable it.
        if (manual) return;
        const disable = gone ? 'the endpoint answered 410 Gone' : tooLong ? 'deliveries failed for more than a day' : null;
        await trx
          .updateTable('webhooks')
          .set({ failing_since: failingSince, ...(disable ? { enabled: false, disabled_reason: disable } : {}), updated_at: new Date() })
          .where('id', '=', hook.id)
          .execute();
        if (retry) await ctx.queue.send('deliver-webhook', { webhookId, eventId, attempt: attempt + 1 }, { trx, startAfterSeconds: Math.max(1, wait) });
      });
    },
  };
}
