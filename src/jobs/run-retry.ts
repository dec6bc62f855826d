// What a failed attempt of a run becomes: the engine's failure, and for a retryable one within the
// scenario's attempts, the run queued again after an exponential wait. Shared by both run kinds.
import type { Context } from '../context.ts';
import { EngineError } from '../engines/engine-error.ts';
import type { RetrySettings } from '../services/transcription-scenarios.ts';

export function engineFailure(ctx: Context, error: unknown, runId: string): EngineError {
  if (error instanceof EngineError) return error;
  ctx.log.error({ err: error, runId }, 'engine error');
  return new EngineError('engine_error', 'the engine failed unexpectedly', true);
}

/** Queues the run again when the failure allows another attempt; says whether it did. */
export async function retryLater(
  ctx: Context,
  kind: { table: 'transcription_runs' | 'analysis_runs'; job: 'transcribe' | 'analyze' },
  runId: string,
  failure: EngineError,
  attempts: number,
  retry: RetrySettings,
): Promise<boolean> {
  if (!failure.retryable || attempts >= retry.max_attempts) return false;
  await ctx.db.transaction().execute(async (trx) => {
    const requeued = await trx
      .updateTable(kind.table)
      .set({ status: 'queued', error_code: failure.code, error_message: failure.message, retryable: true, updated_at: new Date() })
      .where('id', '=', runId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    const wait = Math.max(1, Math.round(retry.backoff_seconds * 2 ** (attempts - 1)));
    if (requeued.numUpdatedRows > 0n) await ctx.queue.send(kind.job, { runId }, { trx, startAfterSeconds: wait });
  });
  return true;
}
