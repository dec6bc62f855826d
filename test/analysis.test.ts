// Analysis over HTTP, through the shipped TypeScript client: default engines end to end,
// transcript binding, 409/400 rules, failures and retries, automatic analysis after automatic
// transcription, executions and result filters.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { addModel } from '../src/engines/models.ts';
import { speech } from './helpers/audio.ts';
import { startOpenAiServer } from './helpers/openai-server.ts';
import { assertProblem, backends, eventually, registerAccount, rejectsWith, startHark, type Account, type Hark } from './helpers/harness.ts';

const CALL =
  'Hello, thank you for calling Acme support, my name is Sarah. How can I help you today? ' +
  'Hi, I would like a refund for my order. It arrived broken last Tuesday. ' +
  'I am sorry to hear that. I can issue a refund of forty nine dollars to your card. Is there anything else?';

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = http.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

for (const backend of await backends()) {
  describe(`analysis on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let client: HarkClient;
    let recordingId: string;
    let transcriptionScenario: string;
    let analysisScenario: string;
    const transcriptIds: string[] = [];
    const runIds: string[] = [];

    /** The run once it has ended, however it ended (the client's own wait throws on a failure). */
    const waitAnalysis = (id: string) =>
      eventually(async () => {
        const run = await client.getAnalysisRun({ path: { run_id: id } });
        return ['completed', 'failed', 'cancelled'].includes(run.status) ? run : null;
      }, 300_000, `analysis run ${id}`);
    const result = (runId: string) => client.getAnalysisResult({ path: { recording_id: recordingId, run_id: runId } });
    const analyse = async (body: { analysis_scenario_id: string; transcript_id?: string }, recording = recordingId) => waitAnalysis((await client.createAnalysisRun({ path: { recording_id: recording }, body })).id);

    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      client = hark.client(account.key);
      recordingId = (await client.upload(speech(CALL), { metadata: { team: 'support' } })).id;
      await client.waitForRecording(recordingId);
      transcriptionScenario = (await client.listTranscriptionScenarios()).data[0]!.id;
      const scenarios = (await client.listAnalysisScenarios()).data;
      assert.equal(scenarios.length, 1, 'a new workspace has a default analysis scenario');
      assert.equal(scenarios[0]!.engine, 'basic');
      const created = await client.createAnalysisScenario({
        body: {
          name: 'Call review',
          instructions: 'Review the support call.',
          summary: true,
          questions: [
            { id: 'greeting', text: 'Did the agent greet the customer?', type: 'boolean' },
            { id: 'refund', text: 'Did the customer ask for a refund?', type: 'boolean' },
            { text: 'What did the customer ask for?', type: 'text' },
          ],
        },
      });
      analysisScenario = created.id;
      assert.equal(created.questions[2]!.id, 'q3');
      for (let i = 0; i < 2; i++) {
        const run = await client.createTranscriptionRun({ path: { recording_id: recordingId }, body: { transcription_scenario_id: transcriptionScenario } });
        await client.waitForTranscript(run.id);
        transcriptIds.push((await client.getTranscriptionRun({ path: { run_id: run.id } })).transcript_id!);
        runIds.push(run.id);
      }
    });
    after(() => hark.destroy());

    test('a recording transcribed and analysed with the default engines', async () => {
      const run = await analyse({ analysis_scenario_id: analysisScenario });
      assert.equal(run.status, 'completed', `${run.error_code}: ${run.error_message}`);
      assert.equal(run.transcript_id, transcriptIds[1], 'the latest transcript is used');
      const answer = await result(run.id);
      assert.equal(answer.engine, 'basic');
      assert.ok(answer.summary && answer.summary.length > 0);
      assert.equal(answer.answers.length, 3);
      assert.deepEqual(answer.answers.map((a) => typeof a.answer), ['boolean', 'boolean', 'string']);
      assert.equal(answer.tokens_used, 0);
      assert.equal(answer.transcription_run_id, runIds[1]);
      await rejectsWith(result('anl-00000000-0000-0000-0000-000000000000'), 404, 'not_found');
    });

    // The engines' own path (a model file, a server) is the same on every store: once is enough.
    test('the llama.cpp engine on a GGUF file and the openai engine on a local OpenAI-compatible server', { skip: backend !== 'pglite' && 'run on pglite: the store plays no part in it' }, async () => {
      const fixture = new URL('./fixtures/random-qwen2-micro.gguf', import.meta.url).pathname;
      await addModel(hark.config, 'micro', fixture);
      const server = await startOpenAiServer({ modelPath: fixture });
      try {
        const questions = [
          { id: 'greeted', text: 'Did the agent greet the customer?', type: 'boolean' as const },
          { id: 'ask', text: 'What did the customer ask for?', type: 'text' as const },
        ];
        for (const body of [
          { name: 'local llm', engine: 'llama.cpp' as const, model: 'micro', questions, summary: true },
          { name: 'server llm', engine: 'openai' as const, model: 'micro', options: { base_url: server.url }, questions, summary: true },
        ]) {
          const scenario = await client.createAnalysisScenario({ body });
          const run = await analyse({ analysis_scenario_id: scenario.id });
          assert.equal(run.status, 'completed', `${body.engine}: ${run.error_code} ${run.error_message}`);
          const answer = await result(run.id);
          assert.equal(answer.engine, body.engine);
          assert.equal(typeof answer.summary, 'string');
          assert.deepEqual(answer.answers.map((a) => typeof a.answer), ['boolean', 'string']);
          assert.ok(answer.tokens_used > 0, `${body.engine} counts tokens`);
        }
        await rejectsWith(client.createAnalysisScenario({ body: { name: 'missing', engine: 'llama.cpp', model: 'not-installed' } }), 400, 'validation_failed');
        await rejectsWith(client.createAnalysisScenario({ body: { name: 'blank', questions: [{ text: '   ', type: 'boolean' }] } }), 400, 'validation_failed');
        // An id of dots alone would be a path segment ("." or "..") in …/answers/{question_id}/review.
        for (const id of ['.', '..']) await rejectsWith(client.createAnalysisScenario({ body: { name: 'dots', questions: [{ id, text: 'Greeted?', type: 'boolean' }] } }), 400, 'validation_failed');
        await client.deleteAnalysisScenario({ path: { scenario_id: (await client.createAnalysisScenario({ body: { name: 'dotted', questions: [{ id: 'a.b', text: 'Greeted?', type: 'boolean' }] } })).id } });
      } finally {
        await server.close();
      }
    });

    test('an answer resting on nothing says so: no evidence that contradicts it, marked uncertain', async () => {
      const created = await client.createAnalysisScenario({
        body: {
          name: 'Honest answers',
          questions: [
            { id: 'thanked', text: 'Did the agent thank the customer for calling?', type: 'boolean' },
            { id: 'moved', text: 'Did the customer ask to change the delivery address of the parcel?', type: 'boolean' },
          ],
        },
      });
      const run = await analyse({ analysis_scenario_id: created.id });
      assert.equal(run.status, 'completed', `${run.error_code}: ${run.error_message}`);
      const { answers } = await result(run.id);
      for (const answer of answers) assert.equal(answer.uncertain, answer.confidence < 0.6, `${answer.question_id}: uncertain is the low confidence`);
      const thanked = answers.find((a) => a.question_id === 'thanked')!;
      assert.equal(thanked.answer, true);
      assert.ok(thanked.evidence.some((e) => /thank you for calling/i.test(e.text)), JSON.stringify(thanked));
      const moved = answers.find((a) => a.question_id === 'moved')!;
      assert.equal(moved.answer, false);
      assert.equal(moved.uncertain, true, 'nothing in the call settles it');
      assert.deepEqual(moved.evidence, [], 'a "no" quotes no sentence as its evidence');
    });

    test('transcript_id binds the analysis to an older transcript', async () => {
      const run = await analyse({ analysis_scenario_id: analysisScenario, transcript_id: transcriptIds[0]! });
      assert.equal(run.transcript_id, transcriptIds[0]);
      const answer = await result(run.id);
      assert.equal(answer.transcript_id, transcriptIds[0]);
      assert.equal(answer.transcription_run_id, runIds[0]);
    });

    test('409 transcript_not_available, 400 for another recording\'s transcript', async () => {
      const bare = (await client.upload(speech('nothing to see'))).id;
      const start = (recording: string, body: { analysis_scenario_id: string; transcript_id?: string }) => client.createAnalysisRun({ path: { recording_id: recording }, body });
      await rejectsWith(start(bare, { analysis_scenario_id: analysisScenario }), 409, 'transcript_not_available');
      await rejectsWith(start(bare, { analysis_scenario_id: analysisScenario, transcript_id: transcriptIds[0]! }), 400, 'validation_failed');
      await rejectsWith(start(recordingId, { analysis_scenario_id: analysisScenario, transcript_id: '00000000-0000-0000-0000-000000000000' }), 404, 'not_found');
    });

    test('an unreachable engine fails with the failure fields; retry makes a new run', async () => {
      const port = await closedPort();
      const scenario = await client.createAnalysisScenario({
        body: {
          name: 'remote',
          engine: 'openai',
          model: 'gpt-4o-mini',
          options: { base_url: `http://127.0.0.1:${port}/v1` },
          retry: { max_attempts: 2, backoff_seconds: 1 },
          questions: [{ id: 'x', text: 'Was a refund issued?', type: 'boolean' }],
        },
      });
      const failed = await analyse({ analysis_scenario_id: scenario.id });
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error_code, 'engine_unreachable');
      assert.equal(failed.retryable, true);
      assert.equal(failed.attempts, 2);
      const retried = await client.retryAnalysisRun({ path: { run_id: failed.id } });
      assert.equal(retried.retry_of, failed.id);
      assert.deepEqual(await client.getAnalysisRun({ path: { run_id: failed.id } }), failed);
      await rejectsWith(client.retryAnalysisRun({ path: { run_id: retried.id } }), 409, 'run_not_retryable');
      await waitAnalysis(retried.id);
    });

    test('automatic analysis follows an automatic transcription with no call in between', async () => {
      const other = hark.client((await registerAccount(hark)).key);
      const sct = (await other.listTranscriptionScenarios()).data[0]!.id;
      const sca = (await other.listAnalysisScenarios()).data[0]!.id;
      await other.updateTranscriptionScenario({ path: { scenario_id: sct }, body: { auto: true } });
      await other.updateAnalysisScenario({ path: { scenario_id: sca }, body: { auto: true } });
      const id = (await other.upload(speech(CALL))).id;
      const results = await eventually(async () => {
        const list = (await other.listAnalysisResults({ query: { recording_id: id } })).data;
        return list.length > 0 ? list : null;
      }, 180_000, 'an automatic analysis result');
      assert.equal(results[0]!.analysis_scenario_id, sca);
      assert.equal(typeof results[0]!.answers[0]!.answer, 'boolean');
    });

    test('idempotent executions, jobId listing, and results filters', async () => {
      const P = `/api/v1/workspaces/${account.workspaceId}`;
      const url = `${P}/analysis-scenarios/${analysisScenario}/executions`;
      const body = { recording_ids: [recordingId], idempotency_key: 'analysis-batch-1' };
      // The status codes tell a new execution (202) from the same one found again (200): HTTP itself.
      const [a, b] = await Promise.all([hark.request({ method: 'POST', url, key: account.key, payload: body }), hark.request({ method: 'POST', url, key: account.key, payload: body })]);
      assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 202]);
      const executionId = a.json<{ id: string }>().id;
      assert.equal(b.json<{ id: string }>().id, executionId);
      assertProblem(await hark.request({ method: 'POST', url, key: account.key, payload: { idempotency_key: 'analysis-batch-1' } }), 422, 'idempotency_key_reused');
      const children = (await client.listAnalysisRuns({ query: { jobId: executionId } })).data;
      assert.equal(children.length, 1);
      await rejectsWith(client.listAnalysisRuns({ query: { status: 'bogus' } }), 400, 'validation_failed');
      await waitAnalysis(children[0]!.id);
      const execution = await eventually(async () => {
        const e = await client.getAnalysisExecution({ path: { scenario_id: analysisScenario, execution_id: executionId } });
        return e.status === 'completed' ? e : null;
      }, 30_000, 'execution');
      assert.equal(execution.counts.completed, 1);

      // The workspace's executions of both kinds in one list, newest first, with their scenarios' names.
      const transcriptionExecution = (await client.execute('transcription', transcriptionScenario, { recordingIds: [recordingId], idempotencyKey: 'transcription-batch-1' })).id;
      const listed = await client.listExecutions();
      assert.deepEqual(listed.data.map((e) => [e.id, e.kind, e.scenario_name]), [
        [transcriptionExecution, 'transcription', 'Default transcription (pocketsphinx, English)'],
        [executionId, 'analysis', 'Call review'],
      ]);
      assert.equal(listed.next_cursor, null);
      // Each listed execution carries its own counts (read for the whole page at once).
      assert.deepEqual(listed.data.find((e) => e.id === executionId)?.counts, execution.counts);
      const fresh = listed.data.find((e) => e.id === transcriptionExecution)!.counts;
      assert.equal(fresh.queued + fresh.running + fresh.completed, 1, 'the new execution\'s one run, counted');
      const first = await client.listExecutions({ query: { limit: 1 } });
      assert.deepEqual(first.data.map((e) => e.id), [transcriptionExecution]);
      assert.deepEqual((await client.listExecutions({ query: { limit: 1, cursor: first.next_cursor! } })).data.map((e) => e.id), [executionId]);
      assert.deepEqual((await client.listExecutions({ query: { kind: 'analysis' } })).data.map((e) => e.id), [executionId]);
      // A kind the client's types refuse, sent as it would arrive from elsewhere.
      assertProblem(await hark.request({ method: 'GET', url: `${P}/executions?kind=calls`, key: account.key }), 400, 'validation_failed');
      // A key sees the kinds its scopes read.
      const reader = hark.client((await client.createApiKey({ body: { name: 'answers only', scopes: ['analysis:read'] } })).key);
      assert.deepEqual((await reader.listExecutions()).data.map((e) => e.kind), ['analysis']);
      await rejectsWith(reader.listExecutions({ query: { kind: 'transcription' } }), 403, 'insufficient_scope');
      const reportsOnly = hark.client((await client.createApiKey({ body: { name: 'reports only', scopes: ['reports:read'] } })).key);
      await rejectsWith(reportsOnly.listExecutions({ path: { workspace_id: account.workspaceId } }), 403, 'insufficient_scope');

      const all = (await client.listAnalysisResults({ query: { recording_id: recordingId } })).data;
      assert.ok(all.length >= 3);
      const byRun = (await client.listAnalysisResults({ query: { transcription_run_id: runIds[0] } })).data;
      assert.ok(byRun.length >= 1 && byRun.every((r) => r.transcription_run_id === runIds[0]));
      const byScenario = await client.listAnalysisResults({ query: { analysis_scenario_id: analysisScenario, limit: 1 } });
      assert.equal(byScenario.data.length, 1);
      assert.ok(byScenario.next_cursor);
      // A cursor pages the list that returned it: given to another, it is refused, not read as a place in it.
      const foreign = await rejectsWith(client.listExecutions({ query: { cursor: byScenario.next_cursor! } }), 400, 'validation_failed');
      assert.match(foreign.detail, /^cursor: is a cursor of another list \(analysis-results\)/);
      await rejectsWith(client.listAnalysisRuns({ query: { cursor: first.next_cursor! } }), 400, 'validation_failed');
      const none = (await client.listAnalysisResults({ query: { recording_id: 'fl-00000000-0000-0000-0000-000000000000' } })).data;
      assert.equal(none.length, 0);
    });
  });
}
