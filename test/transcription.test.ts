// Transcription over HTTP with the real recogniser, through the shipped TypeScript client: runs,
// transcripts, exports, the 409 rules, failures and retries, the automatic scenario, executions
// and cancel.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { addModel } from '../src/engines/models.ts';
import { wer } from '../src/wer.ts';
import { durationOf, speech } from './helpers/audio.ts';
import { backends, eventually, registerAccount, rejectsWith, startHark, type Account, type Hark } from './helpers/harness.ts';
import { startOrigin, type Origin } from './helpers/origin.ts';
import { librivoxJoined } from './helpers/speech-corpus.ts';
import { recordingReaches, transcriptionEnds } from './helpers/api.ts';

const corpus = librivoxJoined();
const corpusSeconds = durationOf(corpus.file);


const stores = await backends({ s3: true });
for (const backend of stores) {
  // The recogniser's accuracy and the exports are no store's business: heard on the first store.
  const heardElsewhere = backend !== stores[0];
  describe(`transcription on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let client: HarkClient;
    let P: string;
    let recordingId: string;
    let defaultScenario: string;
    let origin: Origin;
    /** Uploads speech, waits until it is prepared; its id. */
    const prepared = async (text: string) => {
      const { id } = await client.upload(speech(text));
      await client.waitForRecording(id);
      return id;
    };
    /** Starts a run (the default scenario unless named) and waits until it ends. */
    const transcribed = async (recording: string, scenario?: string, timeoutMs?: number) =>
      transcriptionEnds(client, (await client.createTranscriptionRun({ path: { recording_id: recording }, body: scenario ? { transcription_scenario_id: scenario } : {} })).id, timeoutMs);
    const transcriptOf = (runId: string) => client.getRunTranscript({ path: { run_id: runId } });

    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      client = hark.client(account.key);
      P = `/api/v1/workspaces/${account.workspaceId}`;
      recordingId = (await client.upload(corpus.file)).id;
      await client.waitForRecording(recordingId);
      const scenarios = (await client.listTranscriptionScenarios()).data;
      assert.equal(scenarios.length, 1);
      assert.equal(scenarios[0]?.engine, 'pocketsphinx');
      defaultScenario = scenarios[0]!.id;
      origin = await startOrigin({ '/slow.wav': (_request, response) => setTimeout(() => response.writeHead(503).end(), 15_000) });
    });
    after(async () => {
      await origin.close();
      await hark.destroy();
    });

    test('real speech is transcribed by pocketsphinx with WER under 35 %', { skip: heardElsewhere && `heard on ${stores[0]}` }, async () => {
      const queued = await client.createTranscriptionRun({ path: { recording_id: recordingId }, body: { transcription_scenario_id: defaultScenario } });
      assert.match(queued.id, /^trn-/);
      assert.equal(queued.status, 'queued');
      const run = await transcriptionEnds(client, queued.id);
      assert.equal(run.status, 'completed', `${run.error_code} ${run.error_message}`);
      const transcript = await transcriptOf(run.id);
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

      const latest = await client.getRecordingTranscript({ path: { recording_id: recordingId } });
      assert.equal(latest.id, transcript.id);
      // The exports are HTTP shapes (a media type, a body that is not JSON): asked for by hand.
      const srt = await hark.request({ method: 'GET', url: `${P}/transcription-runs/${run.id}/transcript?format=srt`, key: account.key });
      assert.match(srt.body, /^1\n00:00:\d\d,\d{3} --> /);
      // Cues a reader can follow: none longer than 7 s, the long segments cut into several.
      const seconds = (clock: string) => clock.split(/[:,]/).map(Number).reduce((sum, part, i) => sum + part * [3600, 60, 1, 0.001][i]!, 0);
      const cues = [...srt.body.matchAll(/(\d\d:\d\d:\d\d,\d{3}) --> (\d\d:\d\d:\d\d,\d{3})/g)].map((m) => seconds(m[2]!) - seconds(m[1]!));
      assert.ok(cues.every((length) => length <= 7.001), `cue lengths ${cues.map((c) => c.toFixed(1)).join(' ')}`);
      assert.ok(cues.length > transcript.segments.length, `${cues.length} cues for ${transcript.segments.length} segments`);
      const vtt = await hark.request({ method: 'GET', url: `${P}/recordings/${recordingId}/transcript?format=vtt`, key: account.key });
      assert.match(vtt.body, /^WEBVTT\n/);
      assert.match(String(vtt.headers['content-type']), /text\/vtt/);
      const txt = await hark.request({ method: 'GET', url: `${P}/recordings/${recordingId}/transcript?format=txt`, key: account.key });
      assert.ok(txt.body.includes(transcript.segments[0]!.text));

      // Readable: sentences with a capital and an end mark; each word keeps what was recognised.
      for (const segment of transcript.segments) assert.match(segment.text, /^[A-Z[].*[.?]$/, segment.text);
      // A number said is written over its words: digits on the first, nothing on the others.
      const isNumber = (w: { punctuated_word?: string }) => w.punctuated_word === '' || /\d/.test(w.punctuated_word ?? '');
      assert.ok(transcript.words.every((w) => typeof w.punctuated_word === 'string' && (isNumber(w) || w.punctuated_word.toLowerCase().replace(/[.,?]$/, '') === w.word.toLowerCase())), 'punctuated_word is the recognised word, cased and punctuated');
      assert.ok(transcript.words.every((w) => w.word === w.word.toLowerCase() || /^\[/.test(w.word)), 'word stays as recognised');
    });

    test('numbers said are written as digits; each word keeps what was said', async () => {
      const run = await transcribed(await prepared('The repair costs twenty five dollars. My number is five five five one two three four. Or call five five five two four seven eight one three nine.'));
      const transcript = await transcriptOf(run.id);
      assert.match(transcript.text, /\$25\b/, transcript.text);
      assert.match(transcript.text, /\b5551234\b/, transcript.text);
      assert.match(transcript.text, /\b555-247-8139\b/, `ten digits said one by one are a phone number: ${transcript.text}`);
      const dollar = transcript.words.find((w) => w.punctuated_word?.startsWith('$25'))!;
      assert.equal(dollar.word, 'twenty', 'the word as said stays');
      assert.ok(transcript.words.some((w) => w.word === 'dollars' && w.punctuated_word === ''), 'the other words of the amount write nothing');
    });

    test("pocketsphinx's own language model finds a sentence end the word lists do not", async () => {
      // "after" opens no sentence by the lists; the model finds "card </s> <s> after that" likelier.
      const run = await transcribed(await prepared('We can send a new card. After that it costs five dollars.'));
      const transcript = await transcriptOf(run.id);
      assert.match(transcript.text, /card\. After that/, transcript.text);
    });

    test('format: false keeps the recogniser\'s own text', async () => {
      const plain = await client.createTranscriptionScenario({ body: { name: 'unformatted', options: { format: false } } });
      const run = await transcribed(await prepared('Hello there. How are you today?'), plain.id);
      const transcript = await transcriptOf(run.id);
      assert.equal(transcript.text, transcript.text.toLowerCase());
      assert.doesNotMatch(transcript.text, /[.?]/);
      assert.ok(transcript.words.every((w) => w.punctuated_word === undefined));
    });

    test('the whisper.cpp engine runs a real-format ggml model (structure only: the weights are random)', async () => {
      await addModel(hark.config, 'tiny-random', new URL('./fixtures/ggml-random-tiny.en.bin', import.meta.url).pathname);
      const scenario = await client.createTranscriptionScenario({ body: { name: 'whisper', engine: 'whisper.cpp', model: 'tiny-random', language: 'auto' } });
      const short = await prepared('Please send me the invoice for last month.');
      const seconds = (await client.getRecording({ path: { recording_id: short } })).duration_seconds ?? 0;
      const run = await transcribed(short, scenario.id, 300_000);
      assert.equal(run.status, 'completed', `${run.error_code}: ${run.error_message}`);
      const transcript = await transcriptOf(run.id);
      assert.equal(transcript.language, 'en', 'an English-only model is decoded as English');
      assert.ok(transcript.segments.length + transcript.words.length > 0);
      for (const item of [...transcript.segments, ...transcript.words]) assert.ok(item.start >= 0 && item.start <= item.end && item.end <= seconds + 0.5, JSON.stringify(item));
      await rejectsWith(client.createTranscriptionScenario({ body: { name: 'x', engine: 'whisper.cpp', model: 'not-installed' } }), 400, 'validation_failed');
    });

    test('409 rules: recording downloading, run not completed, retry of a run that did not fail', async () => {
      const imported = await client.importRecording({ body: { url: origin.url('/slow.wav') } });
      await recordingReaches(client, imported.id, ['downloading']);
      await rejectsWith(client.createTranscriptionRun({ path: { recording_id: imported.id }, body: { transcription_scenario_id: defaultScenario } }), 409, 'recording_not_ready');

      const started = await client.createTranscriptionRun({ path: { recording_id: recordingId }, body: {} });
      const cancelled = await client.cancelTranscriptionRun({ path: { run_id: started.id } });
      assert.equal(cancelled.status, 'cancelled');
      await rejectsWith(transcriptOf(started.id), 409, 'run_not_completed');
      await rejectsWith(client.retryTranscriptionRun({ path: { run_id: started.id } }), 409, 'run_not_retryable');
      await rejectsWith(client.cancelTranscriptionRun({ path: { run_id: started.id } }), 409, 'run_not_cancellable');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal((await transcriptionEnds(client, started.id)).status, 'cancelled', 'a cancelled run stays cancelled');
      await rejectsWith(client.createTranscriptionRun({ path: { recording_id: recordingId }, body: { transcription_scenario_id: 'sct-00000000-0000-0000-0000-000000000000' } }), 404, 'not_found');
    });

    test('an engine that cannot be reached fails with the failure fields; a retry is a new run', async () => {
      const closed = await new Promise<number>((resolve) => {
        const server = http.createServer();
        server.listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          server.close(() => resolve(port));
        });
      });
      const scenario = await client.createTranscriptionScenario({
        body: { name: 'remote', engine: 'openai', model: 'whisper-1', options: { base_url: `http://127.0.0.1:${closed}/v1` }, retry: { max_attempts: 2, backoff_seconds: 1 } },
      });
      const failed = await transcribed(recordingId, scenario.id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error_code, 'engine_unreachable');
      assert.equal(failed.retryable, true);
      assert.equal(failed.attempts, 2, 'the scenario allows two attempts');
      assert.ok(failed.error_message);

      // A client repeating its retry (three at once) starts one run; the others are told which.
      const asked = await Promise.allSettled([1, 2, 3].map(() => client.retryTranscriptionRun({ path: { run_id: failed.id } })));
      const started = asked.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value] : []));
      assert.equal(started.length, 1, 'one retry');
      const retry = started[0]!;
      for (const answer of asked.filter((a) => a.status === 'rejected')) assert.match(String((answer as PromiseRejectedResult).reason), new RegExp(`run_not_retryable|${retry.id}`));
      const again = await rejectsWith(client.retryTranscriptionRun({ path: { run_id: failed.id } }), 409, 'run_not_retryable');
      assert.match(again.detail, new RegExp(retry.id), 'names the run that retries it');
      assert.equal(retry.retry_of, failed.id);
      assert.notEqual(retry.id, failed.id);
      assert.equal(retry.status, 'queued');
      assert.deepEqual(await client.getTranscriptionRun({ path: { run_id: failed.id } }), failed, 'the original run is unchanged');
      assert.equal((await transcriptionEnds(client, retry.id)).status, 'failed', 'the engine is still unreachable');
      assert.equal((await client.retryTranscriptionRun({ path: { run_id: retry.id } })).retry_of, retry.id, 'the retry, failed, is retried in its turn');

      // Cancelled while it waits for its next attempt, a run is not failed: no failure fields.
      const patient = await client.createTranscriptionScenario({
        body: { name: 'remote, patient', engine: 'openai', model: 'whisper-1', options: { base_url: `http://127.0.0.1:${closed}/v1` }, retry: { max_attempts: 3, backoff_seconds: 300 } },
      });
      const waiting = await client.createTranscriptionRun({ path: { recording_id: recordingId }, body: { transcription_scenario_id: patient.id } });
      await eventually(async () => {
        const card = await client.getTranscriptionRun({ path: { run_id: waiting.id } });
        return card.status === 'queued' && card.last_error?.code === 'engine_unreachable' ? card : null;
      }, 60_000, 'the first attempt to fail and the run to wait');
      // Waiting is not failing: no failure fields (a client trusting `retryable` would get a 409), the last error apart.
      const waitingCard = await client.getTranscriptionRun({ path: { run_id: waiting.id } });
      assert.deepEqual([waitingCard.error_code, waitingCard.error_message, waitingCard.retryable], [null, null, null]);
      assert.match(waitingCard.last_error?.message ?? '', /./);
      await rejectsWith(client.retryTranscriptionRun({ path: { run_id: waiting.id } }), 409, 'run_not_retryable');
      const cancelled = await client.cancelTranscriptionRun({ path: { run_id: waiting.id } });
      assert.deepEqual([cancelled.status, cancelled.error_code, cancelled.error_message, cancelled.retryable], ['cancelled', null, null, null]);
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
        const scenario = await client.createTranscriptionScenario({ body: { name: 'flaky', engine: 'openai', options: { base_url: `http://127.0.0.1:${port}/v1` }, retry: { max_attempts: 3, backoff_seconds: 1 } } });
        const run = await transcribed(recordingId, scenario.id);
        assert.equal(run.status, 'completed');
        assert.equal(run.attempts, 2);
        assert.equal(calls, 2);
        const transcript = await transcriptOf(run.id);
        assert.equal(transcript.language, 'en');
        assert.equal(transcript.words.length, 2);
      } finally {
        server.close();
      }
    });

    test('the automatic scenario transcribes a new recording without a call, with a summary', async () => {
      const other = hark.client((await registerAccount(hark)).key);
      const scenarioId = (await other.listTranscriptionScenarios()).data[0]!.id;
      await other.updateTranscriptionScenario({ path: { scenario_id: scenarioId }, body: { auto: true, options: { summary: true } } });
      const { id } = await other.upload(speech('Good morning. Thank you for calling the support line. I would like to change my delivery address.'));
      const runs = await eventually(async () => {
        const list = (await other.listTranscriptionRuns({ query: { recording_id: id } })).data;
        return list.length > 0 ? list : null;
      }, 60_000, 'an automatic run');
      const run = await transcriptionEnds(other, runs[0]!.id);
      assert.equal(run.status, 'completed');
      const transcript = await other.getRecordingTranscript({ path: { recording_id: id } });
      assert.equal(typeof transcript.summary, 'string');
      assert.ok(transcript.text.length > 0);
    });

    test('executions are idempotent and list their runs by jobId', async () => {
      // Two short calls (the long one is heard once, above).
      const [one, second] = await Promise.all([prepared('I would like to change my delivery address.'), prepared('Please cancel my subscription.')]);
      const url = `${P}/transcription-scenarios/${defaultScenario}/executions`;
      const body = { recording_ids: [one, second], idempotency_key: `batch-${backend}` };
      // The status codes tell a new execution (202) from the same one found again (200): asked by hand.
      const results = await Promise.all([1, 2, 3, 4].map(() => hark.request({ method: 'POST', url, key: account.key, payload: body })));
      const ids = new Set(results.map((r) => r.json<{ id: string }>().id));
      assert.equal(ids.size, 1, 'concurrent duplicates made more than one execution');
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 200, 200, 202]);
      const executionId = [...ids][0]!;
      const replay = await hark.request({ method: 'POST', url, key: account.key, payload: { ...body, recording_ids: [second, one] } });
      assert.equal(replay.statusCode, 200);
      assert.equal(replay.json<{ id: string }>().id, executionId);
      const execute = (recordingIds: string[], key: string) => client.createTranscriptionExecution({ path: { scenario_id: defaultScenario }, body: { recording_ids: recordingIds, idempotency_key: key } });
      await rejectsWith(execute([second], body.idempotency_key), 422, 'idempotency_key_reused');
      await rejectsWith(execute([second], '   '), 400, 'validation_failed');
      const unknown = await rejectsWith(execute(['fl-00000000-0000-0000-0000-000000000000'], 'other'), 400, 'validation_failed');
      assert.match(unknown.detail, /fl-00000000/);

      const children = (await client.listTranscriptionRuns({ query: { jobId: executionId } })).data;
      assert.equal(children.length, 2);
      assert.ok(children.every((run) => run.execution_id === executionId));
      const byName = (await client.listTranscriptionRuns({ query: { execution_id: executionId } })).data;
      assert.deepEqual(byName.map((run) => run.id).sort(), children.map((run) => run.id).sort(), 'execution_id is the documented name, jobId its alias');
      assert.equal((await client.listTranscriptionRuns({ query: { execution_id: executionId, jobId: executionId } })).data.length, 2, 'both names, one execution');
      await rejectsWith(client.listTranscriptionRuns({ query: { execution_id: executionId, jobId: 'fl-00000000-0000-4000-8000-000000000000' } }), 400, 'validation_failed');
      for (const child of children) await transcriptionEnds(client, child.id);
      const execution = await eventually(async () => {
        const e = await client.getTranscriptionExecution({ path: { scenario_id: defaultScenario, execution_id: executionId } });
        return e.status.startsWith('completed') ? e : null;
      }, 60_000, 'execution completion');
      assert.equal(execution.status, 'completed');
      assert.equal(execution.counts.completed, 2);
      const listed = (await client.listTranscriptionExecutions({ path: { scenario_id: defaultScenario } })).data;
      assert.ok(listed.some((e) => e.id === executionId));
      await execute([second], `batch-2-${backend}`);
      const first = await client.listTranscriptionExecutions({ path: { scenario_id: defaultScenario }, query: { limit: 1 } });
      assert.equal(first.data.length, 1);
      const rest = await client.listTranscriptionExecutions({ path: { scenario_id: defaultScenario }, query: { limit: 1, cursor: first.next_cursor! } });
      assert.notEqual(rest.data[0]?.id, first.data[0]?.id);
    });
  });
}

