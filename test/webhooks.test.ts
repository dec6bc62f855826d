// Webhooks over HTTP: Standard Webhooks signatures checked by a receiver on loopback, retries
// with backoff, nothing lost across a restart, 410, rotation, redelivery and the address guard.
// The public-API calls (webhooks, their deliveries, uploads) go through the shipped TypeScript
// client, every answer checked against openapi.json (so a call that resolves had its one
// documented success status: 201 for a new webhook, 202 for a test event or a redelivery). What
// the receiver got stays raw (those are deliveries, not API answers), and the metrics are scraped
// by hand.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { speech } from './helpers/audio.ts';
import { backends, eventually, registerAccount, rejectsWith, startHark } from './helpers/harness.ts';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

class Receiver {
  received: Received[] = [];
  answers: number[] = [];
  private server: http.Server | null = null;
  port = 0;

  async start(port = 0): Promise<void> {
    this.server = http.createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        this.received.push({ headers: request.headers, body });
        response.writeHead(this.answers.shift() ?? 200).end('thanks');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }
}

/** The Standard Webhooks check, written out here independently of Hark's helper. */
function standardSignatureValid(secret: string, received: Received): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${received.headers['webhook-id']}.${received.headers['webhook-timestamp']}.${received.body}`).digest('base64');
  return String(received.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

const audio = speech('Hello and welcome.');

for (const backend of await backends()) {
  describe(`webhooks on ${backend}`, () => {
    test('signed deliveries, retries with backoff, rotation, 410 and redelivery', async () => {
      const hark = await startHark({ backend, env: { HARK_WEBHOOK_BACKOFF_SECONDS: '1', HARK_METRICS_TOKEN: 'scrape-me' } });
      const receiver = new Receiver();
      await receiver.start();
      try {
        const account = await registerAccount(hark);
        const client = hark.client(account.key);
        // 201 is the only success openapi.json gives a new webhook.
        const hook = await client.createWebhook({ body: { url: receiver.url, events: ['recording.completed', 'recording.failed'] } });
        assert.match(hook.secret, /^whsec_/);
        assert.equal(hook.updated_at, hook.created_at, 'made at one moment, on one clock');
        const [listed] = (await client.listWebhooks()).data;
        assert.equal(listed && 'secret' in listed ? listed.secret : undefined, undefined, 'a listed webhook shows no secret');

        receiver.answers = [500, 503];
        const recordingId = (await client.upload(audio)).id;
        await eventually(async () => receiver.received.length >= 3, 30_000, 'three attempts');
        const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
        assert.equal(ids.size, 1, 'webhook-id is stable across retries');
        for (const received of receiver.received) {
          assert.ok(standardSignatureValid(hook.secret, received), 'Standard Webhooks signature');
          // What the README tells receivers to do: the standardwebhooks package on the raw body.
          const payload = new Webhook(hook.secret).verify(received.body, received.headers as Record<string, string>) as { type: string; data: { id: string; status: string }; workspace_id: string };
          assert.equal(payload.type, 'recording.completed');
          assert.equal(payload.data.id, recordingId);
          assert.equal(payload.workspace_id, account.workspaceId);
        }
        // The receiver has answered; Hark writes the attempt's log row just after.
        const deliveries = await eventually(async () => {
          const log = (await client.listWebhookDeliveries({ path: { webhook_id: hook.id } })).data;
          return log.length >= 3 ? log : null;
        }, 10_000, 'three logged attempts');
        assert.deepEqual(deliveries.map((d) => [d.attempt, d.status_code, d.success]).reverse(), [[1, 500, false], [2, 503, false], [3, 200, true]]);
        assert.equal(deliveries[0]?.response_body, 'thanks');
        // The log is read a page at a time, to its first attempt.
        const first = await client.listWebhookDeliveries({ path: { webhook_id: hook.id }, query: { limit: 2 } });
        const rest = await client.listWebhookDeliveries({ path: { webhook_id: hook.id }, query: { limit: 2, cursor: first.next_cursor! } });
        assert.deepEqual([...first.data, ...rest.data].map((d) => d.attempt), [3, 2, 1]);
        assert.equal(rest.next_cursor, null);
        // Each attempt's outcome is counted in the metrics (a scrape with the metrics token, not an API call: by hand).
        const scraped = (await hark.request({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-me' } })).body;
        for (const [outcome, count] of [['http_500', 1], ['http_503', 1], ['delivered', 1]] as const) {
          assert.match(scraped, new RegExp(`^hark_webhook_deliveries_total\\{outcome="${outcome}"\\} ${count}$`, 'm'));
        }

        const rotated = await client.rotateWebhookSecret({ path: { webhook_id: hook.id } });
        assert.notEqual(rotated.secret, hook.secret);
        // 202 is the only success openapi.json gives a redelivery.
        await client.redeliverWebhook({ path: { webhook_id: hook.id, delivery_id: deliveries[0]!.id } });
        await eventually(async () => receiver.received.length >= 4, 20_000, 'a redelivery');
        const last = receiver.received[3]!;
        assert.equal(last.headers['webhook-id'], receiver.received[0]!.headers['webhook-id']);
        assert.ok(standardSignatureValid(rotated.secret, last) && standardSignatureValid(hook.secret, last), 'old and new secrets both sign during rotation');

        await client.updateWebhook({ path: { webhook_id: hook.id }, body: { enabled: true } });
        receiver.answers = [500];
        await hark.runtime.ctx.db.updateTable('webhooks').set({ failing_since: new Date(Date.now() - 25 * 3600_000) }).where('id', '=', hook.id).execute();
        await client.upload(audio);
        const dayLong = await eventually(async () => {
          const card = await client.getWebhook({ path: { webhook_id: hook.id } });
          return card.enabled ? null : card;
        }, 30_000, 'the endpoint to be disabled after a day of failures');
        assert.match(String(dayLong.disabled_reason), /day/);
        const reenabled = await client.updateWebhook({ path: { webhook_id: hook.id }, body: { enabled: true } });
        assert.equal(reenabled.enabled, true);
        assert.equal(reenabled.failing_since, null);

        receiver.answers = [410];
        await client.upload(audio);
        const disabled = await eventually(async () => {
          const card = await client.getWebhook({ path: { webhook_id: hook.id } });
          return card.enabled ? null : card;
        }, 30_000, 'the endpoint to be disabled by 410');
        assert.match(String(disabled.disabled_reason), /410/);
      } finally {
        await receiver.stop();
        await hark.destroy();
      }
    });

    test('a test event reaches the webhook at once, signed, whatever its event filter', async () => {
      const hark = await startHark({ backend, workers: true });
      const receiver = new Receiver();
      await receiver.start();
      try {
        const client = hark.client((await registerAccount(hark)).key);
        const hook = await client.createWebhook({ body: { url: receiver.url, events: ['execution.completed'] } });
        // 202 is the only success openapi.json gives a test event.
        const eventId = (await client.sendTestEvent({ path: { webhook_id: hook.id } })).event_id;
        await eventually(async () => receiver.received.length >= 1, 30_000, 'the test event');
        const payload = new Webhook(hook.secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers as Record<string, string>) as { id: string; type: string; data: { webhook_id: string } };
        assert.equal(payload.type, 'webhook.test');
        assert.equal(payload.id, eventId);
        assert.equal(payload.data.webhook_id, hook.id);
        const log = (await client.listWebhookDeliveries({ path: { webhook_id: hook.id } })).data;
        assert.deepEqual(log.map((d) => [d.event_type, d.success]), [['webhook.test', true]]);
        // A test answered 410 is logged, and does not disable the endpoint (only real deliveries do).
        receiver.answers = [410];
        await client.sendTestEvent({ path: { webhook_id: hook.id } });
        await eventually(async () => (await client.listWebhookDeliveries({ path: { webhook_id: hook.id } })).data.some((d) => d.status_code === 410), 30_000, 'the second test');
        const after = await client.getWebhook({ path: { webhook_id: hook.id } });
        assert.equal(after.enabled, true);
        assert.equal(after.failing_since, null);
        // Another workspace's key, in its own workspace, finds no such webhook.
        const other = hark.client((await registerAccount(hark)).key);
        await rejectsWith(other.sendTestEvent({ path: { webhook_id: hook.id } }), 404, 'not_found');
      } finally {
        await receiver.stop();
        await hark.destroy();
      }
    });

    test('nothing is lost when the receiver is down across a restart of Hark', async () => {
      let hark = await startHark({ backend, env: { HARK_WEBHOOK_BACKOFF_SECONDS: '1' } });
      const receiver = new Receiver();
      await receiver.start();
      const port = receiver.port;
      await receiver.stop();
      try {
        // This client is served by the Hark before the restart; nothing asks the API after it.
        const client = hark.client((await registerAccount(hark)).key);
        await client.createWebhook({ body: { url: `http://127.0.0.1:${port}/hooks`, events: ['*'] } });
        const id = (await client.upload(audio)).id;
        await eventually(async () => {
          const hooks = (await client.listWebhooks()).data;
          return hooks[0]?.failing_since ? true : null;
        }, 30_000, 'a failed attempt');
        hark = await hark.restart();
        await receiver.start(port);
        await eventually(async () => receiver.received.some((r) => r.body.includes(id)), 60_000, 'delivery after the restart');
        assert.equal(JSON.parse(receiver.received[0]!.body).type, 'recording.completed');
      } finally {
        await receiver.stop();
        await hark.destroy();
      }
    });

    test('webhook URLs must reach public addresses unless allowed', async () => {
      const hark = await startHark({ backend, env: { HARK_IMPORT_ALLOW_PRIVATE: '0' } });
      try {
        const client = hark.client((await registerAccount(hark)).key);
        for (const url of ['http://127.0.0.1:9/x', 'http://localhost/x', 'http://localhost./x', 'http://LocalHost../x', 'http://api.localhost/x', 'http://169.254.169.254/latest', 'http://[::1]/x', 'ftp://example.com/x']) {
          await rejectsWith(client.createWebhook({ body: { url } }), 400, 'validation_failed');
        }
        // An event the client's types refuse, sent as it would arrive from elsewhere.
        await rejectsWith(client.createWebhook({ body: { url: 'https://example.com/x', events: ['nope'] as never } }), 400, 'validation_failed');
      } finally {
        await hark.destroy();
      }
    });
  });
}
