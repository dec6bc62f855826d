// The run core, shown on analysis runs against a slow local OpenAI-compatible server: cancel
// aborts the engine's request within seconds, a second delivery of a running run's job starts
// nothing, and one workspace cannot hold every worker slot while another's run waits. The public
// API (uploads, transcription and analysis runs, scenarios, cancel) is called through the shipped
// TypeScript client; the second delivery is sent to the queue directly.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { transcriptionEnds } from './helpers/api.ts';
import { speech } from './helpers/audio.ts';
import { backends, eventually, registerAccount, startHark, type Hark } from './helpers/harness.ts';
import { HEARTBEAT_MS, heartbeatMs } from '../src/core/runs/run-job.ts';

interface SlowServer {
  url: string;
  /** Requests received, and when each one's connection closed (null while open). */
  requests: { at: number; closedAt: number | null }[];
  close(): Promise<void>;
}

/** Accepts chat completions and never answers: an engine thinking for a long time. */
async function startSlowServer(): Promise<SlowServer> {
  const requests: SlowServer['requests'] = [];
  const server = http.createServer((request, response) => {
    const entry = { at: Date.now(), closedAt: null as number | null };
    requests.push(entry);
    request.resume();
    response.on('close', () => (entry.closedAt = Date.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}


test('a run beats at least three times within the stale time, however short it is set', () => {
  assert.equal(heartbeatMs(120), HEARTBEAT_MS);
  assert.ok(heartbeatMs(5) * 3 <= 5000, `${heartbeatMs(5)} ms`);
});

for (const backend of await backends()) {
  describe(`run core on ${backend}`, () => {
    let hark: Hark;
    let slow: SlowServer;
    const wav = speech('Hello, thank you for calling. I would like a refund please.');
    before(async () => {
      hark = await startHark({ backend });
      slow = await startSlowServer();
    });
    after(async () => {
      await slow.close();
      await hark.destroy();
    });

    /** A workspace with one transcribed recording and a scenario on the slow server. */
    async function workspace(): Promise<{ client: HarkClient; recordingId: string; scenarioId: string }> {
      const client = hark.client((await registerAccount(hark)).key);
      // A part typed audio/wav and named as the file, as this suite has always uploaded it.
      const recordingId = (await client.upload(new Blob([new Uint8Array(fs.readFileSync(wav))], { type: 'audio/wav' }), { filename: path.basename(wav) })).id;
      await client.waitForRecording(recordingId, { timeoutMs: 60_000 });
      const run = await client.createTranscriptionRun({ path: { recording_id: recordingId } });
      const transcribed = await transcriptionEnds(client, run.id);
      assert.equal(transcribed.status, 'completed', `transcription failed: ${JSON.stringify(transcribed)}`);
      // The client takes only a 2xx, and openapi.json gives creating a scenario 201 alone.
      const scenario = await client.createAnalysisScenario({
        body: { name: 'slow', engine: 'openai', model: 'slow', options: { base_url: slow.url }, questions: [{ id: 'q', text: 'Was a refund asked for?', type: 'boolean' }] },
      });
      return { client, recordingId, scenarioId: scenario.id };
    }

    const startAnalysis = async (w: Awaited<ReturnType<typeof workspace>>) =>
      (await w.client.createAnalysisRun({ path: { recording_id: w.recordingId }, body: { analysis_scenario_id: w.scenarioId } })).id;
    const card = (w: Awaited<ReturnType<typeof workspace>>, id: string) => w.client.getAnalysisRun({ path: { run_id: id } });
    const cancel = (w: Awaited<ReturnType<typeof workspace>>, id: string) => w.client.cancelAnalysisRun({ path: { run_id: id } });

    test('cancel aborts the analysis engine mid-run, within seconds', async () => {
      const w = await workspace();
      const before = slow.requests.length;
      const id = await startAnalysis(w);
      await eventually(async () => slow.requests.length > before, 30_000, 'the engine request');
      const cancelled = await cancel(w, id);
      assert.equal(cancelled.status, 'cancelled');
      const request = slow.requests[before]!;
      await eventually(async () => request.closedAt !== null, 5_000, 'the engine request to be aborted');
      assert.equal((await card(w, id)).status, 'cancelled');
    });

    test('a second delivery of a running run\'s job starts nothing', async () => {
      const w = await workspace();
      const before = slow.requests.length;
      const id = await startAnalysis(w);
      await eventually(async () => (await card(w, id)).status === 'running' && slow.requests.length > before, 30_000, 'the run to be running');
      await hark.runtime.ctx.queue.send('analyze', { runId: id });
      await hark.runtime.ctx.queue.send('analyze', { runId: id });
      await new Promise((resolve) => setTimeout(resolve, 3000));
      assert.equal(slow.requests.length, before + 1, 'one engine request');
      assert.equal((await card(w, id)).attempts, 1);
      await cancel(w, id);
    });

    test('a run whose stored scenario cannot be read fails, instead of staying queued', async () => {
      const w = await workspace();
      const basic = await w.client.createAnalysisScenario({ body: { name: 'basic', questions: [{ id: 'q', text: 'Was a refund asked for?', type: 'boolean' }] } });
      const { id } = await w.client.createAnalysisRun({ path: { recording_id: w.recordingId }, body: { analysis_scenario_id: basic.id } });
      await eventually(async () => (await card(w, id)).status === 'completed', 30_000, 'the basic run');
      // As a snapshot written by a bug would be: queued again with a scenario its schema refuses.
      await hark.runtime.ctx.db.updateTable('analysis_runs').set({ status: 'queued', scenario: JSON.stringify({ name: 'broken' }) }).where('id', '=', id).execute();
      await hark.runtime.ctx.queue.send('analyze', { runId: id });
      const failed = await eventually(async () => {
        const now = await card(w, id);
        return now.status === 'failed' ? now : null;
      }, 30_000, 'the run to fail');
      assert.equal(failed.error_code, 'invalid_scenario');
      assert.equal(failed.retryable, false);
    });

    test('one workspace cannot hold every worker slot while another\'s run waits', async () => {
      // Two worker slots, both held by one workspace. Its third run is queued before the other
      // workspace's run; when a slot frees, first-in-first-out would give it to the third run.
      const busy = await workspace();
      const other = await workspace();
      const first = await startAnalysis(busy);
      const second = await startAnalysis(busy);
      await eventually(async () => (await card(busy, first)).status === 'running' && (await card(busy, second)).status === 'running', 30_000, 'both slots busy');
      const third = await startAnalysis(busy);
      const theirs = await startAnalysis(other);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal((await card(busy, third)).status, 'queued', 'no free slot yet');
      await cancel(busy, second);
      await eventually(async () => (await card(other, theirs)).status === 'running', 30_000, 'the other workspace\'s run to take the freed slot');
      assert.equal((await card(busy, third)).status, 'queued', 'the busy workspace\'s third run waits its turn');
      for (const [w, id] of [[busy, first], [busy, third], [other, theirs]] as const) await cancel(w, id);
    });
  });
}
