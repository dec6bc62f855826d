// The job queue: pg-boss on Hark's own database connection. Jobs carry ids, never audio; every
// handler is idempotent because a job may run twice (a crash after the work, before completion).
import PgBoss from 'pg-boss';
import type { Config } from '../../config.ts';
import { transactionExecutor, type Database, type SqlExecutor, type Trx } from '../db/database.ts';
import type { JobName, JobPayloads } from './job-map.ts';

export type { JobName, JobPayloads } from './job-map.ts';

export interface QueueSettings {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
}

/** The handler of one job name: it receives that name's payload (job-map.ts). */
export interface JobHandler<N extends JobName = JobName> {
  name: N;
  settings: QueueSettings;
  concurrency: number;
  handle(data: JobPayloads[N], job: { id: string; retryCount: number }): Promise<void>;
}

/** Jobs of one queue in one state; `oldest`: seconds the oldest waiting one has waited. */
export interface QueueDepth {
  name: string;
  state: string;
  count: number;
  oldest: number | null;
}

export interface SendOptions {
  trx?: Trx;
  startAfterSeconds?: number;
  singletonKey?: string;
}

/** How long handlers have to give their work back once a shutdown's grace is over. */
const HAND_BACK_MS = 10_000;

export class Queue {
  private readonly boss: PgBoss;
  private started = false;
  /** Set when stop() has finished: pg-boss's statements are not run any more. */
  private stopped = false;
  private readonly workers = new Map<string, string[]>();
  /** Handlers running now in this process. */
  private inFlight = 0;
  /**
   * pg-boss's statements still running. It completes a job without awaiting the statement, so a
   * stop waits for these before the connection pool may close.
   */
  private readonly statements = new Set<Promise<unknown>>();

  /** The schema of pg-boss's tables, beside Hark's own. */
  readonly schema: string;

  constructor(
    private readonly database: Database,
    private readonly config: Config,
    private readonly onError: (error: Error) => void,
  ) {
    this.schema = database.schema === 'public' ? 'pgboss' : `${database.schema}_boss`;
    const tracked: SqlExecutor = {
      executeSql: (text, values) => {
        // Once stopped, a statement a timer pg-boss left behind never completes: a closed pool's
        // refusal would reject where nobody listens, and an empty answer breaks the commands that
        // read a count from it (fail, complete). Nothing waits on it; it holds no resource.
        if (this.stopped) return new Promise<never>(() => {});
        const statement = database.sql.executeSql(text, values);
        const forget = (): void => void this.statements.delete(settled);
        const settled: Promise<void> = statement.then(forget, forget);
        this.statements.add(settled);
        return statement;
      },
    };
    this.boss = new PgBoss({
      db: tracked,
      schema: this.schema,
      maintenanceIntervalSeconds: config.queueMaintenanceSeconds,
      monitorStateIntervalSeconds: Math.max(config.queueMaintenanceSeconds, 60),
      archiveCompletedAfterSeconds: 3600,
      deleteAfterDays: 7,
    });
    this.boss.on('error', (error: Error) => this.onError(error));
  }

  async start(names: { name: JobName; settings: QueueSettings }[]): Promise<void> {
    this.stopped = false;
    await this.boss.start();
    this.started = true;
    for (const { name, settings } of names) {
      const existing = await this.boss.getQueue(name);
      if (existing) await this.boss.updateQueue(name, { name, ...settings });
      else await this.boss.createQueue(name, { name, ...settings });
    }
  }

  /**
   * The embedded store has exactly one process, so a job still marked active at start belonged to
   * a process that died: hand it back now instead of waiting for its expiry.
   */
  async recoverOrphans(): Promise<number> {
    if (!this.database.embedded) return 0;
    const { rows } = await this.database.sql.executeSql(
      `UPDATE ${this.schema}.job SET state = 'retry', start_after = now() WHERE state = 'active' RETURNING id`,
      [],
    );
    return rows.length;
  }

