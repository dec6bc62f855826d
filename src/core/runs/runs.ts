// Runs of either kind: create (with the job, in the caller's transaction), read, list, cancel
// (aborting the engine), retry (a new run with retry_of), and the event a finished run emits.
import type { Context } from '../../context.ts';
import type { Db, Trx } from '../../platform/db/database.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { isId, newId } from '../../ids.ts';
import { decodeCursor, page, parseStatuses } from '../cursor.ts';
import { emitEvent, executionProgress } from '../events.ts';
import { abortActive } from './active-runs.ts';
import { findRun, insertRun, insertRuns, markCancelled, queuedRunIds, selectRuns } from './run-store.ts';
import { runStatuses, type AnyRunKind, type RunRow } from './run-kind.ts';
import { readStored } from '../../platform/db/stored-json.ts';
import { announceSettled } from '../settled.ts';

export interface NewRun {
  workspaceId: string;
  recordingId: string;
  /** The kind's own columns (scenario id, transcript ids). */
  columns: Record<string, unknown>;
  snapshot: { engine: string; model: string; retry: unknown; [field: string]: unknown };
  executionId?: string | null | undefined;
  retryOf?: string | null | undefined;
}

const runValues = (kind: AnyRunKind, input: NewRun) => ({
  id: newId(kind.idKind),
  workspace_id: input.workspaceId,
  recording_id: input.recordingId,
  execution_id: input.executionId ?? null,
  retry_of: input.retryOf ?? null,
  status: 'queued',
  engine: input.snapshot.engine,
  model: input.snapshot.model,
  scenario: JSON.stringify(input.snapshot),
  updated_at: new Date(),
  ...input.columns,
});

export async function createRun<K extends AnyRunKind>(ctx: Context, trx: Trx, kind: K, input: NewRun): Promise<RunRow> {
  if (input.retryOf) await assertNotRetried(trx, kind, input.retryOf);
  const run = await insertRun(trx, kind.table, runValues(kind, input));
  await ctx.queue.send(kind.job, { runId: run.id }, { trx });
  return run;
}

/**
 * A failed run is retried once: a retry asked for again (a client repeating its request) is
 * refused, naming the run that retries it, instead of transcribing twice. The failed run's row is
 * locked first, so of two retries at once the second sees the first.
 */
async function assertNotRetried(trx: Trx, kind: AnyRunKind, runId: string): Promise<void> {
  await trx.selectFrom(kind.table).select('id').where('id', '=', runId).forNoKeyUpdate().execute();
  const retry = await trx.selectFrom(kind.table).select('id').where('retry_of', '=', runId).orderBy('seq').executeTakeFirst();
  if (retry) throw new AppError('run_not_retryable', `the run was retried already by ${retry.id}; retry that run if it failed`);
}

/** Runs a statement inserts (and jobs a batch sends): bounds the arrays and the job batch in memory. */
const BATCH = 5000;

/** Many runs (an execution's) in a statement per BATCH, with their jobs sent in one batch each. */
export async function createRuns(ctx: Context, trx: Trx, kind: AnyRunKind, inputs: NewRun[]): Promise<void> {
  for (let i = 0; i < inputs.length; i += BATCH) {
    const ids = await insertRuns(trx, kind.table, inputs.slice(i, i + BATCH).map((input) => runValues(kind, input)));
    await ctx.queue.sendMany(kind.job, ids.map((runId) => ({ runId })), { trx });
  }
}

/** Queued runs of a recording that waited for its audio are claimed now, not at their next check; how many there were. */
export async function wakeQueuedRuns(ctx: Context, trx: Trx, kind: AnyRunKind, recordingId: string): Promise<number> {
  const waiting = await queuedRunIds(trx, kind.table, recordingId);
  if (waiting.length > 0) await ctx.queue.sendMany(kind.job, waiting.map((runId) => ({ runId })), { trx });
  return waiting.length;
}

export async function getRun(db: Db | Trx, kind: AnyRunKind, workspaceId: string, id: string): Promise<RunRow> {
  const run = isId(kind.idKind, id) ? await findRun(db, kind.table, id, workspaceId) : undefined;
  if (!run) throw notFound(`${kind.name} run ${id}`);
  return run;
}

export function snapshotOf<K extends AnyRunKind>(kind: K, run: RunRow): Parameters<K['gate']>[2] {
  return readStored(kind.snapshotSchema, run.scenario, `${kind.name} run ${run.id} scenario`) as Parameters<K['gate']>[2];
}

export interface ListQuery {
  execution_id?: string | undefined;
  /** The specification's name of execution_id. */
  jobId?: string | undefined;
  recording_id?: string | undefined;
  status?: string | undefined;
  limit: number;
  offset?: number | undefined;
  cursor?: string | undefined;
}

export async function listRuns(ctx: Context, kind: AnyRunKind, workspaceId: string, query: ListQuery): Promise<{ data: RunRow[]; next_cursor: string | null }> {
  if (query.execution_id !== undefined && query.jobId !== undefined && query.execution_id !== query.jobId) {
    throw invalid('jobId', 'names another execution than execution_id (jobId is its other name): give one');
  }
  const rows = await selectRuns(ctx.db, kind.table, workspaceId, {
    executionId: query.execution_id ?? query.jobId,
    recordingId: query.recording_id,
    statuses: query.status ? parseStatuses(query.status, runStatuses) : undefined,
    beforeSeq: query.cursor ? decodeCursor(query.cursor, `runs:${kind.name}`) : undefined,
    offset: query.offset,
    limit: query.limit + 1,
  });
  return page(rows, query.limit, `runs:${kind.name}`);
}

export async function cancelRun(ctx: Context, kind: AnyRunKind, workspaceId: string, id: string): Promise<RunRow> {
  const run = await getRun(ctx.db, kind, workspaceId, id);
  const cancelled = await ctx.db.transaction().execute(async (trx) => {
    const row = await markCancelled(trx, kind.table, run.id);
    if (row) await runEvent(ctx, trx, kind, row);
    return row;
  });
  if (!cancelled) {
    // Said as the run is now: it may have finished between the read above and the cancel.
    const now = await getRun(ctx.db, kind, workspaceId, id);
    throw new AppError('run_not_cancellable', `the run is ${now.status}; only a queued or running run can be cancelled`);
  }
  abortActive(run.id);
  return cancelled;
}

/** Checks a failed run may be retried and hands its snapshot to `start`, which creates the new run. */
export async function retryRun<K extends AnyRunKind>(
  ctx: Context,
  kind: K,
  workspaceId: string,
  id: string,
  start: (run: RunRow, snapshot: Parameters<K['gate']>[2]) => Promise<RunRow>,
): Promise<RunRow> {
  const run = await getRun(ctx.db, kind, workspaceId, id);
  if (run.status !== 'failed') throw new AppError('run_not_retryable', `the run is ${run.status}; only a failed run can be retried`);
  return start(run, snapshotOf(kind, run));
}

/** A finished run's webhook event, its execution's progress, and a notice to whoever waits on it. */
export async function runEvent(ctx: Context, trx: Trx, kind: AnyRunKind, run: RunRow): Promise<void> {
  await announceSettled(ctx, trx, run.id);
  if (run.status === 'completed' || run.status === 'failed') {
    await emitEvent(ctx, trx, run.workspace_id, `${kind.event}.${run.status}`, kind.present(run));
  }
  if (run.execution_id) await executionProgress(ctx, trx, kind.name, run.workspace_id, run.execution_id);
}
