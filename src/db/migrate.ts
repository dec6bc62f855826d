// Applies the numbered SQL files of db/migrations once each, in order. Each file runs inside one
// DO block holding an advisory lock, so concurrent processes on one PostgreSQL apply it once.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlExecutor } from './database.ts';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_ID = 7_413_001;

export async function migrate(sql: SqlExecutor): Promise<string[]> {
  await sql.executeSql(
    'CREATE TABLE IF NOT EXISTS hark_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const files = (await fs.readdir(dir)).filter((f) => /^\d+-[a-z0-9-]+\.sql$/.test(f)).sort();
  const done = new Set((await sql.executeSql('SELECT name FROM hark_migrations', [])).rows.map((r) => (r as { name: string }).name));
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const text = await fs.readFile(path.join(dir, file), 'utf8');
    if (text.includes('$hark_sql$')) throw new Error(`${file} must not contain $hark_sql$`);
    await sql.executeSql(`
      DO $hark$ BEGIN
        PERFORM pg_advisory_xact_lock(${LOCK_ID});
        IF NOT EXISTS (SELECT 1 FROM hark_migrations WHERE name = '${file}') THEN
          EXECUTE $hark_sql$${text}$hark_sql$;
          INSERT INTO hark_migrations (name) VALUES ('${file}');
        END IF;
      END $hark$`);
    applied.push(file);
  }
  return applied;
}