describe('a new workspace transcribes every upload by default', () => {
  test('its default transcription scenario is automatic: an upload is transcribed without asking', async () => {
    let hark = await startHark({ backend: 'pglite', env: { HARK_AUTO_TRANSCRIBE: 'on' } });
    try {
      const account = await registerAccount(hark);
      const client = hark.client(account.key);
      assert.deepEqual((await client.listTranscriptionScenarios()).data.map((s) => s.auto), [true]);
      const { id } = await client.upload(speech('Thank you for calling, how can I help you today?'));
      const run = await eventually(async () => {
        const runs = (await client.listTranscriptionRuns({ query: { recording_id: id } })).data;
        return runs.length === 1 && runs[0]!.status === 'completed' ? runs[0] : null;
      }, 120_000, 'the automatic transcription');
      assert.match((await client.getRunTranscript({ path: { run_id: run.id } })).text, /thank you/i);

      // Where each call stands, on the card and in the list, and as a filter.
      const pipeline = async (recording: string) => (await client.getRecording({ path: { recording_id: recording } })).pipeline;
      const listed = async (status: string) => (await client.listRecordings({ query: { pipeline_status: status } })).data.map((r) => r.id);
      assert.equal((await pipeline(id)).status, 'transcribed');
      assert.deepEqual(await listed('transcribed'), [id]);
      const analysisScenario = (await client.listAnalysisScenarios()).data[0]!.id;
      await client.createAnalysisRun({ path: { recording_id: id }, body: { analysis_scenario_id: analysisScenario } });
      await eventually(async () => (await pipeline(id)).status === 'analysed', 120_000, 'analysed');
      assert.deepEqual(await listed('analysed,failed'), [id]);
      assert.deepEqual(await listed('transcribed'), []);
      // Corrected, the call's answers are of a transcript it no longer has: transcribed, until analysed again.
      const words = (await client.getRecordingTranscript({ path: { recording_id: id } })).words;
      await client.correctTranscript({ path: { run_id: run.id }, body: { words: [{ index: 0, word: words[0]!.word === 'hello' ? 'hi' : 'hello' }] } });
      assert.equal((await pipeline(id)).status, 'transcribed');
      assert.deepEqual(await listed('analysed'), []);
      // The answer table still shows the answers, marked as those of an earlier transcript.
      const outdated = async () => (await client.getAnswerTable({ path: { scenario_id: analysisScenario } })).rows.map((row) => row.outdated);
      assert.deepEqual(await outdated(), [true]);
      await client.createAnalysisRun({ path: { recording_id: id }, body: { analysis_scenario_id: analysisScenario } });
      await eventually(async () => (await pipeline(id)).status === 'analysed', 120_000, 'analysed again');
      assert.deepEqual(await outdated(), [false]);
      const garbage = Buffer.concat([Buffer.from('RIFF\x24\x00\x10\x00WAVEfmt ', 'latin1'), Buffer.alloc(20_000, 0x5a)]);
      const broken = await client.upload(new Blob([garbage], { type: 'audio/wav' }), { filename: 'audio.wav' });
      assert.equal(broken.pipeline.status, 'preparing');
      await eventually(async () => (await pipeline(broken.id)).status === 'failed', 60_000, 'failed');
      assert.equal((await pipeline(broken.id)).error_code, 'invalid_audio');
      assert.deepEqual(await listed('failed'), [broken.id]);
      await rejectsWith(client.listRecordings({ query: { pipeline_status: 'done' } }), 400, 'validation_failed');
      // A transcription started again and cancelled leaves the call where it stood (its transcript
      // and answers stand); no workers, so the run is cancelled while it waits.
      hark = await hark.restart({ workers: false });
      const paused = hark.client(account.key);
      const again = await paused.createTranscriptionRun({ path: { recording_id: id }, body: {} });
      // No worker takes it: transcribing, and waiting for one (the web says "Waiting to transcribe").
      assert.deepEqual((await paused.getRecording({ path: { recording_id: id } })).pipeline, { status: 'transcribing', error_code: null, error_message: null, waiting: true });
      assert.equal((await paused.listRecordings({ query: { pipeline_status: 'transcribing' } })).data.find((r) => r.id === id)?.pipeline.waiting, true);
      await paused.cancelTranscriptionRun({ path: { run_id: again.id } });
      assert.deepEqual((await paused.getRecording({ path: { recording_id: id } })).pipeline, { status: 'analysed', error_code: null, error_message: null, waiting: false });
      assert.deepEqual((await paused.listRecordings({ query: { pipeline_status: 'analysed' } })).data.map((r) => r.id), [id]);
    } finally {
      await hark.destroy();
    }
  });
});
