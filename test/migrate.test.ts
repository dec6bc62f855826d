// Migrations: applied once each on a fresh store, adopted from the older ledger, and applied once
// when several processes start together on one PostgreSQL.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/platform/db/database.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { backends, dropStore, testConfig, type Backend } from './helpers/harness.ts';

const migrationsDir = path.join(import.meta.dirname, '../src/platform/db/migrations');

async function freshStore(backend: Backend): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  const config = await testConfig(backend);
  // testConfig copies a migrated template for PGlite; start from an empty folder instead.
  await fs.rm(path.join(config.dataDir, 'pg'), { recursive: true, force: true });
  const database = await openDatabase(config);
  return {
    database,
    cleanup: async () => {
      await database.close();
      await dropStore(config);
    },
  };
}

async function tableExists(database: Database, name: string): Promise<boolean> {
  const result = await sql<{ found: boolean }>`SELECT to_regclass(${name}) IS NOT NULL AS found`.execute(database.db);
  return result.rows[0]?.found ?? false;
}

for (const backend of await backends()) {
  describe(`migrations (${backend})`, () => {
    test('a fresh store gets every file once; a second run applies nothing', async () => {
      const { database, cleanup } = await freshStore(backend);
      try {
        const files = (await fs.readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
        assert.deepEqual(await migrate(database), files.map((f) => f.replace(/\.sql$/, '')));
        assert.deepEqual(await migrate(database), []);
        assert.equal(await tableExists(database, 'recordings'), true);
        assert.equal(await tableExists(database, 'hark_migrations'), false);
      } finally {
        await cleanup();
      }
    });

    test('a store migrated by the older ledger is adopted without running its files again', async () => {
      const { database, cleanup } = await freshStore(backend);
      try {
        const files = (await fs.readdir(migrationsDir)).filter((f) => /^00\d-/.test(f)).sort();
        await sql`CREATE TABLE hark_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(database.db);
        for (const file of files) {
          await sql.raw(await fs.readFile(path.join(migrationsDir, file), 'utf8')).execute(database.db);
          await sql`INSERT INTO hark_migrations (name) VALUES (${file})`.execute(database.db);
        }
        await sql`INSERT INTO workspaces (id, name, created_at, trial_ends_at) VALUES ('ws_old', 'Old', now(), now())`.execute(database.db);

        // Running 001-accounts again would fail (its tables exist): adoption must skip it.
        const later = (await fs.readdir(migrationsDir)).filter((f) => f.endsWith('.sql') && !files.includes(f)).sort();
        assert.deepEqual(await migrate(database), later.map((f) => f.replace(/\.sql$/, '')));
        assert.equal(later[0], '010-migration-ledger.sql');
        assert.equal(await tableExists(database, 'hark_migrations'), false);
        const kept = await sql<{ name: string }>`SELECT name FROM workspaces WHERE id = 'ws_old'`.execute(database.db);
        assert.equal(kept.rows[0]?.name, 'Old');
      } finally {
        await cleanup();
      }
    });

    if (backend === 'postgres') {
      test('each schema on one server keeps its own ledger', async () => {
        const one = await freshStore(backend);
        const two = await freshStore(backend);
        try {
          const all = (await fs.readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).length;
          assert.equal((await migrate(one.database)).length, all);
          assert.equal((await migrate(two.database)).length, all, 'the other schema\'s ledger is not this one\'s');
        } finally {
          await one.cleanup();
          await two.cleanup();
        }
      });

      test('processes starting together apply each file once', async () => {
        const first = await freshStore(backend);
        const config = await testConfig(backend, { HARK_DB_SCHEMA: first.database.schema });
        const second = await openDatabase(config);
        try {
          const [a, b] = await Promise.all([migrate(first.database), migrate(second)]);
          const all = [...a, ...b].sort();
          assert.equal(new Set(all).size, all.length, 'no file applied twice');
          assert.equal(all.length, (await fs.readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).length);
        } finally {
          await second.close();
          await fs.rm(config.dataDir, { recursive: true, force: true });
          await first.cleanup();
        }
      });
    }
  });
}
