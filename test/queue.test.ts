import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openDatabase, type Database } from '../src/platform/db/database.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { Queue, type JobHandler } from '../src/platform/queue/queue.ts';
import { dropStore, testConfig } from './helpers/harness.ts';

const settings = { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 };

test('a stop returns only once the queue has recorded the completion of the jobs it ran', async () => {
  const config = await testConfig('pglite');
  after(() => dropStore(config));
  const real = await openDatabase(config);
  await migrate(real);
  // A database slow to write completions: pg-boss does not await them, the queue must.
  const slow: Database = {
    ...real,
    sql: {
      executeSql: async (text, values) => {
        if (/SET completed_on = now\(\)/.test(text)) await new Promise((resolve) => setTimeout(resolve, 600));
        return real.sql.executeSql(text, values);
      },
    },
  };
  const queue = new Queue(slow, config, (error) => assert.fail(error));
  let ran!: () => void;
  const done = new Promise<void>((resolve) => (ran = resolve));
  const handler: JobHandler<'expire-audio'> = { name: 'expire-audio', settings, concurrency: 1, handle: async () => ran() };
  await queue.start([handler]);
  await queue.work(handler);
  await queue.send('expire-audio', {});
  await done;
  await queue.stop(5000);

  const { rows } = await real.sql.executeSql(`SELECT state::text AS state FROM ${queue.schema}.job WHERE name = 'expire-audio'`);
  await real.close();
  assert.deepEqual(rows, [{ state: 'completed' }]);
});
