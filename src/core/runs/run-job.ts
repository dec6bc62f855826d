// The job that executes a run of either kind: gate → claim → watch (heartbeat, progress, cancel)
// → execute → complete, or fail, or queue again after a backoff. Idempotent: a job delivered twice
// finds the run claimed (its heartbeat alive) or finished, and does nothing.
import type { Context } from '../../context.ts';
import type { Trx } from '../../platform/db/database.ts';
import { EngineError } from '../../platform/engine-error.ts';
import type { JobHandler } from '../../platform/queue/queue.ts';
import { registerActive, ShuttingDown } from './active-runs.ts';
import { claimRun, findRun, handBackRun, holdsFairShare, isRunning, markCompleted, markFailed, markRequeued, touchRun, updateRun } from './run-store.ts';
import type { AnyRunKind, RetrySettings, RunRow } from './run-kind.ts';
import { runEvent, snapshotOf } from './runs.ts';
import { stopwatch } from '../../platform/observability/stopwatch.ts';

/** How often a running run says it is alive. */
export const HEARTBEAT_MS = 10_000;

/**
 * The heartbeat's interval: at least three beats within the stale time, however short an operator
 * sets it (at 5 s, a 10 s beat let another worker claim a run its worker was still on).
 */
export const heartbeatMs = (staleRunSeconds: number): number => Math.min(HEARTBEAT_MS, (staleRunSeconds * 1000) / 3);
/** How often a running run looks whether it was cancelled from another process. */
const CANCEL_POLL_MS = 1_000;
const PROGRESS_INTERVAL_MS = 1_000;
/** A run that must wait for another workspace's turn, or for its input, looks again after this. */
const FAIR_SHARE_WAIT_SECONDS = 2;

export function engineFailure(ctx: Context, error: unknown, runId: string): EngineError {
  if (error instanceof EngineError) return error;
  ctx.log.error({ err: error, runId }, 'engine error');
  return new EngineError('engine_error', 'the engine failed unexpectedly', true);
}

export interface RunJobHooks {
  /** What follows a completion in its transaction (the pipeline's automatic scenarios). */
  afterComplete?: (ctx: Context, trx: Trx, run: RunRow) => Promise<void>;
}

