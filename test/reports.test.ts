// Reports over HTTP, through the shipped TypeScript client: analysis results and recordings grouped
// by metadata and by day, JSON and CSV (the CSV answers, a media type, are asked for by hand).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { speech } from './helpers/audio.ts';
import { sql } from 'kysely';
import { parseGroupBy } from '../src/features/insights/reports.ts';
import { assertProblem, backends, eventually, registerAccount, rejectsWith, startHark, type Account, type Hark } from './helpers/harness.ts';

const calls = [
  { team: 'red', text: 'Hello, thank you for calling. I would like a refund please.' },
  { team: 'red', text: 'Hello and welcome. I need to change my address.' },
  { team: 'blue', text: 'Yes. I want to cancel my order.' },
];

for (const backend of await backends()) {
  describe(`reports on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let client: HarkClient;
    let P: string;
    let scenarioId: string;
    const csvOf = (url: string, key = account.key) => hark.request({ method: 'GET', url, key, headers: { accept: 'text/csv' } });
    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      client = hark.client(account.key);
      P = `/api/v1/workspaces/${account.workspaceId}`;
      const sct = (await client.listTranscriptionScenarios()).data[0]!.id;
      scenarioId = (await client.listAnalysisScenarios()).data[0]!.id;
      await client.updateTranscriptionScenario({ path: { scenario_id: sct }, body: { auto: true } });
      await client.updateAnalysisScenario({ path: { scenario_id: scenarioId }, body: { auto: true } });
      for (const call of calls) await client.waitForRecording((await client.upload(speech(call.text), { metadata: { team: call.team } })).id);
      await eventually(async () => ((await client.listAnalysisResults({ query: { analysis_scenario_id: scenarioId } })).data.length === 3 ? true : null), 180_000, 'three results');
    });
    after(() => hark.destroy());

    test('analysis report by metadata and day, in JSON and CSV', async () => {
      const report = await client.getAnalysisReport({ query: { analysis_scenario_id: scenarioId, group_by: ['metadata.team', 'created_at:day'] } });
      assert.equal(report.groups.length, 2);
      const red = report.groups.find((g) => g.key['metadata.team'] === 'red')!;
      assert.equal(red.results, 2);
      assert.match(String(red.key['created_at:day']), /^\d{4}-\d{2}-\d{2}$/);
      const greeting = red.questions.find((q) => q.question_id === 'greeting')!;
      assert.equal(greeting.true + greeting.false, 2);
      assert.equal(greeting.rate, greeting.true / 2);
      // How many of the counted answers are uncertain: those the results mark so, for this group's calls.
      const teamOf = new Map((await client.listRecordings({ query: { limit: 50 } })).data.map((r) => [r.id, (r.metadata as { team: string }).team]));
      const redResults = (await client.listAnalysisResults({ query: { analysis_scenario_id: scenarioId } })).data.filter((r) => teamOf.get(r.recording_id) === 'red');
      const marked = redResults.filter((r) => r.answers.some((a) => a.question_id === 'greeting' && a.uncertain)).length;
      assert.equal(greeting.uncertain, marked);
      const filtered = await client.getAnalysisReport({ query: { analysis_scenario_id: scenarioId, 'metadata.team': 'blue' } });
      assert.deepEqual(filtered.groups.map((g) => g.results), [1]);

      const csv = await csvOf(`${P}/reports/analysis?analysis_scenario_id=${scenarioId}&group_by=metadata.team`);
      assert.match(String(csv.headers['content-type']), /text\/csv/);
      const [header, ...lines] = csv.body.trim().split('\n');
      assert.equal(header, 'metadata.team,calls,greeting.true,greeting.false,greeting.uncertain,greeting.reviewed,greeting.overturned,greeting.rate');
      assert.equal(lines.length, 2);
      // A filter that finds nothing: no group, and still the scenario's questions, in JSON and as CSV columns.
      const none = await client.getAnalysisReport({ query: { analysis_scenario_id: scenarioId, 'metadata.team': 'green' } });
      assert.deepEqual([none.groups, none.questions.map((q) => q.question_id)], [[], ['greeting']]);
      const empty = await csvOf(`${P}/reports/analysis?analysis_scenario_id=${scenarioId}&metadata.team=green`);
      assert.equal(empty.body.trim(), 'calls,greeting.true,greeting.false,greeting.uncertain,greeting.reviewed,greeting.overturned,greeting.rate');
      await rejectsWith(client.getAnalysisReport({ query: { analysis_scenario_id: scenarioId, group_by: ['bogus'] } }), 400, 'validation_failed');
      // A grouping named twice would give its key and CSV column twice.
      const twice = await rejectsWith(client.getRecordingsReport({ query: { group_by: ['metadata.team', 'metadata.team'] } }), 400, 'validation_failed');
      assert.match(twice.detail ?? '', /metadata\.team at most once/);
    });

    test('a scenario run again over the same calls leaves the report unchanged: it counts calls, not runs', async () => {
      const byTeam = () => client.getAnalysisReport({ query: { analysis_scenario_id: scenarioId, group_by: ['metadata.team'] } });
      const results = async () => (await client.listAnalysisResults({ query: { analysis_scenario_id: scenarioId, limit: 200 } })).data.length;
      const before = await byTeam();
      const already = await results();
      await client.execute('analysis', scenarioId);
      await eventually(async () => ((await results()) >= already + 3 ? true : null), 180_000, 'the re-run\'s results');
      const after = await byTeam();
      const calls = (report: typeof after) => report.groups.map((g) => [g.key['metadata.team'], g.calls, g.results, g.questions.map((q) => q.true + q.false)]);
      assert.deepEqual(calls(after), calls(before), 'the same calls, each counted once');
      assert.deepEqual(calls(after).map(([team, n]) => [team, n]), [['blue', 1], ['red', 2]]);
    });

    test('answers across calls: a row per call, filterable by metadata and answer, per execution, as CSV', async () => {
      const table = (query: Record<string, string | number> = {}) => client.getAnswerTable({ path: { scenario_id: scenarioId }, query });
      const all = await table();
      assert.equal(all.total, 3, 'each call once, however many times it was analysed');
      assert.deepEqual(all.questions.map((q) => q.id), ['greeting', 'request']);
      assert.ok(all.rows.every((row) => typeof row.answers.greeting?.answer === 'boolean' && typeof row.answers.request?.answer === 'string'));
      assert.deepEqual((await table({ 'metadata.team': 'red' })).rows.map((r) => r.metadata.team), ['red', 'red']);
      const report = await client.getAnalysisReport({ query: { analysis_scenario_id: scenarioId } });
      const greeting = report.groups[0]!.questions.find((q) => q.question_id === 'greeting')!;
      assert.equal((await table({ 'answer.greeting': 'true' })).total, greeting.true, 'the table and the report count the same calls');
      assert.equal((await table({ 'answer.greeting': 'false' })).total, greeting.false);
      // Paged in the database: the total stays that of the whole filtered table.
      const paged = await table({ limit: 1, offset: 1 });
      assert.deepEqual([paged.rows.length, paged.total], [1, 3]);
      assert.equal(paged.rows[0]!.recording_id, all.rows[1]!.recording_id);
      const beyond = await table({ offset: 5 });
      assert.deepEqual([beyond.rows.length, beyond.total], [0, 3]);
      const uncertain = all.rows.filter((r) => r.answers.request?.uncertain).length;
      assert.equal((await table({ 'answer.request': 'uncertain' })).total, uncertain);
      const executions = (await client.listAnalysisExecutions({ path: { scenario_id: scenarioId } })).data;
      const ofExecution = await table({ execution_id: executions[0]!.id });
      assert.equal(ofExecution.total, 3);
      const runs = (await client.listAnalysisRuns({ query: { execution_id: executions[0]!.id } })).data.map((r) => r.id);
      assert.deepEqual(ofExecution.rows.map((r) => r.analysis_run_id).sort(), runs.sort());
      assert.deepEqual([...all.rows, ...ofExecution.rows].map((r) => r.superseded), [false, false, false, false, false, false], 'the newest results');
      // Analysed again: the earlier execution's table says its calls have a newer result (where reviews go).
      const results = async () => (await client.listAnalysisResults({ query: { analysis_scenario_id: scenarioId, limit: 200 } })).data.length;
      const already = await results();
      await client.execute('analysis', scenarioId);
      await eventually(async () => ((await results()) >= already + 3 ? true : null), 180_000, 'the new execution\'s results');
      assert.deepEqual((await table({ execution_id: executions[0]!.id })).rows.map((r) => r.superseded), [true, true, true]);
      assert.deepEqual((await table()).rows.map((r) => r.superseded), [false, false, false]);
      const csv = await csvOf(`${P}/analysis-scenarios/${scenarioId}/answers?metadata.team=blue`);
      const [header, ...lines] = csv.body.trim().split('\n');
      assert.equal(header, 'recording_id,filename,recorded_at,outdated,superseded,metadata.team,greeting,greeting.confidence,greeting.uncertain,greeting.reviewed,greeting.overturned,request,request.confidence,request.uncertain,request.reviewed,request.overturned');
      assert.equal(lines.length, 1);
      await rejectsWith(table({ 'answer.greeting': 'maybe' }), 400, 'validation_failed');
      await rejectsWith(table({ 'answer.nope': 'true' }), 400, 'validation_failed');
      const textAsBoolean = await rejectsWith(table({ 'answer.request': 'true' }), 400, 'validation_failed');
      assert.match(textAsBoolean.detail, /text question/);
    });

    test("a person's review of an answer is what the report and the table count, is kept when the call is analysed again, and can be taken back", async () => {
      const greetingOf = async () => (await client.getAnalysisReport({ query: { analysis_scenario_id: scenarioId } })).groups[0]!.questions.find((q) => q.question_id === 'greeting')!;
      const table = (query: Record<string, string> = {}) => client.getAnswerTable({ path: { scenario_id: scenarioId }, query });
      const before = await greetingOf();
      assert.deepEqual([before.reviewed, before.overturned], [0, 0]);
      // The blue call's latest result: its engine answer to "greeting", overturned by the reviewer.
      const blueRow = (await table({ 'metadata.team': 'blue' })).rows[0]!;
      const runId = blueRow.analysis_run_id;
      const engine = blueRow.answers.greeting!;
      const review = (answer: boolean | string, question = 'greeting', note?: string) =>
        client.reviewAnswer({ path: { run_id: runId, question_id: question }, body: note === undefined ? { answer } : { answer, note } });
      const hook = await client.createWebhook({ body: { url: 'http://127.0.0.1:9/hook', events: ['analysis_answer.reviewed'] } });
      const reviewed = await review(!engine.answer, 'greeting', '  no greeting at all  ');
      const event = await hark.runtime.ctx.db.selectFrom('webhook_events').select('payload').where('workspace_id', '=', account.workspaceId).where('type', '=', 'analysis_answer.reviewed').executeTakeFirstOrThrow();
      const { data } = JSON.parse(event.payload) as { data: { analysis_run_id: string; answer: { question_id: string; review?: { answer: unknown } } } };
      assert.deepEqual([data.analysis_run_id, data.answer.question_id, data.answer.review?.answer], [runId, 'greeting', !engine.answer], 'a webhook hears of it');
      await client.deleteWebhook({ path: { webhook_id: hook.id } });
      assert.equal(reviewed.answer, engine.answer, "the engine's answer stays");
      assert.deepEqual([reviewed.review?.answer, reviewed.review?.agrees, reviewed.review?.note], [!engine.answer, false, 'no greeting at all']);
      assert.deepEqual([reviewed.review?.reviewed_by.api_key_id !== null, reviewed.review?.reviewed_by.account_id], [true, account.accountId], 'the key it came with, and the person it answers to');
      const after = await greetingOf();
      assert.deepEqual([after.true, after.false], engine.answer ? [before.true - 1, before.false + 1] : [before.true + 1, before.false - 1], 'counted as the reviewer says');
      assert.deepEqual([after.reviewed, after.overturned], [1, 1]);
      assert.equal(after.uncertain, before.uncertain - (engine.uncertain ? 1 : 0), 'a reviewed answer is not uncertain');
      const cell = (await table({ 'metadata.team': 'blue' })).rows[0]!.answers.greeting!;
      assert.deepEqual([cell.answer, cell.reviewed, cell.overturned, cell.uncertain, cell.confidence], [!engine.answer, true, true, false, 1]);
      assert.equal((await table({ 'answer.greeting': String(!engine.answer), 'metadata.team': 'blue' })).total, 1, 'the filters read the reviewed answer');
      assert.deepEqual((await table({ 'answer.greeting': 'overturned' })).rows.map((r) => r.analysis_run_id), [runId], 'the calls where the engine was wrong');
      assert.deepEqual((await table({ 'answer.greeting': 'reviewed' })).rows.map((r) => r.analysis_run_id), [runId]);
      const result = (await client.listAnalysisResults({ query: { recording_id: blueRow.recording_id } })).data.find((r) => r.analysis_run_id === runId)!;
      assert.equal(result.answers.find((a) => a.question_id === 'greeting')!.review?.answer, !engine.answer, 'the result shows the review');

      // A note added to the same verdict keeps when and by whom it was given.
      const noted = await review(!engine.answer, 'greeting', 'listened twice');
      assert.deepEqual([noted.review?.reviewed_at, noted.review?.note], [reviewed.review?.reviewed_at, 'listened twice']);
      // Agreeing replaces the review: counted as the engine said, and not overturned.
      await review(engine.answer);
      assert.deepEqual([(await greetingOf()).true, (await greetingOf()).reviewed, (await greetingOf()).overturned], [before.true, 1, 0]);
      assert.equal((await table({ 'answer.greeting': 'overturned' })).total, 0);
      assert.equal((await table({ 'answer.greeting': 'reviewed' })).total, 1);
      // A text answer takes a string, and a yes/no one only a boolean.
      const text = await review('A change of order', 'request');
      assert.deepEqual([text.review?.answer, text.type], ['A change of order', 'text']);
      const requestCell = (await table({ 'metadata.team': 'blue' })).rows[0]!.answers.request!;
      assert.deepEqual([requestCell.answer, requestCell.uncertain, requestCell.confidence], ['A change of order', false, 1], 'reviewed, never uncertain');
      assert.equal((await table({ 'answer.request': 'uncertain', 'metadata.team': 'blue' })).total, 0);
      assert.match((await rejectsWith(review('yes'), 400, 'validation_failed')).detail, /yes\/no question/);
      assert.match((await rejectsWith(review(true, 'request'), 400, 'validation_failed')).detail, /text question/);
      // An empty text answer agrees that the call does not say it (spaces, zero-width ones too, are trimmed).
      assert.deepEqual([(await review(' \u200b ', 'request')).review?.answer], ['']);
      await rejectsWith(review('x'.repeat(1_001), 'request'), 400, 'validation_failed');
      assert.equal((await rejectsWith(review(1 as never), 400, 'validation_failed')).detail, 'answer must be boolean or string');
      await rejectsWith(review(true, 'nope'), 404, 'not_found');
      await rejectsWith(client.reviewAnswer({ path: { run_id: runId, question_id: 'greeting' }, body: { answer: true, extra: 1 } as never }), 400, 'validation_failed');
      // Scopes and workspaces: reading is not reviewing, and another workspace's run is not found.
      const reader = hark.client((await client.createApiKey({ body: { name: 'reader', scopes: ['analysis:read', 'recordings:read'] } })).key);
      await rejectsWith(reader.reviewAnswer({ path: { run_id: runId, question_id: 'greeting' }, body: { answer: true } }), 403, 'insufficient_scope');
      const stranger = hark.client((await registerAccount(hark)).key);
      await rejectsWith(stranger.reviewAnswer({ path: { run_id: runId, question_id: 'greeting' }, body: { answer: true } }), 404, 'not_found');
      await rejectsWith(stranger.removeAnswerReview({ path: { run_id: runId, question_id: 'greeting' } }), 404, 'not_found');

      // Taken back: the engine's answer counts again, uncertain as it was; removing twice is no error.
      const reviewEvents = async () => (await hark.runtime.ctx.db.selectFrom('webhook_events').select('id').where('workspace_id', '=', account.workspaceId).where('type', '=', 'analysis_answer.reviewed').execute()).length;
      const counting = await client.createWebhook({ body: { url: 'http://127.0.0.1:9/hook', events: ['analysis_answer.reviewed'] } });
      const eventsBefore = await reviewEvents();
      await client.removeAnswerReview({ path: { run_id: runId, question_id: 'greeting' } });
      await client.removeAnswerReview({ path: { run_id: runId, question_id: 'greeting' } });
      assert.equal(await reviewEvents(), eventsBefore + 1, 'removing a review that is not there changes nothing');
      await client.removeAnswerReview({ path: { run_id: runId, question_id: 'request' } });
      assert.deepEqual(await greetingOf(), before);
      const restored = (await table({ 'metadata.team': 'blue' })).rows[0]!.answers;
      assert.deepEqual([restored.greeting, restored.request?.reviewed], [engine, false]);

      // Analysed again, the call keeps its reviews of the questions asked in the same words.
      await review(!engine.answer);
      const results = async () => (await client.listAnalysisResults({ query: { analysis_scenario_id: scenarioId, limit: 200 } })).data.length;
      const already = await results();
      await client.execute('analysis', scenarioId);
      await eventually(async () => ((await results()) >= already + 3 ? true : null), 180_000, "the re-run's results");
      const again = (await table({ 'metadata.team': 'blue' })).rows[0]!;
      assert.notEqual(again.analysis_run_id, runId);
      // Only the latest result is reviewed: the earlier one is refused, naming the one to review.
      const superseded = await rejectsWith(review(engine.answer), 409, 'result_superseded');
      assert.match(superseded.detail, new RegExp(again.analysis_run_id));
      await rejectsWith(client.removeAnswerReview({ path: { run_id: runId, question_id: 'greeting' } }), 409, 'result_superseded');
      assert.deepEqual([again.answers.greeting?.answer, again.answers.greeting?.reviewed, again.answers.request?.reviewed], [!engine.answer, true, false]);
      assert.deepEqual([(await greetingOf()).reviewed, (await greetingOf()).overturned], [1, 1]);
      // The review says it was given on the earlier analysis (before this answer was made).
      const carried = (await client.waitForAnalysis(again.analysis_run_id)).answers.find((a) => a.question_id === 'greeting')!.review!;
      assert.equal(carried.carried_from, runId);
      // Given again on this answer, it is a review of this answer, made now.
      const confirmed = await client.reviewAnswer({ path: { run_id: again.analysis_run_id, question_id: 'greeting' }, body: { answer: carried.answer } });
      assert.equal(confirmed.review!.carried_from, null);
      await client.removeAnswerReview({ path: { run_id: again.analysis_run_id, question_id: 'greeting' } });
      assert.deepEqual(await greetingOf(), before);
      await client.deleteWebhook({ path: { webhook_id: counting.id } });
    });

    test('a call date: recorded_at given, read from the file, or the upload time; editable with metadata, and reports follow', async () => {
      const other = hark.client((await registerAccount(hark)).key);
      const card = (id: string) => other.getRecording({ path: { recording_id: id } });
      const given = await other.upload(speech('Hello.'), { recordedAt: '2026-10-05T09:30:00+02:00', metadata: { team: 'red' } });
      assert.deepEqual([new Date(given.recorded_at).toISOString(), given.recorded_at_source], ['2026-10-05T07:30:00.000Z', 'client']);
      // An M4A carries its own creation time: the call took place then.
      const m4a = path.join(os.tmpdir(), `hark-dated-${process.pid}.m4a`);
      execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', speech('Hello there.'), '-c:a', 'aac', '-metadata', 'creation_time=2026-09-14T16:45:00Z', m4a]);
      const dated = await other.upload(new Blob([fs.readFileSync(m4a)], { type: 'audio/mp4' }), { filename: 'dated.m4a', metadata: { team: 'blue' } });
      fs.rmSync(m4a, { force: true });
      const fromFile = await other.waitForRecording(dated.id);
      assert.equal(new Date(fromFile.recorded_at).toISOString(), '2026-09-14T16:45:00.000Z');
      assert.equal(fromFile.recorded_at_source, 'file');
      const plain = await other.upload(speech('Hello.'));
      assert.deepEqual([plain.recorded_at, plain.recorded_at_source], [plain.created_at, 'upload']);
      for (const bad of ['yesterday', '2026-10-05', '2999-01-01T00:00:00Z']) await rejectsWith(other.upload(speech('Hello.'), { recordedAt: bad }), 400, 'validation_failed');

      // Editing: the metadata replaced, the date moved; the list filters and the reports follow.
      const edit = (body: { metadata?: Record<string, unknown>; recorded_at?: string }, client = other) => client.updateRecording({ path: { recording_id: plain.id }, body });
      await edit({ metadata: { team: 'green', agent: 'ana' }, recorded_at: '2026-08-01T12:00:00Z' });
      assert.deepEqual((await card(plain.id)).metadata, { team: 'green', agent: 'ana' });
      assert.equal((await card(plain.id)).recorded_at_source, 'client');
      const before = (await other.listRecordings({ query: { recorded_before: '2026-09-01T00:00:00Z' } })).data;
      assert.deepEqual(before.map((r) => r.id), [plain.id]);
      // Sorted by when the calls took place, page by page; a cursor continues only its own sort.
      const byCall: string[] = [];
      for await (const recording of other.paginate<{ id: string }>(other.listRecordings, { sort: 'recorded_at', limit: 1 })) byCall.push(recording.id);
      assert.deepEqual(byCall, [given.id, fromFile.id, plain.id]);
      assert.deepEqual((await other.listRecordings({ query: { limit: 10 } })).data.map((r) => r.id), [plain.id, fromFile.id, given.id], 'upload order by default');
      const uploadCursor = (await other.listRecordings({ query: { limit: 1 } })).next_cursor!;
      await rejectsWith(other.listRecordings({ query: { sort: 'recorded_at', cursor: uploadCursor } }), 400, 'validation_failed');
      await rejectsWith(other.listRecordings({ query: { sort: 'duration' as 'recorded_at' } }), 400, 'validation_failed');
      const byMonth = await other.getRecordingsReport({ query: { group_by: ['recorded_at:month'], status: 'completed,queued,processing' } });
      assert.deepEqual(byMonth.groups.map((g) => g.key['recorded_at:month']), ['2026-08-01', '2026-09-01', '2026-10-01']);
      await rejectsWith(edit({ recorded_at: 'soon' }), 400, 'validation_failed');
      await rejectsWith(edit({}), 400, 'validation_failed');
      await rejectsWith(edit({ metadata: {} }, client), 404, 'not_found');
    });

    test('an edited call moves between the groups of the analysis report, and a webhook hears of it', async () => {
      const hook = await client.createWebhook({ body: { url: 'http://127.0.0.1:9/hook', events: ['recording.updated'] } });
      const report = async () => (await client.getAnalysisReport({ query: { analysis_scenario_id: scenarioId, group_by: ['metadata.team'] } })).groups.map((g) => [g.key['metadata.team'], g.calls]);
      assert.deepEqual(await report(), [['blue', 1], ['red', 2]]);
      const blue = (await client.listRecordings({ query: { 'metadata.team': 'blue' } })).data[0]!.id;
      await client.updateRecording({ path: { recording_id: blue }, body: { metadata: { team: 'red' } } });
      assert.deepEqual(await report(), [['red', 3]]);
      await client.updateRecording({ path: { recording_id: blue }, body: { metadata: { team: 'blue' } } });
      assert.deepEqual(await report(), [['blue', 1], ['red', 2]]);
      const events = await hark.runtime.ctx.db.selectFrom('webhook_events').select('type').where('workspace_id', '=', account.workspaceId).where('type', '=', 'recording.updated').execute();
      assert.equal(events.length, 2);
      await client.deleteWebhook({ path: { webhook_id: hook.id } });
    });

    test('recordings report with counts by status and total duration', async () => {
      const report = await client.getRecordingsReport({ query: { group_by: ['metadata.team'] } });
      const blue = report.groups.find((g) => g.key['metadata.team'] === 'blue')!;
      assert.equal(blue.recordings, 1);
      assert.equal(blue.by_status.completed, 1);
      assert.ok(blue.total_duration_seconds > 1);
      const reader = hark.client((await client.createApiKey({ body: { name: 'r', scopes: ['recordings:read'] } })).key);
      await rejectsWith(reader.getRecordingsReport({ path: { workspace_id: account.workspaceId } }), 403, 'insufficient_scope');
    });

    test('the list and the reports read a metadata filter the same way, for every value type', async () => {
      // A separate workspace, so the recordings above do not count.
      const other = hark.client((await registerAccount(hark)).key);
      const values: unknown[] = ['3', 3, 3.5, true, 'true', false, 'false', null, 'null', '', 'x', { deep: 'x' }, [1]];
      const wav = speech('Hello.');
      const ids = new Map<string, unknown>();
      // A field whose own name has a dot ("dotted.v", as some exports write nested fields) is reached too.
      for (const value of values) ids.set((await other.upload(wav, { metadata: { v: value, nested: { v: value }, 'dotted.v': value } })).id, value);
      // Exact: '03' is not the number 3 (JSON writes it "3"), only a string '03' would be.
      for (const filter of ['3', '3.5', 'true', 'false', 'null', '', 'x', '03', 'TRUE']) {
        for (const field of ['v', 'nested.v', 'dotted.v']) {
          const query = { [`metadata.${field}`]: filter };
          const listed = (await other.listRecordings({ query: { limit: 200, ...query } })).data;
          const report = await other.getRecordingsReport({ query });
          const reported = report.groups.reduce((sum, g) => sum + g.recordings, 0);
          assert.equal(reported, listed.length, `${JSON.stringify(query)}: the report counts ${reported}, the list shows ${listed.length}`);
          const expected = [...ids].filter(([, value]) => value === filter || (filter === 'true' && value === true) || (filter === 'false' && value === false) || (filter === 'null' && value === null) || (typeof value === 'number' && String(value) === filter)).length;
          assert.equal(listed.length, expected, JSON.stringify(query));
        }
      }
      // A field named more than once matches any of its values, on the list as on the reports.
      const either = { 'metadata.v': ['3', 'x'] } as unknown as Record<string, string>;
      const listedEither = (await other.listRecordings({ query: { limit: 200, ...either } })).data.map((r) => ids.get(r.id));
      assert.deepEqual(listedEither.map((v) => JSON.stringify(v)).sort(), ['"3"', '"x"', '3'].sort());
      assert.equal((await other.getRecordingsReport({ query: either })).groups.reduce((sum, g) => sum + g.recordings, 0), 3);
      const tooMany = { 'metadata.v': Array.from({ length: 21 }, (_, i) => String(i)) } as unknown as Record<string, string>;
      await rejectsWith(other.listRecordings({ query: tooMany }), 400, 'validation_failed');
      // Groups come in the order of their keys: text in the locale's order, a missing value last.
      const grouped = (await other.getRecordingsReport({ query: { group_by: ['metadata.v'] } })).groups.map((g) => g.key['metadata.v']!);
      const groupedDotted = (await other.getRecordingsReport({ query: { group_by: ['metadata.dotted.v'] } })).groups.map((g) => g.key['metadata.dotted.v']!);
      assert.deepEqual(groupedDotted, grouped);
      assert.equal(grouped.at(-1), null);
      const texts = grouped.slice(0, -1).map(String);
      assert.deepEqual(texts, [...texts].sort(new Intl.Collator().compare));
    });

    test('a query parameter a route does not take is a 400 naming it; pipeline_status filters the reports as the list', async () => {
      const get = (url: string) => hark.request({ method: 'GET', url, key: account.key });
      const routes = [`${P}/recordings?`, `${P}/search?q=refund&`, `${P}/analysis-scenarios/${scenarioId}/answers?`, `${P}/reports/analysis?analysis_scenario_id=${scenarioId}&`, `${P}/reports/recordings?`, `${P}/reports/talk?`];
      // A read that takes no query parameters refuses one too, rather than answer as if it had not been sent.
      for (const route of [`${P}/engines?limit=1`, `${P}/categories?cursor=abc`, `${P}/members?bogus=1`, `/api/v1/workspaces?limit=1`]) {
        const name = new URL(route, 'http://x').searchParams.keys().next().value!;
        assert.deepEqual(assertProblem(await get(route), 400, 'validation_failed').errors, [{ path: name, message: 'is not a query parameter of this route' }], route);
      }
      assert.equal((await get(`${P}/engines`)).statusCode, 200);
      // A misspelt parameter of a read that takes some: refused, not answered as if unsent (JSON for a misspelt format).
      const recording = (await client.listRecordings({ query: { limit: 1 } })).data[0]!.id;
      const run = (await client.listTranscriptionRuns({ query: { recording_id: recording, limit: 1 } })).data[0]!.id;
      for (const route of [`${P}/recordings/${recording}/transcript?fromat=srt`, `${P}/transcription-runs/${run}/transcript?verison=1`, `${P}/recordings/${recording}/audio?varient=prepared`, `/v1/files/${recording}?wiat=60`]) {
        const name = new URL(route, 'http://x').searchParams.keys().next().value!;
        assert.deepEqual(assertProblem(await get(route), 400, 'validation_failed').errors, [{ path: name, message: 'is not a query parameter of this route' }], route);
      }
      for (const route of routes) {
        const problem = assertProblem(await get(`${route}metdata.team=red`), 400, 'validation_failed');
        assert.deepEqual(problem.errors, [{ path: 'metdata.team', message: 'is not a query parameter of this route' }], route);
        assert.equal((await get(`${route}metadata.team=red&pipeline_status=analysed`)).statusCode, 200, route);
      }
      assert.equal((await get(`${P}/analysis-scenarios/${scenarioId}/answers?answer.greeting=true`)).statusCode, 200, 'answer.<id> where the route takes it');
      assertProblem(await get(`${P}/reports/recordings?answer.greeting=true`), 400, 'validation_failed');
      const counted = async (pipeline: string) => (await client.getRecordingsReport({ query: { pipeline_status: pipeline } })).groups.reduce((sum, g) => sum + g.recordings, 0);
      const listed = async (pipeline: string) => (await client.listRecordings({ query: { pipeline_status: pipeline, limit: 200 } })).data.length;
      assert.deepEqual([await counted('analysed'), await counted('failed')], [await listed('analysed'), await listed('failed')]);
      assert.ok((await counted('analysed')) >= 3, 'the analysed calls');
      assertProblem(await get(`${P}/reports/talk?pipeline_status=done`), 400, 'validation_failed');
    });

    test('every list takes offset: a page of limit rows after offset rows, from the cursor\'s place where there is one', async () => {
      const ids = async (url: string) => (JSON.parse((await hark.request({ method: 'GET', url, key: account.key })).body) as { data: { id?: string; recording_id?: string }[] }).data.map((row) => row.id ?? row.recording_id);
      // Two executions, so their lists have a second row.
      const recording = (await client.listRecordings()).data[0]!.id;
      for (const key of ['offset-1', 'offset-2']) await client.createAnalysisExecution({ path: { scenario_id: scenarioId }, body: { recording_ids: [recording], idempotency_key: key } });
      // Their runs ended first: a result arriving between two reads of a list would move its rows.
      await eventually(async () => ((await client.listAnalysisRuns({ query: { status: 'queued,running' } })).data.length === 0 ? true : null), 120_000, 'the executions\' runs');
      const hook = await client.createWebhook({ body: { url: 'https://hooks.example.com/offset', events: ['execution.completed'] } });
      for (let i = 0; i < 2; i += 1) await client.sendTestEvent({ path: { webhook_id: hook.id } });
      const lists = [
        `${P}/recordings`,
        `${P}/transcription-runs`,
        `${P}/analysis-runs`,
        `${P}/analysis-results`,
        `${P}/executions`,
        `${P}/analysis-scenarios/${scenarioId}/executions`,
        `${P}/search?q=hello`,
        `${P}/webhooks/${hook.id}/deliveries`,
      ];
      await eventually(async () => ((await ids(`${P}/webhooks/${hook.id}/deliveries`)).length >= 2 ? true : null), 30_000, 'two deliveries');
      for (const list of lists) {
        const join = list.includes('?') ? '&' : '?';
        const all = await ids(list);
        assert.ok(all.length >= 2, `${list} has two rows`);
        assert.deepEqual(await ids(`${list}${join}offset=1&limit=1`), [all[1]], list);
        assert.deepEqual(await ids(`${list}${join}offset=${all.length}`), [], list);
      }
      await client.deleteWebhook({ path: { webhook_id: hook.id } });
    });

    test('CSV reports make a formula in metadata inert (OWASP: =, +, -, @, tab, CR get an apostrophe)', async () => {
      const owner = await registerAccount(hark);
      const other = hark.client(owner.key);
      const hostile = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\tTAB', 'plain'];
      for (const team of hostile) await other.upload(speech('Hello.'), { metadata: { team } });
      const csv = await csvOf(`/api/v1/workspaces/${owner.workspaceId}/reports/recordings?group_by=metadata.team`, owner.key);
      assert.equal(csv.statusCode, 200, csv.body);
      // Every status a recording can have is a column, whatever the data holds: the layout does not move.
      assert.equal(csv.body.split('\n')[0], 'metadata.team,recordings,download_pending,downloading,download_retry_wait,download_failed,queued,processing,completed,failed,total_duration_seconds');
      const firstCells = csv.body.trim().split('\n').slice(1).map((line) => line.split(',')[0]!);
      assert.deepEqual(firstCells.sort(), ['"\'=HYPERLINK(""http://evil.example""', "'\tTAB", "'+1+1", "'-2+3", "'@SUM(A1)", 'plain'].sort());
    });
  });
}

test('period keys are whole numbers whose labels equal PostgreSQL\'s date_trunc in UTC, computed or read from the facts', async () => {
  const hark = await startHark({ backend: 'pglite', workers: false });
  try {
    const moments = ['1969-12-28T23:59:59Z', '1970-01-01T00:00:00Z', '2024-02-29T12:00:00Z', '2026-11-22T23:59:59.999Z', '2026-11-23T00:00:00Z', '2026-12-31T23:59:59Z', '2027-01-01T00:00:00Z'];
    const db = hark.runtime.ctx.db;
    // The facts' generated period columns (migration 021), on a table shaped like analysis_facts.
    await sql`CREATE TEMP TABLE facts_periods (LIKE analysis_facts INCLUDING GENERATED INCLUDING DEFAULTS)`.execute(db);
    for (const [i, moment] of moments.entries()) {
      await sql`INSERT INTO facts_periods (analysis_run_id, workspace_id, analysis_scenario_id, recording_id, created_at, recorded_at, metadata, booleans)
        VALUES (${`anl-${i}`}, 'ws', 'sca', 'fl', ${moment}::timestamptz, ${moment}::timestamptz, '{}', '{}')`.execute(db);
    }
    for (const source of ['recordings', 'facts'] as const) {
      const keys = parseGroupBy(['created_at:day', 'created_at:week', 'created_at:month'], source);
      const recordedKeys = parseGroupBy(['recorded_at:day', 'recorded_at:week', 'recorded_at:month'], source);
      const { rows } = await sql<Record<string, unknown>>`
        SELECT ${sql.join(keys.map((k, i) => sql`${k.expression} AS ${sql.ref(`k${i}`)}`))},
          ${sql.join(recordedKeys.map((k, i) => sql`${k.expression} AS ${sql.ref(`r${i}`)}`))},
          ${sql.join(['day', 'week', 'month'].map((p) => sql`to_char(date_trunc(${p}, rec.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS ${sql.ref(`t_${p}`)}`))}
        FROM facts_periods rec ORDER BY rec.created_at`.execute(db);
      assert.equal(rows.length, moments.length);
      for (const [i, row] of rows.entries()) {
        assert.deepEqual(
          keys.map((k, j) => k.label(row[`k${j}`])),
          [row.t_day, row.t_week, row.t_month],
          `${source}: ${moments[i]}`,
        );
        assert.deepEqual(recordedKeys.map((k, j) => k.label(row[`r${j}`])), [row.t_day, row.t_week, row.t_month], `${source}, recorded_at: ${moments[i]}`);
      }
    }
  } finally {
    await hark.destroy();
  }
});