  /** Jobs waiting (created, retry) and running (active) per queue, with the age of the oldest waiting one. */
  async depth(): Promise<QueueDepth[]> {
    const { rows } = await this.database.sql.executeSql(
      `SELECT name, state::text AS state, count(*)::int AS count,
         extract(epoch FROM now() - min(created_on) FILTER (WHERE state IN ('created', 'retry')))::float8 AS oldest
       FROM ${this.schema}.job WHERE state IN ('created', 'retry', 'active') GROUP BY name, state`,
      [],
    );
    return rows as QueueDepth[];
  }

  async send<N extends JobName>(name: N, data: JobPayloads[N], options: SendOptions = {}): Promise<void> {
    const sendOptions: PgBoss.SendOptions = {};
    if (options.trx) sendOptions.db = transactionExecutor(options.trx);
    if (options.startAfterSeconds) sendOptions.startAfter = options.startAfterSeconds;
    if (options.singletonKey) sendOptions.singletonKey = options.singletonKey;
    await this.boss.send(name, data, sendOptions);
    if (!options.startAfterSeconds) this.nudge(name, options.trx !== undefined);
  }

  /** Many jobs of one kind in one statement (an execution's runs). */
  async sendMany<N extends JobName>(name: N, data: JobPayloads[N][], options: { trx?: Trx } = {}): Promise<void> {
    if (data.length === 0) return;
    await this.boss.insert(
      data.map((item) => ({ name, data: item })),
      options.trx ? { db: transactionExecutor(options.trx) } : {},
    );
    this.nudge(name, options.trx !== undefined);
  }

  /**
   * Wakes this process's idle workers of `name` instead of leaving the job to their next poll. A
   * job sent in a transaction is visible only after its commit, which the queue cannot see: the
   * workers are woken twice, shortly after; a miss costs nothing but falls back to the poll.
   */
  private nudge(name: string, afterCommit: boolean): void {
    const ids = this.workers.get(name);
    if (!ids) return;
    const wake = () => {
      if (this.started) for (const id of ids) this.boss.notifyWorker(id);
    };
    if (!afterCommit) return wake();
    setTimeout(wake, 25).unref();
    setTimeout(wake, 250).unref();
  }

  async work<N extends JobName>(handler: JobHandler<N>): Promise<void> {
    const ids: string[] = [];
    this.workers.set(handler.name, ids);
    for (let i = 0; i < handler.concurrency; i++) {
      const id = await this.boss.work<JobPayloads[N]>(
        handler.name,
        { batchSize: 1, pollingIntervalSeconds: this.config.jobPollSeconds, includeMetadata: true },
        async (jobs) => {
          this.inFlight += 1;
          try {
            for (const job of jobs) await handler.handle(job.data, { id: job.id, retryCount: job.retryCount });
          } finally {
            this.inFlight -= 1;
          }
        },
      );
      ids.push(id);
    }
  }


  /**
   * Periodic work, once per cluster whatever the number of processes: pg-boss keeps the schedule
   * in the database and one process's cron tick sends each job (minute resolution).
   */
  async schedule(name: JobName, cron: string): Promise<void> {
    await this.boss.schedule(name, cron, {}, { tz: 'UTC' });
  }

  /**
   * Stops taking jobs and lets running handlers finish for up to `graceMs`; then `onGraceOver`
   * (which gives running work back to the queue) and a short wait for the handlers to return.
   * A handler still running after that has its job failed by pg-boss, to be retried.
   */
  async stop(graceMs = 30_000, onGraceOver: () => void = () => {}): Promise<void> {
    if (!this.started) return;
    this.started = false;
    for (const name of this.workers.keys()) await this.boss.offWork(name);
    if (!(await this.drained(graceMs))) {
      onGraceOver();
      await this.drained(HAND_BACK_MS);
    }
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: 1000 });
    // pg-boss's own statements (a job's completion) finish before the pool may close, within a bound.
    const deadline = Date.now() + HAND_BACK_MS;
    while (this.statements.size > 0 && Date.now() < deadline) {
      await Promise.race([Promise.all(this.statements), new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref())]);
    }
    if (this.statements.size > 0) this.onError(new Error(`the queue stopped with ${this.statements.size} statements of pg-boss unfinished`));
    this.stopped = true;
  }

  private async drained(withinMs: number): Promise<boolean> {
    const deadline = Date.now() + withinMs;
    while (this.inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return this.inFlight === 0;
  }
}
