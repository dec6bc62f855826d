// Batched SQL: reads by id that arrive together go to the database as one query, each caller
// getting its own row and only in its own workspace (inside a transaction a read sees what the
// transaction wrote); many runs are inserted in one statement with every value where it belongs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql, type KyselyPlugin } from 'kysely';
import { openDatabase, type Database, type Db, type Trx } from '../src/platform/db/database.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { rowById } from '../src/platform/db/rows-by-id.ts';
import { recordingWithPipeline } from '../src/core/recordings/pipeline-status.ts';
import { insertRuns } from '../src/core/runs/run-store.ts';
import { backends, dropStore, testConfig } from './helpers/harness.ts';

interface Counted {
  db: Db;
  selects: () => number;
}

/** The database seen through a plugin that counts the SELECT statements sent. */
function counting(db: Db): Counted {
  let selects = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      if (args.node.kind === 'SelectQueryNode' || (args.node.kind === 'RawNode' && /^\s*select/i.test(args.node.sqlFragments[0] ?? ''))) selects += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), selects: () => selects };
}

async function insertRecording(db: Db | Trx, id: string, workspaceId: string): Promise<void> {
  await sql`INSERT INTO recordings (id, workspace_id, status, filename, retention_days, expires_at, source)
    VALUES (${id}, ${workspaceId}, 'completed', ${`${id}.wav`}, 30, now() + interval '30 days', 'upload')`.execute(db);
}

