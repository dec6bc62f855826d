// The one database seam: embedded PGlite under HARK_DATA_DIR/pg, a private PostgreSQL cluster under
// HARK_DATA_DIR/postgres (HARK_EMBEDDED_DB=postgres), or a PostgreSQL server by URL.
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isAlive } from '../storage/process-alive.ts';
import { CompiledQuery, Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Config } from '../../config.ts';
import { Mutex } from '../mutex.ts';
import { pgliteDialect } from './pglite-dialect.ts';
import { privateClusterProblem, startPrivateCluster } from './private-cluster.ts';
import type { Tables } from './tables.ts';

export type Db = Kysely<Tables>;
export type Trx = Transaction<Tables>;

/** What pg-boss calls for every statement it runs. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  /** PGlite or the private cluster: one Hark process at a time (what it finds running at start was left by one that died). */
  embedded: boolean;
  /** Why HARK_EMBEDDED_DB=auto chose PGlite, to be logged. */
  note?: string;
  db: Db;
  sql: SqlExecutor;
  schema: string;
  ping(): Promise<void>;
  /**
   * Calls `onChange` with the payload of each NOTIFY on `channel` from any process of the
   * cluster, and without one whenever notifications may have been missed (a lost connection): the
   * caller then forgets what it cached. The embedded store has one process: nothing to listen to.
   */
  listen(channel: string, onChange: (payload?: string) => void): Promise<void>;
  close(): Promise<void>;
}

// int8 (counts, sums) as numbers: every value Hark counts fits comfortably.
pg.types.setTypeParser(20, (value) => Number(value));
pg.types.setTypeParser(1700, (value) => Number(value));

/**
 * The embedded store to open. `auto` keeps a folder PGlite already holds on PGlite, and otherwise
 * runs the private cluster when Debian's PostgreSQL can run here (its binaries installed, and, for
 * root, a `postgres` user that can reach the folder), else PGlite with the reason.
 */
export function embeddedStore(config: Config): { kind: 'pglite' | 'postgres'; note?: string } {
  if (config.embeddedDb !== 'auto') return { kind: config.embeddedDb };
  // A store that already holds data is kept, whichever it is (the cluster's first, should both).
  if (existsSync(path.join(config.dataDir, 'postgres', 'data', 'PG_VERSION'))) return { kind: 'postgres' };
  const pglite = path.join(config.dataDir, 'pg');
  if (existsSync(path.join(pglite, 'PG_VERSION'))) return { kind: 'pglite', note: `${pglite} holds a PGlite store: kept on PGlite` };
  const problem = privateClusterProblem(config.dataDir);
  return problem ? { kind: 'pglite', note: `PGlite instead of a private PostgreSQL cluster: ${problem}` } : { kind: 'postgres' };
}

export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.databaseSchema);
  const store = embeddedStore(config);
  if (store.kind === 'pglite') return { ...(await openPglite(config)), ...(store.note ? { note: store.note } : {}) };
  // One process at a time, as with PGlite: a second one (an admin command beside a running server)
  // would stop the cluster under the first when it exits.
  const dir = path.join(config.dataDir, 'postgres');
  await fs.mkdir(dir, { recursive: true });
  const unlock = await lockDataDir(dir);
  const cluster = await startPrivateCluster(config.dataDir).catch(async (error: unknown) => {
    await unlock();
    throw error;
  });
  const database = await openPostgres(cluster.url, config.databaseSchema).catch(async (error: unknown) => {
    await cluster.stop();
    await unlock();
    throw error;
  });
  return {
    ...database,
    embedded: true,
    close: async () => {
      await database.close();
      await cluster.stop();
      await unlock();
    },
  };
}

/**
 * PGlite's WebAssembly compiled and its file bundle read once per process: a process that opens
 * several stores (the tests, a migration then the service) saves a second of CPU on each.
 */
let pgliteFiles: Promise<{ pgliteWasmModule: WebAssembly.Module; fsBundle: Blob }> | null = null;
function pgliteAssets() {
  return (pgliteFiles ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasm, data] = await Promise.all([fs.readFile(path.join(dist, 'pglite.wasm')), fs.readFile(path.join(dist, 'pglite.data'))]);
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })().catch((error: unknown) => {
    pgliteFiles = null;
    throw error;
  }));
}

