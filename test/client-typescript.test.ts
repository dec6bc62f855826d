// The TypeScript client against a live Hark: upload, transcribe and wait, analysis with typed
// answers, paging, an execution replayed with its key, typed errors, a 429 retried, a webhook
// delivery verified (and a tampered one refused), and the quickstart program's output.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { Hark as Client, ConnectionError, HarkError, NotFoundError, PermissionDeniedError, RateLimitError, verifyWebhook, WebhookVerificationError } from '../clients/typescript/src/index.ts';
import { speech } from './helpers/audio.ts';
import { eventually, registerAccount, startHark, type Account, type Hark } from './helpers/harness.ts';

const run = promisify(execFile);
const root = path.join(import.meta.dirname, '..');

describe('the TypeScript client against a live Hark', () => {
  let hark: Hark;
  let account: Account;
  let client: Client;
  let baseUrl: string;
  before(async () => {
    hark = await startHark({ backend: 'pglite' });
    await hark.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(hark.app.server.address() as AddressInfo).port}`;
    account = await registerAccount(hark);
    client = new Client({ baseUrl, apiKey: account.key });
  });
  after(() => hark.destroy());

  test('upload, transcribe with the default scenario and wait: the transcript has the spoken words', async () => {
    const transcript = await client.transcribe(speech('Please send me the invoice for last month.'), { metadata: { agent: 'ana' } });
    assert.match(transcript.text, /invoice/i);
    assert.ok(transcript.words.length > 3);
  });

  test('transcribe waits for the run an automatic scenario started on upload instead of transcribing the call twice', async () => {
    const scenarios = await client.listTranscriptionScenarios();
    const scenario = scenarios.data[0]!;
    await client.updateTranscriptionScenario({ path: { scenario_id: scenario.id }, body: { auto: true } });
    try {
      const transcript = await client.transcribe(speech('My order number is missing from the email.'));
      assert.match(transcript.text, /order/i);
      const runs = await client.listTranscriptionRuns({ query: { recording_id: transcript.recording_id } });
      assert.deepEqual(runs.data.map((run) => run.transcription_scenario_id), [scenario.id], 'one run: the automatic one');
    } finally {
      await client.updateTranscriptionScenario({ path: { scenario_id: scenario.id }, body: { auto: false } });
    }
  });

  test('an analysis scenario answers with typed answers', async () => {
    const recording = await client.upload(speech('Hello, thank you for calling. I would like a refund.'));
    const transcript = await client.transcribe({ id: recording.id });
    const scenario = await client.createAnalysisScenario({
      body: { name: 'Review', questions: [{ id: 'greeting', text: 'Did the agent greet the customer?', type: 'boolean' }, { id: 'request', text: 'What did the customer ask for?', type: 'text' }] },
    });
    const started = await client.createAnalysisRun({ path: { recording_id: recording.id }, body: { analysis_scenario_id: scenario.id, transcript_id: transcript.id } });
    const result = await client.waitForAnalysis(started.id);
    assert.deepEqual(result.answers.map((a) => typeof a.answer), ['boolean', 'string']);

    // An execution replayed with the same key is the same execution; without a key one is made.
    const first = await client.execute('analysis', scenario.id, { recordingIds: [recording.id], idempotencyKey: 'nightly-1' });
    const again = await client.execute('analysis', scenario.id, { recordingIds: [recording.id], idempotencyKey: 'nightly-1' });
    assert.equal(again.id, first.id);
    const other = await client.execute('analysis', scenario.id, { recordingIds: [recording.id] });
    assert.notEqual(other.id, first.id);
  });

  test('paging follows next_cursor over every recording', async () => {
    for (let i = 0; i < 3; i++) await client.upload(speech(`Call number ${i}.`));
    const seen: string[] = [];
    for await (const recording of client.paginate<{ id: string }>(client.listRecordings, { limit: 2 })) seen.push(recording.id);
    const all = await client.listRecordings({ query: { limit: 100, offset: 0 } });
    assert.ok(seen.length >= 3);
    assert.deepEqual(seen, all.data.map((r) => r.id), 'every recording once, newest first, over pages of two');
  });

  test('a ConnectionError names the host that did not answer', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const offline = new Client({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'hark_x', maxRetries: 0 });
    await assert.rejects(offline.listRecordings({ path: { workspace_id: 'ws-x' } }), (error: Error) => error instanceof ConnectionError && error.message.includes(`no answer from 127.0.0.1:${port}`));
  });

  test('uploading a path that is not a readable file names the path and why, before any request', async () => {
    const offline = new Client({ baseUrl: 'http://127.0.0.1:9', apiKey: 'hark_x', maxRetries: 0 });
    const missing = path.join(os.tmpdir(), `no-such-call-${process.pid}.wav`);
    await assert.rejects(offline.upload(missing, { workspaceId: 'ws-x' }), (error: Error) => error instanceof HarkError && error.message === `cannot upload ${missing}: there is no such file`);
    await assert.rejects(offline.upload(os.tmpdir(), { workspaceId: 'ws-x' }), (error: Error) => error instanceof HarkError && /it is not a file/.test(error.message));
  });

  test('typed errors: 404 NotFoundError, 403 PermissionDeniedError with code, detail and request id', async () => {
    await assert.rejects(client.getRecording({ path: { recording_id: 'fl-00000000-0000-0000-0000-000000000000' } }), (error: unknown) => {
      assert.ok(error instanceof NotFoundError);
      assert.equal(error.status, 404);
      assert.equal(error.code, 'not_found');
      assert.ok(error.requestId);
      return true;
    });
    const key = await client.createApiKey({ body: { name: 'read only', scopes: ['recordings:read'] } });
    const reader = new Client({ baseUrl, apiKey: key.key });
    await assert.rejects(reader.createAnalysisScenario({ body: { name: 'x' } }), (error: unknown) => error instanceof PermissionDeniedError && error.code === 'insufficient_scope');
  });

  test('a 429 is retried after its Retry-After; without retries it is a RateLimitError', async () => {
    let calls = 0;
    const server = http.createServer((request, response) => {
      calls += 1;
      if (calls === 1) {
        response.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '1' }).end(JSON.stringify({ code: 'rate_limited', detail: 'slow down', status: 429 }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 'ws-1' }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const started = Date.now();
      assert.equal(await new Client({ baseUrl: url, apiKey: 'hark_x' }).workspaceId(), 'ws-1');
      assert.equal(calls, 2);
      assert.ok(Date.now() - started >= 900, 'it waited for Retry-After');
      calls = 0;
      await assert.rejects(new Client({ baseUrl: url, apiKey: 'hark_x', maxRetries: 0 }).listWorkspaces(), RateLimitError);
    } finally {
      server.close();
    }
  });

  test('a webhook delivery from Hark verifies; a tampered one is refused', async () => {
    const received: { body: string; headers: http.IncomingHttpHeaders }[] = [];
    const receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ body, headers: request.headers });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const hook = await client.createWebhook({ body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['recording.download_failed'] } });
      await client.sendTestEvent({ path: { webhook_id: hook.id } });
      await eventually(async () => received.length > 0, 30_000, 'a delivery');
      const event = verifyWebhook<{ type: string }>(received[0]!.body, received[0]!.headers, hook.secret);
      assert.equal(event.type, 'webhook.test');
      assert.throws(() => verifyWebhook(received[0]!.body.replace('webhook.test', 'webhook.evil'), received[0]!.headers, hook.secret), WebhookVerificationError);
      assert.throws(() => verifyWebhook(received[0]!.body, received[0]!.headers, hook.secret, -1), WebhookVerificationError);
    } finally {
      receiver.close();
    }
  });

  test('the package builds to plain ESM JavaScript with its declarations', async () => {
    const out = await fs.mkdtemp(path.join(os.tmpdir(), 'hark-client-ts-'));
    try {
      await run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'clients/typescript/tsconfig.build.json', '--outDir', out], { cwd: root });
      const built = (await import(pathToFileURL(path.join(out, 'index.js')).href)) as Record<string, unknown>;
      assert.equal(typeof built.Hark, 'function');
      assert.equal(typeof built.verifyWebhook, 'function');
      assert.ok((await fs.readdir(out)).includes('index.d.ts'));
    } finally {
      await fs.rm(out, { recursive: true, force: true });
    }
  });

  test('the quickstart prints the transcript as SRT and nothing else', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'clients/typescript/examples/quickstart.ts', speech('Thank you for calling, goodbye.')], {
      cwd: root,
      env: { ...process.env, HARK_URL: baseUrl, HARK_API_KEY: account.key },
    });
    assert.match(stdout, /^1\n00:00:0\d,\d{3} --> 00:00:0\d,\d{3}\n[^\n]*thank you[^\n]*\n/i, stdout);
  });
});