for (const backend of await backends()) {
  describe(`reads by id, batched (${backend})`, () => {
    let database: Database;
    let config: Awaited<ReturnType<typeof testConfig>>;
    const ids = Array.from({ length: 20 }, (_, i) => `rec_batch${String(i).padStart(2, '0')}`);

    before(async () => {
      config = await testConfig(backend);
      database = await openDatabase(config);
      await migrate(database);
      for (const id of ['ws_a', 'ws_b']) {
        await sql`INSERT INTO workspaces (id, name, created_at, trial_ends_at) VALUES (${id}, ${id}, now(), now() + interval '7 days')`.execute(database.db);
      }
      for (const [i, id] of ids.entries()) await insertRecording(database.db, id, i < 10 ? 'ws_a' : 'ws_b');
    });
    after(async () => {
      await database.close();
      await dropStore(config);
    });

    test('twenty cards read together, their rows and pipelines, are one query, each in its own workspace', async () => {
      const { db, selects } = counting(database.db);
      const cards = await Promise.all(ids.map((id, i) => recordingWithPipeline(db, i < 10 ? 'ws_a' : 'ws_b', id)));
      assert.equal(selects(), 1);
      assert.deepEqual(cards.map((c) => [c?.id, c?.pipeline_now.status]), ids.map((id) => [id, 'audio_ready']), 'prepared audio, no run yet');
      assert.equal(await recordingWithPipeline(db, 'ws_b', ids[0]!), undefined, 'another workspace\'s recording is not read');
    });

    test('twenty reads made together are one query, each answered with its own row', async () => {
      const { db, selects } = counting(database.db);
      const rows = await Promise.all(ids.map((id, i) => rowById<{ id: string; workspace_id: string; filename: string }>(db, 'recordings', i < 10 ? 'ws_a' : 'ws_b', id)));
      assert.equal(selects(), 1);
      assert.deepEqual(rows.map((row) => row?.id), ids);
      assert.deepEqual(rows.map((row) => row?.filename), ids.map((id) => `${id}.wav`));
    });

    test('a row is not given to a read from another workspace, even in the same query', async () => {
      const { db, selects } = counting(database.db);
      const [own, other, unknown] = await Promise.all([
        rowById(db, 'recordings', 'ws_a', ids[0]!),
        rowById(db, 'recordings', 'ws_b', ids[0]!),
        rowById(db, 'recordings', 'ws_a', 'rec_nothere'),
      ]);
      assert.equal(selects(), 1);
      assert.equal(own?.id, ids[0]);
      assert.equal(other, undefined);
      assert.equal(unknown, undefined);
    });

    test('reads made one after another are answered one by one', async () => {
      const { db, selects } = counting(database.db);
      for (const id of ids.slice(0, 3)) assert.equal((await rowById(db, 'recordings', 'ws_a', id))?.id, id);
      assert.equal(selects(), 3);
    });

    test('inside a transaction a read sees what the transaction wrote', async () => {
      await database.db
        .transaction()
        .execute(async (trx) => {
          await insertRecording(trx, 'rec_intrx', 'ws_a');
          assert.equal((await rowById(trx, 'recordings', 'ws_a', 'rec_intrx'))?.id, 'rec_intrx');
          throw new Error('roll back');
        })
        .catch((error: Error) => assert.equal(error.message, 'roll back'));
      assert.equal(await rowById(database.db, 'recordings', 'ws_a', 'rec_intrx'), undefined);
    });

    test('many runs in one statement: shared values once, varying ones per row, nulls kept', async () => {
      const snapshot = { engine: 'pocketsphinx', model: 'en-us', retry: null, options: { redact: ['email'] } };
      const at = new Date('2026-01-02T03:04:05.678Z');
      const rows = ids.slice(0, 3).map((recordingId, i) => ({
        id: `trn_batch${i}`,
        workspace_id: 'ws_a',
        recording_id: recordingId,
        execution_id: null,
        retry_of: i === 1 ? 'trn_earlier' : null,
        status: 'queued',
        engine: 'pocketsphinx',
        model: 'en-us',
        scenario: JSON.stringify(snapshot),
        updated_at: new Date(at.getTime() + i),
        // Null in the first row, a time in another; null in every row.
        started_at: i === 2 ? at : null,
        completed_at: null,
        transcription_scenario_id: 'tsc_one',
      }));
      const single = { ...rows[0]!, id: 'trn_single', recording_id: ids[3]! };
      await database.db.transaction().execute(async (trx) => {
        assert.deepEqual((await insertRuns(trx, 'transcription_runs', rows)).sort(), ['trn_batch0', 'trn_batch1', 'trn_batch2']);
        assert.deepEqual(await insertRuns(trx, 'transcription_runs', [single]), ['trn_single']);
        assert.deepEqual(await insertRuns(trx, 'transcription_runs', []), []);
      });
      const stored = await database.db.selectFrom('transcription_runs').selectAll().where('id', 'like', 'trn_%').orderBy('id').execute();
      assert.deepEqual(stored.map((r) => [r.id, r.recording_id, r.retry_of, r.transcription_scenario_id, r.status]), [
        ['trn_batch0', ids[0], null, 'tsc_one', 'queued'],
        ['trn_batch1', ids[1], 'trn_earlier', 'tsc_one', 'queued'],
        ['trn_batch2', ids[2], null, 'tsc_one', 'queued'],
        ['trn_single', ids[3], null, 'tsc_one', 'queued'],
      ]);
      for (const row of stored) assert.deepEqual(row.scenario, snapshot);
      assert.deepEqual(stored.map((r) => [r.started_at?.toISOString() ?? null, r.completed_at]), [[null, null], [null, null], [at.toISOString(), null], [null, null]]);
      assert.deepEqual(stored.slice(0, 3).map((r) => r.updated_at.toISOString()), [0, 1, 2].map((i) => new Date(at.getTime() + i).toISOString()));
    });

    test('reads inside a transaction are not batched: each goes to the transaction itself', async () => {
      const { db, selects } = counting(database.db);
      await db.transaction().execute(async (trx) => {
        const rows = await Promise.all(ids.slice(0, 3).map((id) => rowById(trx, 'recordings', 'ws_a', id)));
        assert.deepEqual(rows.map((row) => row?.id), ids.slice(0, 3));
      });
      assert.equal(selects(), 3);
    });

    test('a failed query fails every read it carried, and the next reads still work', async () => {
      const { db } = counting(database.db);
      const results = await Promise.allSettled([rowById(db, 'no_such_table', 'ws_a', 'x'), rowById(db, 'no_such_table', 'ws_a', 'y')]);
      assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected']);
      assert.equal((await rowById(db, 'recordings', 'ws_a', ids[1]!))?.id, ids[1]);
    });
  });
}