async function openPglite(config: Config): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const dir = path.join(config.dataDir, 'pg');
  await fs.mkdir(dir, { recursive: true });
  const unlock = await lockDataDir(dir);
  const pglite = await pgliteAssets().then((assets) => PGlite.create(dir, assets)).catch(async (error: unknown) => {
    await unlock();
    throw error;
  });
  const mutex = new Mutex();
  const db = new Kysely<Tables>({ dialect: pgliteDialect(pglite, mutex) });
  const schema = config.databaseSchema;
  await pglite.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema}, public;`);
  return {
    kind: 'pglite',
    embedded: true,
    db,
    schema,
    sql: {
      executeSql: (text, values) =>
        mutex.runExclusive(async () => {
          try {
            if (values && values.length > 0) return await pglite.query(text, values);
            const results = await pglite.exec(text);
            return { rows: results.at(-1)?.rows ?? [] };
          } catch (error) {
            // A failed "BEGIN; …; COMMIT;" script would leave the one session inside a transaction.
            if (pglite.isInTransaction()) await pglite.exec('ROLLBACK');
            throw error;
          }
        }),
    },
    ping: async () => {
      await mutex.runExclusive(() => pglite.query('SELECT 1'));
    },
    listen: async () => {},
    close: async () => {
      await db.destroy();
      await mutex.runExclusive(() => pglite.close());
      await unlock();
    },
  };
}

/**
 * PGlite takes no lock of its own: two processes on one directory would corrupt it. A pid file
 * beside it refuses a second one; a file left by a dead process is taken over.
 */
async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const lock = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(lock, String(process.pid), { flag: 'wx' });
      return () => fs.rm(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(await fs.readFile(lock, 'utf8').catch(() => '0'));
      if (pid && pid !== process.pid && isAlive(pid)) throw new Error(`${dir} is in use by process ${pid}; stop it or use DATABASE_URL`);
      await fs.rm(lock, { force: true });
    }
  }
  throw new Error(`could not lock ${dir}`);
}


async function openPostgres(url: string, schema: string): Promise<Database> {
  const bootstrap = new pg.Client({ connectionString: url });
  await bootstrap.connect();
  try {
    await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } finally {
    await bootstrap.end();
  }
  // A server that does not answer fails a request in seconds (a 503 to the client), not at the client's timeout.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000, options: `-c search_path=${schema},public` });
  pool.on('error', () => {}); // an idle client dropped by the server is replaced on next use
  // A connection lost while a client is checked out fails its query (a 503 to the caller); pg also
  // emits it as an 'error' event then, which without a listener would end the process.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  const listener = new Listener(url);
  return {
    kind: 'postgres',
    embedded: false,
    db,
    schema,
    sql: { executeSql: (text, values) => pool.query(text, values) },
    ping: async () => {
      await pool.query('SELECT 1');
    },
    listen: (channel, onChange) => listener.listen(channel, onChange),
    close: async () => {
      await listener.close();
      await db.destroy();
    },
  };
}

/** The executor pg-boss uses to send a job inside a Kysely transaction. */
export function transactionExecutor(trx: Trx): SqlExecutor {
  return {
    executeSql: async (text, values) => {
      const result = await trx.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows as unknown[] };
    },
  };
}

/** One connection per process holding LISTENs, reconnected after a loss (see Database.listen). */
class Listener {
  private client: pg.Client | null = null;
  private readonly channels = new Map<string, (payload?: string) => void>();
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly url: string) {}

  async listen(channel: string, onChange: (payload?: string) => void): Promise<void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel ${channel}`);
    this.channels.set(channel, onChange);
    if (this.client) await this.client.query(`LISTEN ${channel}`);
    else await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      for (const onChange of this.channels.values()) onChange();
      if (!this.closed) this.retry = setTimeout(() => void this.connect().catch(() => lost()), 1000);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => this.channels.get(message.channel)?.(message.payload));
    this.client = client;
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      lost();
      throw error;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
