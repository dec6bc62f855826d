// What must survive failures: a client that disconnects mid-upload, a server killed during
// preparation, and the address guard on real imports.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { waitForRecording } from './helpers/api.ts';
import { multipart, speech, stereoCall } from './helpers/audio.ts';
import { prepareAudioJob } from '../src/features/recordings/prepare-audio.ts';
import { backends, dropStore, eventually, registerAccount, scratchDir, startHark, testConfig } from './helpers/harness.ts';
import { serveBytes, startOrigin } from './helpers/origin.ts';
import { spawnServer } from './helpers/process.ts';
import { librivoxJoined } from './helpers/speech-corpus.ts';

for (const backend of await backends()) {
  describe(`resilience on ${backend}`, () => {
    test('a client that disconnects in the middle of an upload leaves nothing behind', async () => {
      const hark = await startHark({ backend });
      try {
        const account = await registerAccount(hark);
        const address = await hark.app.listen({ port: 0, host: '127.0.0.1' });
        const boundary = 'hark-disconnect';
        const wav = fs.readFileSync(speech('this upload will be cut short'));
        await new Promise<void>((resolve) => {
          const request = http.request(`${address}/api/v1/workspaces/${account.workspaceId}/recordings`, {
            method: 'POST',
            headers: { authorization: `Bearer ${account.key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(50_000_000) },
          });
          request.on('error', () => resolve());
          request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
          request.write(wav);
          request.write(Buffer.alloc(2_000_000));
          setTimeout(() => {
            request.destroy();
            resolve();
          }, 300);
        });
        const tmp = scratchDir(hark);
        await eventually(async () => fs.readdirSync(tmp).length === 0, 10_000, 'the temp file to be removed');
        const rows = await hark.runtime.ctx.db.selectFrom('recordings').select('id').execute();
        assert.equal(rows.length, 0);
      } finally {
        await hark.destroy();
      }
    });

    test('a preparation delivered again while it runs (its job expired) decodes the audio once', async () => {
      const hark = await startHark({ backend, workers: false });
      try {
        const account = await registerAccount(hark);
        const call = stereoCall([{ channel: 0, at: 0.2, text: 'hello there' }, { channel: 1, at: 1.5, text: 'good morning' }], 4);
        const created = await hark.request({ method: 'POST', url: `/api/v1/workspaces/${account.workspaceId}/recordings`, key: account.key, ...multipart({}, { content: fs.readFileSync(call), filename: 'call.wav', contentType: 'audio/wav' }) });
        assert.equal(created.statusCode, 202, created.body);
        const id = created.json<{ id: string }>().id;
        const ctx = hark.runtime.ctx;
        const committed: string[] = [];
        const commit = ctx.blobs.commit.bind(ctx.blobs);
        ctx.blobs.commit = async (file, key) => {
          committed.push(key);
          return commit(file, key);
        };
        const job = prepareAudioJob(ctx);
        await Promise.all([job.handle({ recordingId: id }, { id: 'a', retryCount: 0 }), job.handle({ recordingId: id }, { id: 'a', retryCount: 1 })]);
        // The prepared WAV and one per channel, once.
        assert.equal(committed.length, 3, committed.join(', '));
        assert.deepEqual(fs.readdirSync(scratchDir(hark)), []);
        const card = await hark.request({ url: `/api/v1/workspaces/${account.workspaceId}/recordings/${id}`, key: account.key });
        assert.equal(card.json<{ status: string }>().status, 'completed');
      } finally {
        await hark.destroy();
      }
    });

    test('imports from loopback are refused unless allowed', async () => {
      const hark = await startHark({ backend, env: { HARK_IMPORT_ALLOW_PRIVATE: '0' } });
      const origin = await startOrigin({ '/a.wav': serveBytes(fs.readFileSync(speech('hello'))) });
      try {
        const account = await registerAccount(hark);
        const base = `/api/v1/workspaces/${account.workspaceId}/recordings`;
        // A private address, or localhost, ends the import in download_failed, nothing fetched
        // (a name that resolves to one is refused when the download looks it up: test/outbound.test.ts).
        const ids: string[] = [];
        for (const url of [origin.url('/a.wav'), origin.url('/a.wav').replace('127.0.0.1', 'localhost'), 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/a.wav']) {
          const imported = await hark.request({ method: 'POST', url: `${base}/import`, key: account.key, payload: { url } });
          assert.equal(imported.statusCode, 202, imported.body);
          ids.push(imported.json<{ id: string }>().id);
        }
        for (const id of ids) {
          const card = await waitForRecording(hark, account, id, ['download_failed', 'queued', 'completed']);
          assert.deepEqual([card.status, card.error_code], ['download_failed', 'address_not_allowed'], id);
        }
        assert.equal(origin.hits('/a.wav'), 0);
      } finally {
        await origin.close();
        await hark.destroy();
      }
    });

    test('a server killed (SIGKILL) during preparation finishes the recording after restart', async () => {
      const config = await testConfig(backend);
      const env = { HARK_WORKER_CONCURRENCY: '1', HARK_JOB_TIMEOUT_SECONDS: '5', HARK_QUEUE_MAINTENANCE_SECONDS: '1' };
      const big = path.join(os.tmpdir(), `hark-long-${process.pid}.wav`);
      execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=300:duration=900:sample_rate=48000', '-ac', '2', big]);
      let server = await spawnServer(config, env);
      try {
        const registration = await fetch(`${server.base}/api/v1/accounts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `kill-${Date.now()}@example.com`, password: 'long enough pw', workspace_name: 'K' }),
        });
        const { workspace_id: workspaceId, api_key: key } = (await registration.json()) as { workspace_id: string; api_key: string };
        const account = { workspaceId, key };
        const form = new FormData();
        form.set('file', new Blob([fs.readFileSync(big)], { type: 'audio/wav' }), 'long.wav');
        const base = () => `${server.base}/api/v1/workspaces/${account.workspaceId}/recordings`;
        const headers = { authorization: `Bearer ${account.key}` };
        const created = (await (await fetch(base(), { method: 'POST', headers, body: form })).json()) as { id: string };
        const card = async () => (await (await fetch(`${base()}/${created.id}`, { headers })).json()) as { status: string; duration_seconds: number };
        await eventually(async () => (await card()).status === 'processing', 30_000, 'processing');
        await server.kill('SIGKILL');
        server = await spawnServer(config, env);
        const done = await eventually(async () => {
          const c = await card();
          return c.status === 'completed' || c.status === 'failed' ? c : null;
        }, 300_000, 'completion after restart');
        assert.equal(done.status, 'completed');
        assert.ok(Math.abs(done.duration_seconds - 900) < 1);
        // The killed process's half-written WAVs are gone, on every store: the restarted process
        // removed the scratch folder of the dead one of its host at start; its own holds nothing.
        const scratch = path.join(config.dataDir, 'blobs', '.tmp');
        const folders = fs.readdirSync(scratch);
        assert.equal(folders.length, 1, folders.join(', '));
        assert.match(folders[0]!, new RegExp(`\\.${server.child.pid}\\.`));
        assert.deepEqual(fs.readdirSync(path.join(scratch, folders[0]!)), []);
      } finally {
        await server.kill('SIGKILL');
        fs.rmSync(big, { force: true });
        await dropStore(config);
      }
    });

    test('a worker killed (SIGKILL) mid-run leaves no run stuck in running: it completes after restart', async () => {
      const config = await testConfig(backend);
      // No job expiry here: on PostgreSQL the stale-run sweep must bring the run back.
      const env = { HARK_WORKER_CONCURRENCY: '1', HARK_STALE_RUN_SECONDS: '10' };
      const corpus = librivoxJoined();
      let server = await spawnServer(config, env);
      try {
        const registration = await fetch(`${server.base}/api/v1/accounts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `run-kill-${Date.now()}@example.com`, password: 'long enough pw', workspace_name: 'K' }),
        });
        const { workspace_id: workspaceId, api_key: key } = (await registration.json()) as { workspace_id: string; api_key: string };
        const P = () => `${server.base}/api/v1/workspaces/${workspaceId}`;
        const headers = { authorization: `Bearer ${key}` };
        const form = new FormData();
        form.set('file', new Blob([fs.readFileSync(corpus.file)], { type: 'audio/wav' }), 'call.wav');
        const recording = (await (await fetch(`${P()}/recordings`, { method: 'POST', headers, body: form })).json()) as { id: string };
        const started = await fetch(`${P()}/recordings/${recording.id}/transcription-runs`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
        const run = (await started.json()) as { id: string };
        const card = async () => (await (await fetch(`${P()}/transcription-runs/${run.id}`, { headers })).json()) as { status: string; attempts: number };
        await eventually(async () => (await card()).status === 'running', 60_000, 'running');
        await server.kill('SIGKILL');
        server = await spawnServer(config, env);
        const done = await eventually(async () => {
          const c = await card();
          return ['completed', 'failed', 'cancelled'].includes(c.status) ? c : null;
        }, 300_000, 'run completion after restart');
        assert.equal(done.status, 'completed');
        assert.ok(done.attempts >= 2, 'the run was started again');
      } finally {
        await server.kill('SIGKILL');
        await dropStore(config);
      }
    });
  });
}
