// Applies the numbered SQL files of db/migrations once each, in order, with Kysely's Migrator:
// it records them in `kysely_migration` and, on PostgreSQL, runs them in one transaction under an
// advisory lock, so concurrent processes on one server apply each file once.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database.ts';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Each `NNN-name.sql` file is one migration named `NNN-name`, run as one multi-statement script. */
class SqlFileProvider implements MigrationProvider {
  /** Files an older ledger had applied: recorded now, not run again. */
  readonly adopted = new Set<string>();

  constructor(private readonly onStart: (name: string) => void = () => {}) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await fs.readdir(dir)).filter((f) => /^\d+-[a-z0-9-]+\.sql$/.test(f));
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      const text = await fs.readFile(path.join(dir, file), 'utf8');
      const name = file.slice(0, -'.sql'.length);
      migrations[name] = {
        up: async (db) => {
          if (await appliedByLegacyLedger(db, file)) {
            this.adopted.add(name);
            return;
          }
          this.onStart(name);
          await sql.raw(text).execute(db);
        },
      };
    }
    return migrations;
  }
}

/**
 * Databases migrated before Kysely's Migrator recorded their files in `hark_migrations`; such a
 * file is taken as applied. A later migration drops that table once every file is recorded anew.
 */
async function appliedByLegacyLedger(db: Kysely<unknown>, file: string): Promise<boolean> {
  const ledger = await sql<{ exists: boolean }>`SELECT to_regclass('hark_migrations') IS NOT NULL AS exists`.execute(db);
  if (!ledger.rows[0]?.exists) return false;
  const row = await sql`SELECT 1 FROM hark_migrations WHERE name = ${file}`.execute(db);
  return row.rows.length > 0;
}

/** A file about to run: its name, its place among the files this call runs, and their number. */
export interface MigrationStep {
  name: string;
  number: number;
  of: number;
}

/**
 * Migrates to the latest version and returns the names of the files run now. The ledger lives in
 * the database's own schema (Kysely would otherwise take a ledger in any schema for its own).
 * `onStep` hears of each file as it starts (the command line shows it as progress).
 */
export async function migrate(database: Pick<Database, 'db' | 'schema'>, onStep?: (step: MigrationStep) => void): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    let started = 0;
    let pending = 0;
    const provider = new SqlFileProvider((name) => onStep?.({ name, number: ++started, of: pending }));
    const migrator = new Migrator({ db: database.db, provider, migrationTableSchema: database.schema });
    if (onStep) pending = (await migrator.getMigrations()).filter((m) => !m.executedAt).length;
    const { error, results } = await migrator.migrateToLatest();
    // Before it takes its lock, the Migrator lists the tables of every schema on the server; a
    // schema another process drops at that moment fails the listing ("relation … does not
    // exist"). Nothing was applied then (the files run in one transaction): try again.
    if (error && attempt < 3 && /does not exist/.test(String((error as Error).message ?? error)) && !results?.some((r) => r.status === 'Success')) {
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      continue;
    }
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? [])
      .filter((r) => r.status === 'Success' && !provider.adopted.has(r.migrationName))
      .map((r) => r.migrationName);
  }
}
