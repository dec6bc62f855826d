// Starts the roles of one process: database and migrations, queue, workers, HTTP.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Context } from './context.ts';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { openDatabase, type Database } from './platform/db/database.ts';
import type { Tables } from './platform/db/tables.ts';
import { migrate } from './platform/db/migrate.ts';
import { Metrics } from './platform/observability/metrics.ts';
import { buildApp } from './http/app.ts';
import { jobHandlers, runKinds } from './wiring/job-handlers.ts';
import { recoverStaleRuns } from './core/runs/recover.ts';
import { handBackActive } from './core/runs/active-runs.ts';
import { forgetCachedKeys, KEYS_CHANNEL } from './features/access/api-keys.ts';
import { Queue } from './platform/queue/queue.ts';
import { createLogger } from './logger.ts';
import { onEncoderFailure } from './engines/text/sentence-encoder.ts';
import { openBlobStore } from './platform/storage/open-blob-store.ts';
import { automation } from './wiring/automation.ts';
import { recoverStalePreparations } from './features/recordings/heartbeat.ts';
import { heardSettled, SETTLED_CHANNEL } from './core/settled.ts';

/** A scratch file nobody wrote for an hour belongs to a process that died. */
const STALE_SCRATCH_MS = 3600_000;
const SCRATCH_SWEEP_MS = 15 * 60_000;

export interface Runtime {
  ctx: Context;
  app: FastifyInstance | null;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  http: boolean;
  workers: boolean;
  log?: Logger;
  /** Lets tests add routes before the app is ready. */
  beforeReady?: (app: FastifyInstance) => void;
}

export async function startRuntime(config: Config, options: RuntimeOptions): Promise<Runtime> {
  const log = options.log ?? createLogger(config.logLevel);
  const database = await openDatabase(config);
  if (database.note) log.warn(database.note);
  try {
    await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  const queue = new Queue(database, config, (error) => log.error({ err: error }, 'queue error'));
  const blobs = openBlobStore(config);
  const deadScratch = await blobs.init();
  if (deadScratch > 0) log.warn({ folders: deadScratch }, 'removed the scratch files of processes of this host that stopped');
  const ctx = { config, database, db: database.db, queue, log, blobs, metrics: new Metrics(database.db, () => queue.depth()) } as Context;
  ctx.pipeline = automation(ctx);
  onEncoderFailure((error) => log.warn({ err: error }, 'sentence encoder unavailable: chapters are left whole, similar_to categories wait, and yes answers from examples are uncertain until it loads'));
  const handlers = jobHandlers(ctx);
  await queue.start(handlers);
  if (options.workers) {
    const recovered = await queue.recoverOrphans();
    // One process owns the embedded store: whatever it finds running belonged to one that died.
    const orphanedRuns = database.embedded ? (await recoverStaleRuns(ctx, runKinds, 0)) + (await recoverStalePreparations(ctx, 0)) : 0;
    if (database.embedded) await blobs.removeStaleTemps(0);
    if (recovered + orphanedRuns > 0) log.info({ recovered, orphanedRuns }, 'requeued work left active by a stopped process');
    for (const handler of handlers) await queue.work(handler);
    // Sweeps run once per cluster on pg-boss schedules; an expiry sweep also runs at start.
    await queue.schedule('expire-audio', everyMinutes(Math.ceil(config.expireIntervalSeconds / 60)));
    await queue.schedule('recover-runs', '* * * * *');
    await queue.send('expire-audio', {});
  }

  // Scratch files are local to each host: every process sweeps what a stopped one left behind.
  const sweep = setInterval(() => {
    blobs.removeStaleTemps(STALE_SCRATCH_MS).then(
      (orphans) => orphans > 0 && log.warn({ orphans }, 'removed scratch files left by a stopped process'),
      (error: unknown) => log.warn({ err: error }, 'scratch sweep failed'),
    );
  }, SCRATCH_SWEEP_MS);
  sweep.unref();

  let app: FastifyInstance | null = null;
  if (options.http) {
    // A key revoked through another API process is forgotten here at once.
    await database.listen(KEYS_CHANNEL, () => forgetCachedKeys(ctx)).catch((error: unknown) => log.warn({ err: error }, 'cannot listen for key revocations: cached keys expire after 30 s'));
    // Runs that settle in another process wake this one's synchronous waiters (the OpenAI route).
    await database.listen(SETTLED_CHANNEL, heardSettled).catch((error: unknown) => log.warn({ err: error }, 'cannot listen for settled runs: synchronous waits look again every 2 s'));
    app = await buildApp(ctx, {
      readiness: async () => ({
        database: await database.ping().then(
          () => 'ok',
          () => 'unavailable',
        ),
        storage: await blobs.ping().then(
          () => 'ok',
          () => 'unavailable',
        ),
      }),
    });
    options.beforeReady?.(app);
    await app.ready();
  }

  // Graceful: the API stops accepting and finishes requests in flight, workers stop taking jobs
  // and let running work finish, both within the grace; then running runs are given back to the
  // queue and connections still open are closed.
  const graceMs = config.shutdownGraceSeconds * 1000;
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      clearInterval(sweep);
      await Promise.all([
        app ? closeWithin(app, graceMs) : null,
        queue.stop(graceMs, () => {
          const given = handBackActive();
          if (given > 0) log.warn({ runs: given }, 'grace over: giving running runs back to the queue');
        }),
      ]);
      await blobs.close().catch((error: unknown) => log.warn({ err: error }, 'the scratch folder could not be removed: the next start on this host removes it'));
      await database.close();
    })());
  return { ctx, app, close };
}

/** Closes the HTTP server: no new connections, requests in flight finish; after `graceMs` the rest are cut. */
async function closeWithin(app: FastifyInstance, graceMs: number): Promise<void> {
  const timer = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}

/** A cron expression for "every n minutes" (hourly and daily beyond an hour). */
export function everyMinutes(n: number): string {
  if (n <= 1) return '* * * * *';
  if (n < 60) return `*/${n} * * * *`;
  return n < 1440 ? `0 */${Math.min(23, Math.round(n / 60))} * * *` : '0 0 * * *';
}

/**
 * The HTTP application with every route but nothing behind it, for the OpenAPI document: a
 * database that compiles queries but is never connected, no queue, no store.
 */
export async function buildDocumentApp(config: Config): Promise<FastifyInstance> {
  const db = new Kysely<Tables>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  const unavailable = async (): Promise<never> => {
    throw new Error('the OpenAPI document is built without a database');
  };
  const database: Database = { kind: 'pglite', embedded: true, db, sql: { executeSql: unavailable }, schema: 'public', ping: unavailable, listen: async () => {}, close: async () => db.destroy() };
  const log = createLogger(config.logLevel);
  const ctx = { config, database, db, log, queue: null, blobs: null, metrics: new Metrics(db) } as unknown as Context;
  const app = await buildApp(ctx, { readiness: async () => ({}) });
  await app.ready();
  return app;
}
