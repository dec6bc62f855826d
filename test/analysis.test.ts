// Analysis over HTTP: default engines end to end, transcript binding, 409/400 rules, failures and
// retries, automatic analysis after automatic transcription, executions and result filters.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { addModel } from '../src/engines/models.ts';
import { speech } from './helpers/audio.ts';
import { startOpenAiServer } from './helpers/openai-server.ts';
import { upload, waitForRecording } from './helpers/api.ts';
import { assertProblem, backends, eventually, registerAccount, startHark, type Account, type Hark } from './helpers/harness.ts';

interface AnalysisRun {
  id: string;
  status: string;
  transcript_id: string | null;
  error_code: string | null;
  error_message: string | null;
  retryable: boolean | null;
  retry_of: string | null;
  attempts: number;
}
interface Result {
  analysis_run_id: string;
  transcript_id: string;
  transcription_run_id: string;
  recording_id: string;
  analysis_scenario_id: string;
  engine: string;
  summary: string | null;
  tokens_used: number;
  answers: { question_id: string; type: string; answer: unknown; evidence: { start: number; end: number }[] }[];
}

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
    let P: string;
    let recordingId: string;
    let transcriptionScenario: string;
    let analysisScenario: string;
    const transcriptIds: string[] = [];
    const runIds: string[] = [];

    const request = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => hark.request({ method, url: `${P}${url}`, key: account.key, ...(payload ? { payload } : {}) });
    const waitAnalysis = (id: string) =>
      eventually(async () => {
        const run = (await request('GET', `/analysis-runs/${id}`)).json<AnalysisRun>();
        return ['completed', 'failed', 'cancelled'].includes(run.status) ? run : null;
      }, 300_000, `analysis run ${id}`);
    const transcribe = async (recording: string) => {
      const run = (await request('POST', `/recordings/${recording}/transcription-runs`, { transcription_scenario_id: transcriptionScenario })).json<{ id: string }>();
      return eventually(async () => {
        const card = (await request('GET', `/transcription-runs/${run.id}`)).json<{ id: string; status: string; transcript_id: string }>();
        return card.status === 'completed' ? card : null;
      }, 120_000, 'transcription');
    };

    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      P = `/api/v1/workspaces/${account.workspaceId}`;
      recordingId = (await upload(hark, account, speech(CALL), { fields: { metadata: JSON.stringify({ team: 'support' }) } })).json<{ id: string }>().id;
      await waitForRecording(hark, account, recordingId, ['completed']);
      transcriptionScenario = (await request('GET', '/transcription-scenarios')).json<{ data: { id: string }[] }>().data[0]!.id;
      const scenarios = (await request('GET', '/analysis-scenarios')).json<{ data: { id: string; engine: string; questions: unknown[] }[] }>().data;
      assert.equal(scenarios.length, 1, 'a new workspace has a default analysis scenario');
      assert.equal(scenarios[0]!.engine, 'basic');
      const created = await request('POST', '/analysis-scenarios', {
        name: 'Call review',
        instructions: 'Review the support call.',
        summary: true,
        questions: [
          { id: 'greeting', text: 'Did the agent greet the customer?', type: 'boolean' },
          { id: 'refund', text: 'Did the customer ask for a refund?', type: 'boolean' },
          { text: 'What did the customer ask for?', type: 'text' },
        ],
      });
      assert.equal(created.statusCode, 201, created.body);
      analysisScenario = created.json<{ id: string; questions: { id: string }[] }>().id;
      assert.equal(created.json<{ questions: { id: string }[] }>().questions[2]!.id, 'q3');
      for (let i = 0; i < 2; i++) {
        const run = await transcribe(recordingId);
        transcriptIds.push(run.transcript_id);
        runIds.push(run.id);
      }
    });
    after(() => hark.destroy());

    test('a recording transcribed and analysed with the default engines', async () => {
      const started = await request('POST', `/recordings/${recordingId}/analysis-runs`, { analysis_scenario_id: analysisScenario });
      assert.equal(started.statusCode, 202, started.body);
      const run = await waitAnalysis(started.json<AnalysisRun>().id);
      assert.equal(run.status, 'completed', `${run.error_code}: ${run.error_message}`);
      assert.equal(run.transcript_id, transcriptIds[1], 'the latest transcript is used');
      const result = (await request('GET', `/recordings/${recordingId}/analysis-results/${run.id}`)).json<Result>();
      assert.equal(result.engine, 'basic');
      assert.ok(result.summary && result.summary.length > 0);
      assert.equal(result.answers.length, 3);
      assert.equal(typeof result.answers[0]!.answer, 'boolean');
      assert.equal(typeof result.answers[1]!.answer, 'boolean');
      assert.equal(typeof result.answers[2]!.answer, 'string');
      assert.equal(result.tokens_used, 0);
      assert.equal(result.transcription_run_id, runIds[1]);
      assertProblem(await request('GET', `/recordings/${recordingId}/analysis-results/anl-00000000-0000-0000-0000-000000000000`), 404, 'not_found');
    });

    // The engines' own path (a model file, a server) is the same on every store: once is enough.
    test('the llama.cpp engine on a GGUF file and the openai engine on a local OpenAI-compatible server', { skip: backend !== 'pglite' && 'run on pglite: the store plays no part in it' }, async () => {
      const fixture = new URL('./fixtures/random-qwen2-micro.gguf', import.meta.url).pathname;
      await addModel(hark.config, 'micro', fixture);
      const server = await startOpenAiServer({ modelPath: fixture });
      try {
        const questions = [
          { id: 'greeted', text: 'Did the agent greet the customer?', type: 'boolean' },
          { id: 'ask', text: 'What did the customer ask for?', type: 'text' },
        ];
        for (const body of [
          { name: 'local llm', engine: 'llama.cpp', model: 'micro', questions, summary: true },
          { name: 'server llm', engine: 'openai', model: 'micro', options: { base_url: server.url }, questions, summary: true },
        ]) {
          const scenario = await request('POST', '/analysis-scenarios', body);
          assert.equal(scenario.statusCode, 201, scenario.body);
          const started = await request('POST', `/recordings/${recordingId}/analysis-runs`, { analysis_scenario_id: scenario.json<{ id: string }>().id });
          const run = await waitAnalysis(started.json<AnalysisRun>().id);
          assert.equal(run.status, 'completed', `${body.engine}: ${run.error_code} ${run.error_message}`);
          const result = (await request('GET', `/recordings/${recordingId}/analysis-results/${run.id}`)).json<Result>();
          assert.equal(result.engine, body.engine);
          assert.equal(typeof result.summary, 'string');
          assert.deepEqual(result.answers.map((a) => typeof a.answer), ['boolean', 'string']);
          assert.ok(result.tokens_used > 0, `${body.engine} counts tokens`);
        }
        assertProblem(await request('POST', '/analysis-scenarios', { name: 'missing', engine: 'llama.cpp', model: 'not-installed' }), 400, 'validation_failed');
        assertProblem(await request('POST', '/analysis-scenarios', { name: 'blank', questions: [{ text: '   ', type: 'boolean' }] }), 400, 'validation_failed');
      } finally {
        await server.close();
      }
    });

    test('an answer resting on nothing says so: no evidence that contradicts it, marked uncertain', async () => {
      const created = await request('POST', '/analysis-scenarios', {
        name: 'Honest answers',
        questions: [
          { id: 'thanked', text: 'Did the agent thank the customer for calling?', type: 'boolean' },
          { id: 'moved', text: 'Did the customer ask to change the delivery address of the parcel?', type: 'boolean' },
        ],
      });
      assert.equal(created.statusCode, 201, created.body);
      const started = await request('POST', `/recordings/${recordingId}/analysis-runs`, { analysis_scenario_id: created.json<{ id: string }>().id });
      const run = await waitAnalysis(started.json<AnalysisRun>().id);
      assert.equal(run.status, 'completed', `${run.error_code}: ${run.error_message}`);
      type Answer = { question_id: string; answer: boolean; confidence: number; uncertain: boolean; evidence: { text: string }[]; related?: { text: string }[] };
      const answers = (await request('GET', `/recordings/${recordingId}/analysis-results/${run.id}`)).json<{ answers: Answer[] }>().answers;
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
      const started = await request('POST', `/recordings/${recordingId}/analysis-runs`, { analysis_scenario_id: analysisScenario, transcript_id: transcriptIds[0] });
      const run = await waitAnalysis(started.json<AnalysisRun>().id);
      assert.equal(run.transcript_id, transcriptIds[0]);
      const result = (await request('GET', `/recordings/${recordingId}/analysis-results/${run.id}`)).json<Result>();
      assert.equal(result.transcript_id, transcriptIds[0]);
      assert.equal(result.transcription_run_id, runIds[0]);
    });

    test('409 transcript_not_available, 400 for another recording\'s transcript', async () => {
      const bare = (await upload(hark, account, speech('nothing to see'))).json<{ id: string }>().id;
      assertProblem(await request('POST', `/recordings/${bare}/analysis-runs`, { analysis_scenario_id: analysisScenario }), 409, 'transcript_not_available');
      assertProblem(await request('POST', `/recordings/${bare}/analysis-runs`, { analysis_scenario_id: analysisScenario, transcript_id: transcriptIds[0] }), 400, 'validation_failed');
      assertProblem(await request('POST', `/recordings/${recordingId}/analysis-runs`, { analysis_scenario_id: analysisScenario, transcript_id: '00000000-0000-0000-0000-000000000000' }), 404, 'not_found');
    });

    test('an unreachable engine fails with the failure fields; retry makes a new run', async () => {
      const port = await closedPort();
      const scenario = await request('POST', '/analysis-scenarios', {
        name: 'remote',
        engine: 'openai',
        model: 'gpt-4o-mini',
        options: { base_url: `http://127.0.0.1:${port}/v1` },
        retry: { max_attempts: 2, backoff_seconds: 1 },
        questions: [{ id: 'x', text: 'Was a refund issued?', type: 'boolean' }],
      });
      assert.equal(scenario.statusCode, 201, scenario.body);
      const started = await request('POST', `/recordings/${recordingId}/analysis-runs`, { analysis_scenario_id: scenario.json<{ id: string }>().id });
      const failed = await waitAnalysis(started.json<AnalysisRun>().id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error_code, 'engine_unreachable');
      assert.equal(failed.retryable, true);
      assert.equal(failed.attempts, 2);
      const retried = await request('POST', `/analysis-runs/${failed.id}/retry`);
      assert.equal(retried.statusCode, 202, retried.body);
      assert.equal(retried.json<AnalysisRun>().retry_of, failed.id);
      assert.deepEqual((await request('GET', `/analysis-runs/${failed.id}`)).json<AnalysisRun>(), failed);
      assertProblem(await request('POST', `/analysis-runs/${retried.json<AnalysisRun>().id}/retry`), 409, 'run_not_retryable');
      await waitAnalysis(retried.json<AnalysisRun>().id);
    });

    test('automatic analysis follows an automatic transcription with no call in between', async () => {
      const ws = await registerAccount(hark);
      const base = `/api/v1/workspaces/${ws.workspaceId}`;
      const get = (url: string) => hark.request({ method: 'GET', url: `${base}${url}`, key: ws.key });
      const sct = (await get('/transcription-scenarios')).json<{ data: { id: string }[] }>().data[0]!.id;
      const sca = (await get('/analysis-scenarios')).json<{ data: { id: string }[] }>().data[0]!.id;
      await hark.request({ method: 'PATCH', url: `${base}/transcription-scenarios/${sct}`, key: ws.key, payload: { auto: true } });
      await hark.request({ method: 'PATCH', url: `${base}/analysis-scenarios/${sca}`, key: ws.key, payload: { auto: true } });
      const id = (await upload(hark, ws, speech(CALL))).json<{ id: string }>().id;
      const results = await eventually(async () => {
        const list = (await get(`/analysis-results?recording_id=${id}`)).json<{ data: Result[] }>().data;
        return list.length > 0 ? list : null;
      }, 180_000, 'an automatic analysis result');
      assert.equal(results[0]!.analysis_scenario_id, sca);
      assert.equal(typeof results[0]!.answers[0]!.answer, 'boolean');
    });

    test('idempotent executions, jobId listing, and results filters', async () => {
      const url = `/analysis-scenarios/${analysisScenario}/executions`;
      const body = { recording_ids: [recordingId], idempotency_key: 'analysis-batch-1' };
      const [a, b] = await Promise.all([request('POST', url, body), request('POST', url, body)]);
      assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 202]);
      const executionId = a.json<{ id: string }>().id;
      assert.equal(b.json<{ id: string }>().id, executionId);
      assertProblem(await request('POST', url, { recording_ids: [], idempotency_key: 'analysis-batch-1' }), 422, 'idempotency_key_reused');
      const children = (await request('GET', `/analysis-runs?jobId=${executionId}`)).json<{ data: AnalysisRun[] }>().data;
      assert.equal(children.length, 1);
      assertProblem(await request('GET', `/analysis-runs?status=bogus`), 400, 'validation_failed');
      await waitAnalysis(children[0]!.id);
      const execution = await eventually(async () => {
        const e = (await request('GET', `${url}/${executionId}`)).json<{ status: string; counts: { completed: number } }>();
        return e.status === 'completed' ? e : null;
      }, 30_000, 'execution');
      assert.equal(execution.counts.completed, 1);

      // The workspace's executions of both kinds in one list, newest first, with their scenarios' names.
      const transcriptionExecution = (await request('POST', `/transcription-scenarios/${transcriptionScenario}/executions`, { recording_ids: [recordingId], idempotency_key: 'transcription-batch-1' })).json<{ id: string }>().id;
      type Listed = { id: string; kind: string; scenario_id: string; scenario_name: string | null; counts: { queued: number } };
      const listed = (await request('GET', '/executions')).json<{ data: Listed[]; next_cursor: string | null }>();
      assert.deepEqual(listed.data.map((e) => [e.id, e.kind, e.scenario_name]), [
        [transcriptionExecution, 'transcription', 'Default transcription (pocketsphinx, English)'],
        [executionId, 'analysis', 'Call review'],
      ]);
      assert.equal(listed.next_cursor, null);
      const first = (await request('GET', '/executions?limit=1')).json<{ data: Listed[]; next_cursor: string }>();
      assert.deepEqual(first.data.map((e) => e.id), [transcriptionExecution]);
      assert.deepEqual((await request('GET', `/executions?limit=1&cursor=${first.next_cursor}`)).json<{ data: Listed[] }>().data.map((e) => e.id), [executionId]);
      assert.deepEqual((await request('GET', '/executions?kind=analysis')).json<{ data: Listed[] }>().data.map((e) => e.id), [executionId]);
      assertProblem(await request('GET', '/executions?kind=calls'), 400, 'validation_failed');
      // A key sees the kinds its scopes read.
      const keys = `/api/v1/workspaces/${account.workspaceId}/api-keys`;
      const reader = (await hark.request({ method: 'POST', url: keys, key: account.key, payload: { name: 'answers only', scopes: ['analysis:read'] } })).json<{ key: string }>().key;
      const asReader = (url: string) => hark.request({ method: 'GET', url: `${P}${url}`, key: reader });
      assert.deepEqual((await asReader('/executions')).json<{ data: Listed[] }>().data.map((e) => e.kind), ['analysis']);
      assertProblem(await asReader('/executions?kind=transcription'), 403, 'insufficient_scope');
      const keyless = (await hark.request({ method: 'POST', url: keys, key: account.key, payload: { name: 'reports only', scopes: ['reports:read'] } })).json<{ key: string }>().key;
      assertProblem(await hark.request({ method: 'GET', url: `${P}/executions`, key: keyless }), 403, 'insufficient_scope');

      const all = (await request('GET', `/analysis-results?recording_id=${recordingId}`)).json<{ data: Result[] }>().data;
      assert.ok(all.length >= 3);
      const byRun = (await request('GET', `/analysis-results?transcription_run_id=${runIds[0]}`)).json<{ data: Result[] }>().data;
      assert.ok(byRun.length >= 1 && byRun.every((r) => r.transcription_run_id === runIds[0]));
      const byScenario = (await request('GET', `/analysis-results?analysis_scenario_id=${analysisScenario}&limit=1`)).json<{ data: Result[]; next_cursor: string | null }>();
      assert.equal(byScenario.data.length, 1);
      assert.ok(byScenario.next_cursor);
      const none = (await request('GET', '/analysis-results?recording_id=fl-00000000-0000-0000-0000-000000000000')).json<{ data: Result[] }>().data;
      assert.equal(none.length, 0);
    });
  });
}
