// An execution whose recordings are deleted while their runs wait: the runs go with them, the
// execution ends once none is left waiting (its execution.completed event is written), and its
// counts still add up to the recordings it was asked for; an execution with nothing to run is complete, and says so, as it is made.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { executionProgress } from '../src/core/events.ts';
import { speech } from './helpers/audio.ts';
import { assertProblem, backends, registerAccount, rejectsWith, startHark, type Hark } from './helpers/harness.ts';

for (const backend of await backends()) {
  describe(`deleting an execution's recordings on ${backend}`, () => {
    let hark: Hark;
    let client: HarkClient;
    let workspaceId: string;
    let key: string;

    // No workers: the runs stay queued, waiting for audio no one prepares.
    before(async () => {
      hark = await startHark({ backend, workers: false });
      const account = await registerAccount(hark);
      workspaceId = account.workspaceId;
      key = account.key;
      client = hark.client(account.key);
    });
    after(() => hark.destroy());

    test('the execution ends when its last waiting recording is deleted, and counts it as deleted', async () => {
      await client.createWebhook({ body: { url: 'https://hooks.example.com/hark', events: ['execution.completed'] } });
      const scenario = (await client.listTranscriptionScenarios()).data[0]!.id;
      const first = (await client.upload(speech('Hello, I would like to cancel.'))).id;
      const second = (await client.upload(speech('Thank you for calling.'))).id;
      const execution = await client.createTranscriptionExecution({ path: { scenario_id: scenario }, body: { recording_ids: [first, second], idempotency_key: 'deleted-calls' } });
      const read = () => client.getTranscriptionExecution({ path: { scenario_id: scenario, execution_id: execution.id } });
      const events = async () => (await hark.runtime.ctx.db.selectFrom('webhook_events').select('type').where('type', '=', 'execution.completed').execute()).length;
      assert.equal((await read()).counts.queued, 2);

      await client.deleteRecording({ path: { recording_id: first } });
      const half = await read();
      assert.deepEqual([half.status, half.counts.queued, half.counts.deleted], ['queued', 1, 1]);
      assert.equal(await events(), 0, 'one run still waits');

      await client.deleteRecording({ path: { recording_id: second } });
      const ended = await read();
      assert.equal(ended.status, 'completed');
      assert.deepEqual(ended.counts, { queued: 0, running: 0, completed: 0, failed: 0, cancelled: 0, deleted: 2 });
      assert.deepEqual(ended.recording_ids, [first, second], 'the recordings it was asked for');
      assert.equal(await events(), 1, 'execution.completed written once');
      const finished = await hark.runtime.ctx.db.selectFrom('executions').select('finished_at').where('id', '=', execution.id).executeTakeFirstOrThrow();
      assert.ok(finished.finished_at, 'marked finished');
    });

    test('an execution with nothing to run is complete as it is made, and says so once', async () => {
      const before = (await hark.runtime.ctx.db.selectFrom('webhook_events').select('id').where('type', '=', 'execution.completed').execute()).length;
      const transcription = (await client.listTranscriptionScenarios()).data[0]!.id;
      // An empty list is a client's mistake, not an execution: a 400 naming the field, nothing made.
      const refused = await rejectsWith(client.createTranscriptionExecution({ path: { scenario_id: transcription }, body: { recording_ids: [], idempotency_key: 'nothing' } }), 400, 'validation_failed');
      assert.equal(refused.problem.errors?.[0]?.path, 'recording_ids');
      // Unknown ids are named by their place in the list.
      const ghosts = ['fl-00000000-0000-7000-8000-000000000001', 'fl-00000000-0000-7000-8000-000000000002'];
      const unknown = await rejectsWith(client.createTranscriptionExecution({ path: { scenario_id: transcription }, body: { recording_ids: ghosts, idempotency_key: 'ghosts' } }), 400, 'validation_failed');
      assert.deepEqual(unknown.problem.errors?.map((e) => e.path), ['recording_ids/0', 'recording_ids/1']);
      // A selection that finds nothing is one: complete as it is made.
      const scoped = await client.createTranscriptionScenario({ body: { name: 'nobody', selection: { metadata: { team: 'no such team' } } } });
      const empty = await client.createTranscriptionExecution({ path: { scenario_id: scoped.id }, body: { idempotency_key: 'nothing' } });
      assert.equal(empty.status, 'completed');
      const row = await hark.runtime.ctx.db.selectFrom('executions').select('finished_at').where('id', '=', empty.id).executeTakeFirstOrThrow();
      assert.ok(row.finished_at, 'finished as it is made');
      // An analysis scenario's selection with no transcripts to analyse: a recording prepared but
      // not transcribed is left out, not counted as deleted.
      const prepared = (await client.upload(speech('Good morning.'))).id;
      await hark.runtime.ctx.db.updateTable('recordings').set({ status: 'completed' }).where('id', '=', prepared).execute();
      const analysis = (await client.listAnalysisScenarios()).data[0]!.id;
      const none = await client.createAnalysisExecution({ path: { scenario_id: analysis }, body: { idempotency_key: 'no-transcripts' } });
      assert.equal(none.status, 'completed');
      assert.deepEqual(none.recording_ids, []);
      assert.equal(none.counts.deleted, 0);
      const again = await client.createAnalysisExecution({ path: { scenario_id: analysis }, body: { idempotency_key: 'no-transcripts' } });
      assert.equal(again.id, none.id, 'a replay');
      const events = await hark.runtime.ctx.db.selectFrom('webhook_events').select('payload').where('type', '=', 'execution.completed').execute();
      const ids = events.slice(before).map((e) => (JSON.parse(e.payload) as { data: { id: string } }).data.id);
      assert.deepEqual(ids.sort(), [empty.id, none.id].sort(), 'one execution.completed each, the replay none');
    });

    // Two workers ending an execution's last two runs at the same moment: each transaction sees the
    // other's run still running until it commits, so without a lock neither would end the execution.
    // Each writes its run twice, as a completion does (marked completed, then its transcript named):
    // the second write of a row the transaction wrote checks the run's execution again (a key-share
    // lock on it), and a lock of the execution for update then waited on the other: a deadlock.
    test('two runs ending at once, in two transactions, end their execution once', { skip: backend === 'pglite' && 'PGlite runs one transaction at a time' }, async () => {
      const { db } = hark.runtime.ctx;
      const scenario = (await client.listTranscriptionScenarios()).data[0]!.id;
      const ids = [(await client.upload(speech('Hello there.'))).id, (await client.upload(speech('Goodbye now.'))).id];
      const execution = await client.createTranscriptionExecution({ path: { scenario_id: scenario }, body: { recording_ids: ids, idempotency_key: 'at-once' } });
      const runs = await db.selectFrom('transcription_runs').select('id').where('execution_id', '=', execution.id).execute();
      assert.equal(runs.length, 2);
      let updated = 0;
      let bothUpdated!: () => void;
      const barrier = new Promise<void>((resolve) => (bothUpdated = resolve));
      await Promise.all(runs.map((run) => db.transaction().execute(async (trx) => {
        await trx.updateTable('transcription_runs').set({ status: 'failed', updated_at: new Date() }).where('id', '=', run.id).execute();
        await trx.updateTable('transcription_runs').set({ error_code: 'engine_error', updated_at: new Date() }).where('id', '=', run.id).execute();
        if (++updated === 2) bothUpdated();
        await barrier;
        await executionProgress(hark.runtime.ctx, trx, 'transcription', workspaceId, execution.id);
      })));
      const row = await db.selectFrom('executions').select('finished_at').where('id', '=', execution.id).executeTakeFirstOrThrow();
      assert.ok(row.finished_at, 'marked finished');
      const events = await db.selectFrom('webhook_events').select('payload').where('type', '=', 'execution.completed').execute();
      assert.equal(events.filter((e) => (JSON.parse(e.payload) as { data: { id: string } }).data.id === execution.id).length, 1, 'execution.completed written once');
    });

    test('a selection is read strictly; a transcription execution takes of it the calls a run can start on', async () => {
      const { db } = hark.runtime.ctx;
      const scenarios = `/api/v1/workspaces/${workspaceId}/transcription-scenarios`;
      const post = (url: string, payload: object, headers: Record<string, string> = {}) => hark.request({ method: 'POST', url, key, payload, headers });
      const firstPath = (problem: Record<string, unknown>) => (problem.errors as { path: string }[])[0]?.path;
      // A misspelt key was dropped, and the selection then took every call.
      assert.deepEqual(assertProblem(await post(scenarios, { name: 'typo', selection: { metdata: { team: 'red' } } }), 400, 'validation_failed').errors, [{ path: 'selection/metdata', message: 'is not a field of this request' }]);
      assert.equal(firstPath(assertProblem(await post(`/api/v1/workspaces/${workspaceId}/analysis-scenarios`, { name: 'typo', options: { base_ur: 'https://llm.example.com' } }), 400, 'validation_failed')), 'options/base_ur');
      // An empty list of statuses stood for "completed" without saying so.
      assert.equal(firstPath(assertProblem(await post(scenarios, { name: 'none', selection: { statuses: [] } }), 400, 'validation_failed')), 'selection/statuses');
      // A transcription selection of statuses no run starts from would find nothing, ever.
      assert.equal(firstPath(assertProblem(await post(scenarios, { name: 'never', selection: { statuses: ['failed', 'download_failed'] } }), 400, 'validation_failed')), 'selection/statuses');
      assert.equal((await db.selectFrom('transcription_scenarios').select('id').where('name', 'in', ['typo', 'none', 'never']).execute()).length, 0, 'nothing created');

      // A failed recording among the statuses chosen is left out, not the execution refused (409).
      const failed = (await client.upload(speech('Hello.'), { metadata: { batch: 'mixed' } })).id;
      const done = (await client.upload(speech('Goodbye.'), { metadata: { batch: 'mixed' } })).id;
      await db.updateTable('recordings').set({ status: 'failed' }).where('id', '=', failed).execute();
      await db.updateTable('recordings').set({ status: 'completed' }).where('id', '=', done).execute();
      const scenario = await client.createTranscriptionScenario({ body: { name: 'Failed or done', selection: { metadata: { batch: 'mixed' }, statuses: ['failed', 'completed', 'completed'] } } });
      assert.deepEqual(scenario.selection.statuses, ['failed', 'completed']);
      const execution = await client.createTranscriptionExecution({ path: { scenario_id: scenario.id }, body: { idempotency_key: 'mixed' } });
      assert.deepEqual(execution.recording_ids, [done]);

      // A key's 255 characters are characters: an emoji is one (in the body and in the header).
      const emoji = (n: number) => '\u{1F600}'.repeat(n);
      const started = `${scenarios}/${scenario.id}/executions`;
      assert.equal((await post(started, { idempotency_key: emoji(255) })).statusCode, 202);
      assertProblem(await post(started, { idempotency_key: emoji(256) }), 400, 'validation_failed');
      assert.equal((await post(started, {}, { 'idempotency-key': Buffer.from('\u00e9'.repeat(255)).toString('latin1') })).statusCode, 202);
      // Over 255 in the header: the header is named.
      assert.equal(firstPath(assertProblem(await post(started, {}, { 'idempotency-key': 'k'.repeat(256) }), 400, 'validation_failed')), 'Idempotency-Key');
    });

    test('a scenario\'s selection matches metadata as the list\'s filters do; a list in it is refused', async () => {
      const { db } = hark.runtime.ctx;
      const metadata = [{ n: 3, team: { name: 'red' } }, { n: '3' }, { n: 4 }, { n: '03', team: { name: 'blue' } }];
      const ids: string[] = [];
      for (const m of metadata) ids.push((await client.upload(speech('Hello.'), { metadata: { ...m, selected: 'yes' } })).id);
      await db.updateTable('recordings').set({ status: 'completed' }).where('id', 'in', ids).execute();
      const scenario = await client.createTranscriptionScenario({ body: { name: 'Selected' } });
      const selected = async (selection: Record<string, unknown>, key: string) => {
        await client.updateTranscriptionScenario({ path: { scenario_id: scenario.id }, body: { selection: { metadata: { ...selection, selected: 'yes' } } } });
        return (await client.createTranscriptionExecution({ path: { scenario_id: scenario.id }, body: { idempotency_key: key } })).recording_ids;
      };
      const listed = async (query: Record<string, string>) => (await client.listRecordings({ query: { ...query, 'metadata.selected': 'yes' } })).data.map((r) => r.id).sort();
      assert.deepEqual((await selected({ n: '3' }, 'text-3')).sort(), [ids[0]!, ids[1]!].sort(), '"3" finds 3 and "3", not "03"');
      assert.deepEqual((await selected({ n: 3 }, 'number-3')).sort(), await listed({ 'metadata.n': '3' }));
      assert.deepEqual(await selected({ team: { name: 'red' } }, 'nested'), [ids[0]]);
      assert.deepEqual(await selected({ team: { name: 'red' } }, 'nested'), await listed({ 'metadata.team.name': 'red' }));
      const refused = await hark.request({ method: 'PATCH', url: `/api/v1/workspaces/${workspaceId}/transcription-scenarios/${scenario.id}`, key, payload: { selection: { metadata: { tags: ['a'] } } } });
      assert.deepEqual(assertProblem(refused, 400, 'validation_failed').errors, [{ path: 'selection/metadata/tags', message: 'must be a string, number, boolean or null (as the list\'s metadata filters take), not a list' }]);
    });
  });
}
