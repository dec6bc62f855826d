// Transcription over HTTP with the real recogniser: runs, transcripts, exports, the 409 rules,
// failures and retries, the automatic scenario, executions and cancel.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { addModel } from '../src/engines/models.ts';
import { wer } from '../src/wer.ts';
import { durationOf, speech } from './helpers/audio.ts';
import { assertProblem, backends, eventually, registerAccount, startHark, type Account, type Hark } from './helpers/harness.ts';
import { startOrigin, type Origin } from './helpers/origin.ts';
import { librivoxJoined } from './helpers/speech-corpus.ts';
import { upload, waitForRecording, waitForRun, type Run } from './helpers/api.ts';

interface Transcript {
  id: string;
  text: string;
  language: string;
  segments: { start: number; end: number; text: string }[];
  words: { start: number; end: number; word: string; confidence: number }[];
  summary?: string;
}

const corpus = librivoxJoined();
const corpusSeconds = durationOf(corpus.file);


for (const backend of await backends({ s3: true })) {
  describe(`transcription on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let P: string;
    let recordingId: string;
    let defaultScenario: string;
    let origin: Origin;
    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      P = `/api/v1/workspaces/${account.workspaceId}`;
      recordingId = (await upload(hark, account, corpus.file)).json<{ id: string }>().id;
      await waitForRecording(hark, account, recordingId, ['completed']);
      const scenarios = (await hark.request({ method: 'GET', url: `${P}/transcription-scenarios`, key: account.key })).json<{ data: { id: string; engine: string }[] }>().data;
      assert.equal(scenarios.length, 1);
      assert.equal(scenarios[0]?.engine, 'pocketsphinx');
      defaultScenario = scenarios[0]!.id;
      origin = await startOrigin({ '/slow.wav': (_request, response) => setTimeout(() => response.writeHead(503).end(), 15_000) });
    });
    after(async () => {
      await origin.close();
      await hark.destroy();
    });

    test('real speech is transcribed by pocketsphinx with WER under 35 %', async () => {
      const started = await hark.request({ method: 'POST', url: `${P}/recordings/${recordingId}/transcription-runs`, key: account.key, payload: { transcription_scenario_id: defaultScenario } });
      assert.equal(started.statusCode, 202, started.body);
      const queued = started.json<Run>();
      assert.match(queued.id, /^trn-/);
      assert.equal(queued.status, 'queued');
      const run = await waitForRun(hark, account, queued.id);
      assert.equal(run.status, 'completed', `${run.error_code} ${run.error_message}`);
      const transcript = (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${run.id}/transcript`, key: account.key })).json<Transcript>();
      assert.equal(transcript.id, run.transcript_id);
      assert.equal(transcript.language, 'en');
      const rate = wer(corpus.reference, transcript.text);
      assert.ok(rate < 0.35, `WER ${rate.toFixed(3)}: ${transcript.text}`);
      assert.ok(transcript.words.length > 20);
      let previous = 0;
      for (const word of transcript.words) {
        assert.ok(word.start >= previous - 1e-6 && word.end >= word.start && word.end <= corpusSeconds + 0.05, JSON.stringify(word));
        assert.ok(word.confidence >= 0 && word.confidence <= 1);
        assert.ok(!/[<[(]/.test(word.word), `filler left in: ${word.word}`);
        previous = word.start;
      }
      assert.ok(transcript.segments.length >= 2);
      assert.equal(transcript.summary, undefined);

      const latest = (await hark.request({ method: 'GET', url: `${P}/recordings/${recordingId}/transcript`, key: account.key })).json<Transcript>();
      assert.equal(latest.id, transcript.id);
      const srt = await hark.request({ method: 'GET', url: `${P}/transcription-runs/${run.id}/transcript?format=srt`, key: account.key });
      assert.match(srt.body, /^1\n00:00:\d\d,\d{3} --> /);
      const vtt = await hark.request({ method: 'GET', url: `${P}/recordings/${recordingId}/transcript?format=vtt`, key: account.key });
      assert.match(vtt.body, /^WEBVTT\n/);
      assert.match(String(vtt.headers['content-type']), /text\/vtt/);
      const txt = await hark.request({ method: 'GET', url: `${P}/recordings/${recordingId}/transcript?format=txt`, key: account.key });
      assert.ok(txt.body.includes(transcript.segments[0]!.text));

      // Readable: sentences with a capital and an end mark; each word keeps what was recognised.
      for (const segment of transcript.segments) assert.match(segment.text, /^[A-Z[].*[.?]$/, segment.text);
      const withPunctuation = transcript.words as (Transcript['words'][number] & { punctuated_word?: string })[];
      // A number said is written over its words: digits on the first, nothing on the others.
      const isNumber = (w: { punctuated_word?: string }) => w.punctuated_word === '' || /\d/.test(w.punctuated_word ?? '');
      assert.ok(withPunctuation.every((w) => typeof w.punctuated_word === 'string' && (isNumber(w) || w.punctuated_word.toLowerCase().replace(/[.?]$/, '') === w.word.toLowerCase())), 'punctuated_word is the recognised word, cased and punctuated');
      assert.ok(withPunctuation.every((w) => w.word === w.word.toLowerCase() || /^\[/.test(w.word)), 'word stays as recognised');
    });

    test('numbers said are written as digits; each word keeps what was said', async () => {
      const id = (await upload(hark, account, speech('The repair costs twenty five dollars. My number is five five five one two three four.'))).json<{ id: string }>().id;
      await waitForRecording(hark, account, id, ['completed']);
      const started = (await hark.request({ method: 'POST', url: `${P}/recordings/${id}/transcription-runs`, key: account.key })).json<Run>();
      await waitForRun(hark, account, started.id);
      const transcript = (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${started.id}/transcript`, key: account.key })).json<{ text: string; words: { word: string; punctuated_word?: string }[] }>();
      assert.match(transcript.text, /\$25\b/, transcript.text);
      assert.match(transcript.text, /\b5551234\b/, transcript.text);
      const dollar = transcript.words.find((w) => w.punctuated_word?.startsWith('$25'))!;
      assert.equal(dollar.word, 'twenty', 'the word as said stays');
      assert.ok(transcript.words.some((w) => w.word === 'dollars' && w.punctuated_word === ''), 'the other words of the amount write nothing');
    });

    test('format: false keeps the recogniser\'s own text', async () => {
      const plain = await hark.request({ method: 'POST', url: `${P}/transcription-scenarios`, key: account.key, payload: { name: 'unformatted', options: { format: false } } });
      assert.equal(plain.statusCode, 201, plain.body);
      const id = (await upload(hark, account, speech('Hello there. How are you today?'))).json<{ id: string }>().id;
      await waitForRecording(hark, account, id, ['completed']);
      const started = (await hark.request({ method: 'POST', url: `${P}/recordings/${id}/transcription-runs`, key: account.key, payload: { transcription_scenario_id: plain.json<{ id: string }>().id } })).json<Run>();
      await waitForRun(hark, account, started.id);
      const transcript = (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${started.id}/transcript`, key: account.key })).json<{ text: string; words: { punctuated_word?: string }[] }>();
      assert.equal(transcript.text, transcript.text.toLowerCase());
      assert.doesNotMatch(transcript.text, /[.?]/);
      assert.ok(transcript.words.every((w) => w.punctuated_word === undefined));
    });

    test('the whisper.cpp engine runs a real-format ggml model (structure only: the weights are random)', async () => {
      await addModel(hark.config, 'tiny-random', new URL('./fixtures/ggml-random-tiny.en.bin', import.meta.url).pathname);
      const scenario = await hark.request({ method: 'POST', url: `${P}/transcription-scenarios`, key: account.key, payload: { name: 'whisper', engine: 'whisper.cpp', model: 'tiny-random', language: 'auto' } });
      assert.equal(scenario.statusCode, 201, scenario.body);
      const short = (await upload(hark, account, speech('Please send me the invoice for last month.'))).json<{ id: string }>().id;
      const seconds = (await waitForRecording(hark, account, short, ['completed'])).duration_seconds ?? 0;
      const started = (await hark.request({ method: 'POST', url: `${P}/recordings/${short}/transcription-runs`, key: account.key, payload: { transcription_scenario_id: scenario.json<{ id: string }>().id } })).json<Run>();
      const run = await waitForRun(hark, account, started.id, undefined, 300_000);
      assert.equal(run.status, 'completed', `${run.error_code}: ${run.error_message}`);
      const transcript = (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${run.id}/transcript`, key: account.key })).json<Transcript>();
      assert.equal(transcript.language, 'en', 'an English-only model is decoded as English');
      assert.ok(transcript.segments.length + transcript.words.length > 0);
      for (const item of [...transcript.segments, ...transcript.words]) assert.ok(item.start >= 0 && item.start <= item.end && item.end <= seconds + 0.5, JSON.stringify(item));
      assertProblem(await hark.request({ method: 'POST', url: `${P}/transcription-scenarios`, key: account.key, payload: { name: 'x', engine: 'whisper.cpp', model: 'not-installed' } }), 400, 'validation_failed');
    });

    test('409 rules: recording downloading, run not completed, retry of a run that did not fail', async () => {
      const imported = await hark.request({ method: 'POST', url: `${P}/recordings/import`, key: account.key, payload: { url: origin.url('/slow.wav') } });
      const importId = imported.json<{ id: string }>().id;
      await waitForRecording(hark, account, importId, ['downloading']);
      assertProblem(await hark.request({ method: 'POST', url: `${P}/recordings/${importId}/transcription-runs`, key: account.key, payload: { transcription_scenario_id: defaultScenario } }), 409, 'recording_not_ready');

      const started = (await hark.request({ method: 'POST', url: `${P}/recordings/${recordingId}/transcription-runs`, key: account.key, payload: {} })).json<Run>();
      const cancelled = await hark.request({ method: 'POST', url: `${P}/transcription-runs/${started.id}/cancel`, key: account.key });
      assert.equal(cancelled.json<Run>().status, 'cancelled');
      assertProblem(await hark.request({ method: 'GET', url: `${P}/transcription-runs/${started.id}/transcript`, key: account.key }), 409, 'run_not_completed');
      assertProblem(await hark.request({ method: 'POST', url: `${P}/transcription-runs/${started.id}/retry`, key: account.key }), 409, 'run_not_retryable');
      assertProblem(await hark.request({ method: 'POST', url: `${P}/transcription-runs/${started.id}/cancel`, key: account.key }), 409, 'run_not_cancellable');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal((await waitForRun(hark, account, started.id)).status, 'cancelled', 'a cancelled run stays cancelled');
      assertProblem(await hark.request({ method: 'POST', url: `${P}/recordings/${recordingId}/transcription-runs`, key: account.key, payload: { transcription_scenario_id: 'sct-00000000-0000-0000-0000-000000000000' } }), 404, 'not_found');
    });

    test('an engine that cannot be reached fails with the failure fields; a retry is a new run', async () => {
      const closed = await new Promise<number>((resolve) => {
        const server = http.createServer();
        server.listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          server.close(() => resolve(port));
        });
      });
      const scenario = await hark.request({
        method: 'POST',
        url: `${P}/transcription-scenarios`,
        key: account.key,
        payload: { name: 'remote', engine: 'openai', model: 'whisper-1', options: { base_url: `http://127.0.0.1:${closed}/v1` }, retry: { max_attempts: 2, backoff_seconds: 1 } },
      });
      assert.equal(scenario.statusCode, 201, scenario.body);
      const scenarioId = scenario.json<{ id: string }>().id;
      const started = (await hark.request({ method: 'POST', url: `${P}/recordings/${recordingId}/transcription-runs`, key: account.key, payload: { transcription_scenario_id: scenarioId } })).json<Run>();
      const failed = await waitForRun(hark, account, started.id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error_code, 'engine_unreachable');
      assert.equal(failed.retryable, true);
      assert.equal(failed.attempts, 2, 'the scenario allows two attempts');
      assert.ok(failed.error_message);

      const retried = await hark.request({ method: 'POST', url: `${P}/transcription-runs/${failed.id}/retry`, key: account.key });
      assert.equal(retried.statusCode, 202, retried.body);
      const retry = retried.json<Run>();
      assert.equal(retry.retry_of, failed.id);
      assert.notEqual(retry.id, failed.id);
      assert.equal(retry.status, 'queued');
      const original = (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${failed.id}`, key: account.key })).json<Run>();
      assert.deepEqual(original, failed, 'the original run is unchanged');
      await waitForRun(hark, account, retry.id);
    });

    test('a retryable failure is retried inside the run and succeeds (503 then 200)', async () => {
      let calls = 0;
      const server = http.createServer((request, response) => {
        calls += 1;
        request.resume();
        request.on('end', () => {
          if (calls === 1) return response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"busy"}}');
          response.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({ language: 'english', text: 'hello there', segments: [{ start: 0, end: 1.2, text: 'hello there' }], words: [{ word: 'hello', start: 0, end: 0.5 }, { word: 'there', start: 0.6, end: 1.2 }] }),
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as { port: number };
        const scenarioId = (
          await hark.request({ method: 'POST', url: `${P}/transcription-scenarios`, key: account.key, payload: { name: 'flaky', engine: 'openai', options: { base_url: `http://127.0.0.1:${port}/v1` }, retry: { max_attempts: 3, backoff_seconds: 1 } } })
        ).json<{ id: string }>().id;
        const started = (await hark.request({ method: 'POST', url: `${P}/recordings/${recordingId}/transcription-runs`, key: account.key, payload: { transcription_scenario_id: scenarioId } })).json<Run>();
        const run = await waitForRun(hark, account, started.id);
        assert.equal(run.status, 'completed');
        assert.equal(run.attempts, 2);
        assert.equal(calls, 2);
        const transcript = (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${run.id}/transcript`, key: account.key })).json<Transcript>();
        assert.equal(transcript.language, 'en');
        assert.equal(transcript.words.length, 2);
      } finally {
        server.close();
      }
    });

    test('the automatic scenario transcribes a new recording without a call, with a summary', async () => {
      const ws = await registerAccount(hark);
      const base = `/api/v1/workspaces/${ws.workspaceId}`;
      const scenarioId = (await hark.request({ method: 'GET', url: `${base}/transcription-scenarios`, key: ws.key })).json<{ data: { id: string }[] }>().data[0]!.id;
      const patched = await hark.request({ method: 'PATCH', url: `${base}/transcription-scenarios/${scenarioId}`, key: ws.key, payload: { auto: true, options: { summary: true } } });
      assert.equal(patched.statusCode, 200, patched.body);
      const id = (await upload(hark, ws, speech('Good morning. Thank you for calling the support line. I would like to change my delivery address.'))).json<{ id: string }>().id;
      const runs = await eventually(async () => {
        const list = (await hark.request({ method: 'GET', url: `${base}/transcription-runs?recording_id=${id}`, key: ws.key })).json<{ data: Run[] }>().data;
        return list.length > 0 ? list : null;
      }, 60_000, 'an automatic run');
      const run = await waitForRun(hark, ws, runs[0]!.id);
      assert.equal(run.status, 'completed');
      const transcript = (await hark.request({ method: 'GET', url: `${base}/recordings/${id}/transcript`, key: ws.key })).json<Transcript>();
      assert.equal(typeof transcript.summary, 'string');
      assert.ok(transcript.text.length > 0);
    });

    test('executions are idempotent and list their runs by jobId', async () => {
      const second = (await upload(hark, account, speech('Please cancel my subscription.'))).json<{ id: string }>().id;
      await waitForRecording(hark, account, second, ['completed']);
      const url = `${P}/transcription-scenarios/${defaultScenario}/executions`;
      const body = { recording_ids: [recordingId, second], idempotency_key: `batch-${backend}` };
      const results = await Promise.all([1, 2, 3, 4].map(() => hark.request({ method: 'POST', url, key: account.key, payload: body })));
      const ids = new Set(results.map((r) => r.json<{ id: string }>().id));
      assert.equal(ids.size, 1, 'concurrent duplicates made more than one execution');
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 200, 200, 202]);
      const executionId = [...ids][0]!;
      const replay = await hark.request({ method: 'POST', url, key: account.key, payload: { ...body, recording_ids: [second, recordingId] } });
      assert.equal(replay.statusCode, 200);
      assert.equal(replay.json<{ id: string }>().id, executionId);
      assertProblem(await hark.request({ method: 'POST', url, key: account.key, payload: { ...body, recording_ids: [second] } }), 422, 'idempotency_key_reused');
      const unknown = await hark.request({ method: 'POST', url, key: account.key, payload: { recording_ids: ['fl-00000000-0000-0000-0000-000000000000'], idempotency_key: 'other' } });
      assert.match(String(assertProblem(unknown, 400, 'validation_failed').detail), /fl-00000000/);

      const children = (await hark.request({ method: 'GET', url: `${P}/transcription-runs?jobId=${executionId}`, key: account.key })).json<{ data: Run[] }>().data;
      assert.equal(children.length, 2);
      assert.ok(children.every((run) => run.execution_id === executionId));
      const byName = (await hark.request({ method: 'GET', url: `${P}/transcription-runs?execution_id=${executionId}`, key: account.key })).json<{ data: Run[] }>().data;
      assert.deepEqual(byName.map((run) => run.id).sort(), children.map((run) => run.id).sort(), 'execution_id is the documented name, jobId its alias');
      for (const child of children) await waitForRun(hark, account, child.id);
      const execution = await eventually(async () => {
        const e = (await hark.request({ method: 'GET', url: `${url}/${executionId}`, key: account.key })).json<{ status: string; counts: Record<string, number> }>();
        return e.status.startsWith('completed') ? e : null;
      }, 60_000, 'execution completion');
      assert.equal(execution.status, 'completed');
      assert.equal(execution.counts.completed, 2);
      const listed = (await hark.request({ method: 'GET', url, key: account.key })).json<{ data: { id: string }[] }>().data;
      assert.ok(listed.some((e) => e.id === executionId));
      await hark.request({ method: 'POST', url, key: account.key, payload: { recording_ids: [second], idempotency_key: `batch-2-${backend}` } });
      const first = (await hark.request({ method: 'GET', url: `${url}?limit=1`, key: account.key })).json<{ data: { id: string }[]; next_cursor: string }>();
      assert.equal(first.data.length, 1);
      const rest = (await hark.request({ method: 'GET', url: `${url}?limit=1&cursor=${first.next_cursor}`, key: account.key })).json<{ data: { id: string }[] }>();
      assert.notEqual(rest.data[0]?.id, first.data[0]?.id);
    });
  });
}

describe('a new workspace transcribes every upload by default', () => {
  test('its default transcription scenario is automatic: an upload is transcribed without asking', async () => {
    const hark = await startHark({ backend: 'pglite', env: { HARK_AUTO_TRANSCRIBE: 'on' } });
    try {
      const account = await registerAccount(hark);
      const P = `/api/v1/workspaces/${account.workspaceId}`;
      const scenarios = (await hark.request({ method: 'GET', url: `${P}/transcription-scenarios`, key: account.key })).json<{ data: { auto: boolean }[] }>().data;
      assert.deepEqual(scenarios.map((s) => s.auto), [true]);
      const id = (await upload(hark, account, speech('Thank you for calling, how can I help you today?'))).json<{ id: string }>().id;
      const run = await eventually(async () => {
        const runs = (await hark.request({ method: 'GET', url: `${P}/transcription-runs?recording_id=${id}`, key: account.key })).json<{ data: { status: string; id: string }[] }>().data;
        return runs.length === 1 && runs[0]!.status === 'completed' ? runs[0] : null;
      }, 120_000, 'the automatic transcription');
      const transcript = (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${run.id}/transcript`, key: account.key })).json<{ text: string }>();
      assert.match(transcript.text, /thank you/i);

      // Where each call stands, on the card and in the list, and as a filter.
      type Pipelined = { id: string; pipeline: { status: string; error_code: string | null } };
      const pipeline = async (id: string) => (await hark.request({ method: 'GET', url: `${P}/recordings/${id}`, key: account.key })).json<Pipelined>().pipeline;
      const listed = async (status: string) => (await hark.request({ method: 'GET', url: `${P}/recordings?pipeline_status=${status}`, key: account.key })).json<{ data: Pipelined[] }>().data.map((r) => r.id);
      assert.equal((await pipeline(id)).status, 'transcribed');
      assert.deepEqual(await listed('transcribed'), [id]);
      const analysisScenario = (await hark.request({ method: 'GET', url: `${P}/analysis-scenarios`, key: account.key })).json<{ data: { id: string }[] }>().data[0]!.id;
      const analysing = await hark.request({ method: 'POST', url: `${P}/recordings/${id}/analysis-runs`, key: account.key, payload: { analysis_scenario_id: analysisScenario } });
      assert.equal(analysing.statusCode, 202, analysing.body);
      await eventually(async () => (await pipeline(id)).status === 'analysed', 120_000, 'analysed');
      assert.deepEqual(await listed('analysed,failed'), [id]);
      assert.deepEqual(await listed('transcribed'), []);
      const garbage = Buffer.concat([Buffer.from('RIFF\x24\x00\x10\x00WAVEfmt ', 'latin1'), Buffer.alloc(20_000, 0x5a)]);
      const broken = (await upload(hark, account, garbage)).json<Pipelined>();
      assert.equal(broken.pipeline.status, 'preparing');
      await eventually(async () => (await pipeline(broken.id)).status === 'failed', 60_000, 'failed');
      assert.equal((await pipeline(broken.id)).error_code, 'invalid_audio');
      assert.deepEqual(await listed('failed'), [broken.id]);
      assertProblem(await hark.request({ method: 'GET', url: `${P}/recordings?pipeline_status=done`, key: account.key }), 400, 'validation_failed');
    } finally {
      await hark.destroy();
    }
  });
});