export function runJob(ctx: Context, kind: AnyRunKind, hooks: RunJobHooks = {}): JobHandler<'transcribe' | 'analyze'> {
  const fail = (runId: string, failure: EngineError) =>
    ctx.db.transaction().execute(async (trx) => {
      const failed = await markFailed(trx, kind.table, runId, failure);
      if (failed) {
        ctx.metrics.runFailures.inc({ kind: kind.name, error_code: failure.code });
        await runEvent(ctx, trx, kind, failed);
      }
    });

  /** Queues the run again when the failure allows another attempt; says whether it did. */
  const retryLater = async (run: RunRow, failure: EngineError, retry: RetrySettings): Promise<boolean> => {
    if (!failure.retryable || run.attempts >= retry.max_attempts) return false;
    await ctx.db.transaction().execute(async (trx) => {
      const wait = Math.max(1, Math.round(retry.backoff_seconds * 2 ** (run.attempts - 1)));
      if (await markRequeued(trx, kind.table, run.id, failure)) await ctx.queue.send(kind.job, { runId: run.id }, { trx, startAfterSeconds: wait });
    });
    return true;
  };

  /** Heartbeat, progress and cancellation while the engine works. */
  const beatEvery = heartbeatMs(ctx.config.staleRunSeconds);
  const watch = (runId: string, abort: AbortController) => {
    let progress: number | undefined;
    let lastBeat = Date.now();
    let lastProgress = 0;
    const timer = setInterval(() => {
      const now = Date.now();
      const beat = now - lastBeat >= beatEvery || (progress !== undefined && now - lastProgress >= PROGRESS_INTERVAL_MS);
      const check = beat ? touchRun(ctx.db, kind.table, runId, progress) : isRunning(ctx.db, kind.table, runId);
      if (beat) {
        lastBeat = now;
        lastProgress = now;
        progress = undefined;
      }
      check.then((alive) => alive || abort.abort(new Error('the run was cancelled')), () => {});
    }, CANCEL_POLL_MS);
    timer.unref();
    return {
      onProgress: (fraction: number) => {
        progress = Math.min(0.99, Math.max(0, fraction));
      },
      stop: () => clearInterval(timer),
    };
  };

  return {
    name: kind.job,
    // A run longer than the queue's expiry is not dispatched twice: the second delivery finds the
    // heartbeat alive and returns. Recovery of dead workers is the stale-run sweep's work.
    settings: { retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: ctx.config.jobTimeoutSeconds },
    concurrency: ctx.config.workerConcurrency,
    async handle({ runId }) {
      const run = await findRun(ctx.db, kind.table, runId);
      if (!run || run.status !== 'queued') return;
      let snapshot: ReturnType<typeof snapshotOf<AnyRunKind>>;
      try {
        snapshot = snapshotOf(kind, run);
      } catch (error) {
        // A scenario that cannot be read will not be readable on another attempt: the run fails, it is not left queued.
        return fail(runId, new EngineError('invalid_scenario', `the run's scenario cannot be read: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500), false));
      }
      const gate = await kind.gate(ctx, run, snapshot);
      if ('wait' in gate) return ctx.queue.send(kind.job, { runId }, { startAfterSeconds: gate.wait });
      if ('fail' in gate) return fail(runId, gate.fail);
      const fairShare = Math.max(1, ctx.config.workerConcurrency - 1);
      if (await holdsFairShare(ctx.db, kind.table, run.workspace_id, fairShare)) {
        return ctx.queue.send(kind.job, { runId }, { startAfterSeconds: FAIR_SHARE_WAIT_SECONDS });
      }
      const claimed = await claimRun(ctx.db, kind.table, runId, ctx.config.staleRunSeconds);
      if (!claimed) return;

      const abort = new AbortController();
      const unregister = registerActive(runId, abort);
      const watcher = watch(runId, abort);
      const lap = stopwatch((stage, seconds) => ctx.metrics.stageSeconds.inc({ kind: kind.name, stage }, seconds));
      ctx.log.info({ runId, kind: kind.name, engine: claimed.engine, attempt: claimed.attempts }, 'run started');
      try {
        const output = await kind.execute(ctx, claimed, snapshot, gate.input, { signal: abort.signal, onProgress: watcher.onProgress });
        lap('execute');
        watcher.stop();
        let committed = false;
        await ctx.db.transaction().execute(async (trx) => {
          const done = await markCompleted(trx, kind.table, runId);
          if (!done) return; // cancelled meanwhile
          committed = true;
          if (done.started_at) ctx.metrics.runDuration.observe({ kind: kind.name, engine: done.engine }, (Date.now() - done.started_at.getTime()) / 1000);
          const columns = await kind.persist(ctx, trx, done, snapshot, gate.input, output);
          const final = Object.keys(columns).length > 0 ? await updateRun(trx, kind.table, runId, columns) : done;
          await hooks.afterComplete?.(ctx, trx, final);
          await runEvent(ctx, trx, kind, final);
        }).catch(async (error: unknown) => {
          committed = false;
          await kind.settle?.(ctx, output, false).catch(() => {});
          throw error;
        });
        if (committed) {
          lap('store');
          ctx.log.info({ runId, kind: kind.name }, 'run completed');
        }
        // The run is settled in the database; a failure here is logged, not a run failure.
        await kind.settle?.(ctx, output, committed).catch((error: unknown) => ctx.log.error({ err: error, runId }, 'settling a completed run failed'));
      } catch (error) {
        if (abort.signal.reason instanceof ShuttingDown) {
          await ctx.db.transaction().execute(async (trx) => {
            if (await handBackRun(trx, kind.table, runId)) await ctx.queue.send(kind.job, { runId }, { trx });
          });
          ctx.log.info({ runId }, 'run given back to the queue by a worker shutting down');
          return;
        }
        if (abort.signal.aborted) return; // cancelled: the card already says so
        const failure = engineFailure(ctx, error, runId);
        if (await retryLater(claimed, failure, snapshot.retry)) return;
        await fail(runId, failure);
      } finally {
        watcher.stop();
        unregister();
      }
    },
  };
}
