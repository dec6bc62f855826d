// Webhooks over HTTP: Standard Webhooks signatures checked by a receiver on loopback, retries
// with backoff, nothing lost across a restart, 410, rotation, redelivery and the address guard.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { upload } from './helpers/api.ts';
import { speech } from './helpers/audio.ts';
import { assertProblem, backends, eventually, registerAccount, startHark } from './helpers/harness.ts';

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
        const P = `/api/v1/workspaces/${account.workspaceId}`;
        const created = await hark.request({ method: 'POST', url: `${P}/webhooks`, key: account.key, payload: { url: receiver.url, events: ['recording.completed', 'recording.failed'] } });
        assert.equal(created.statusCode, 201, created.body);
        const hook = created.json<{ id: string; secret: string }>();
        assert.match(hook.secret, /^whsec_/);
        assert.equal((await hark.request({ method: 'GET', url: `${P}/webhooks`, key: account.key })).json<{ data: { secret?: string }[] }>().data[0]?.secret, undefined);

        receiver.answers = [500, 503];
        const recordingId = (await upload(hark, account, audio)).json<{ id: string }>().id;
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
          const log = (await hark.request({ method: 'GET', url: `${P}/webhooks/${hook.id}/deliveries`, key: account.key })).json<{ data: { id: string; attempt: number; status_code: number; success: boolean; duration_ms: number; response_body: string }[] }>().data;
          return log.length >= 3 ? log : null;
        }, 10_000, 'three logged attempts');
        assert.deepEqual(deliveries.map((d) => [d.attempt, d.status_code, d.success]).reverse(), [[1, 500, false], [2, 503, false], [3, 200, true]]);
        assert.equal(deliveries[0]?.response_body, 'thanks');
        // Each attempt's outcome is counted in the metrics.
        const scraped = (await hark.request({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-me' } })).body;
        for (const [outcome, count] of [['http_500', 1], ['http_503', 1], ['delivered', 1]] as const) {
          assert.match(scraped, new RegExp(`^hark_webhook_deliveries_total\\{outcome="${outcome}"\\} ${count}$`, 'm'));
        }

        const rotated = (await hark.request({ method: 'POST', url: `${P}/webhooks/${hook.id}/rotate-secret`, key: account.key })).json<{ secret: string }>();
        assert.notEqual(rotated.secret, hook.secret);
        const redelivered = await hark.request({ method: 'POST', url: `${P}/webhooks/${hook.id}/deliveries/${deliveries[0]!.id}/redeliver`, key: account.key });
        assert.equal(redelivered.statusCode, 202);
        await eventually(async () => receiver.received.length >= 4, 20_000, 'a redelivery');
        const last = receiver.received[3]!;
        assert.equal(last.headers['webhook-id'], receiver.received[0]!.headers['webhook-id']);
        assert.ok(standardSignatureValid(rotated.secret, last) && standardSignatureValid(hook.secret, last), 'old and new secrets both sign during rotation');

        await hark.request({ method: 'PATCH', url: `${P}/webhooks/${hook.id}`, key: account.key, payload: { enabled: true } });
        receiver.answers = [500];
        await hark.runtime.ctx.db.updateTable('webhooks').set({ failing_since: new Date(Date.now() - 25 * 3600_000) }).where('id', '=', hook.id).execute();
        await upload(hark, account, audio);
        const dayLong = await eventually(async () => {
          const card = (await hark.request({ method: 'GET', url: `${P}/webhooks/${hook.id}`, key: account.key })).json<{ enabled: boolean; disabled_reason: string }>();
          return card.enabled ? null : card;
        }, 30_000, 'the endpoint to be disabled after a day of failures');
        assert.match(dayLong.disabled_reason, /day/);
        const reenabled = (await hark.request({ method: 'PATCH', url: `${P}/webhooks/${hook.id}`, key: account.key, payload: { enabled: true } })).json<{ enabled: boolean; failing_since: string | null }>();
        assert.equal(reenabled.enabled, true);
        assert.equal(reenabled.failing_since, null);

        receiver.answers = [410];
        await upload(hark, account, audio);
        const disabled = await eventually(async () => {
          const card = (await hark.request({ method: 'GET', url: `${P}/webhooks/${hook.id}`, key: account.key })).json<{ enabled: boolean; disabled_reason: string }>();
          return card.enabled ? null : card;
        }, 30_000, 'the endpoint to be disabled by 410');
        assert.match(disabled.disabled_reason, /410/);
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
        const account = await registerAccount(hark);
        const P = `/api/v1/workspaces/${account.workspaceId}`;
        const hook = (await hark.request({ method: 'POST', url: `${P}/webhooks`, key: account.key, payload: { url: receiver.url, events: ['execution.completed'] } })).json<{ id: string; secret: string }>();
        const sent = await hark.request({ method: 'POST', url: `${P}/webhooks/${hook.id}/test`, key: account.key });
        assert.equal(sent.statusCode, 202, sent.body);
        const eventId = sent.json<{ event_id: string }>().event_id;
        await eventually(async () => receiver.received.length >= 1, 30_000, 'the test event');
        const payload = new Webhook(hook.secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers as Record<string, string>) as { id: string; type: string; data: { webhook_id: string } };
        assert.equal(payload.type, 'webhook.test');
        assert.equal(payload.id, eventId);
        assert.equal(payload.data.webhook_id, hook.id);
        const log = (await hark.request({ method: 'GET', url: `${P}/webhooks/${hook.id}/deliveries`, key: account.key })).json<{ data: { event_type: string; success: boolean }[] }>().data;
        assert.deepEqual(log.map((d) => [d.event_type, d.success]), [['webhook.test', true]]);
        const other = await registerAccount(hark);
        assertProblem(await hark.request({ method: 'POST', url: `/api/v1/workspaces/${other.workspaceId}/webhooks/${hook.id}/test`, key: other.key }), 404, 'not_found');
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
        const account = await registerAccount(hark);
        const P = `/api/v1/workspaces/${account.workspaceId}`;
        await hark.request({ method: 'POST', url: `${P}/webhooks`, key: account.key, payload: { url: `http://127.0.0.1:${port}/hooks`, events: ['*'] } });
        const id = (await upload(hark, account, audio)).json<{ id: string }>().id;
        await eventually(async () => {
          const hooks = (await hark.request({ method: 'GET', url: `${P}/webhooks`, key: account.key })).json<{ data: { failing_since: string | null }[] }>().data;
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
        const account = await registerAccount(hark);
        const P = `/api/v1/workspaces/${account.workspaceId}`;
        for (const url of ['http://127.0.0.1:9/x', 'http://localhost/x', 'http://169.254.169.254/latest', 'http://[::1]/x', 'ftp://example.com/x']) {
          assertProblem(await hark.request({ method: 'POST', url: `${P}/webhooks`, key: account.key, payload: { url } }), 400, 'validation_failed');
        }
        assertProblem(await hark.request({ method: 'POST', url: `${P}/webhooks`, key: account.key, payload: { url: 'https://example.com/x', events: ['nope'] } }), 400, 'validation_failed');
      } finally {
        await hark.destroy();
      }
    });
  });
}
