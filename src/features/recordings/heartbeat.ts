// A preparation's heartbeat: a recording being prepared says it is alive, so one whose worker
// died is queued again by the stale sweep (recoverStalePreparations) (runs have their own watch in core/runs/run-job.ts).
import type { Context } from '../../context.ts';
import { heartbeatMs } from '../../core/runs/run-job.ts';
import { requeueStalePreparations, touchPreparation } from '../../core/recordings/recording-store.ts';

export function startPreparationHeartbeat(ctx: Context, recordingId: string): () => void {
  const timer = setInterval(() => {
    touchPreparation(ctx.db, recordingId).catch(() => {});
  }, heartbeatMs(ctx.config.staleRunSeconds));
  timer.unref();
  return () => clearInterval(timer);
}

/** Preparations whose worker stopped (no heartbeat for `staleSeconds`) are queued again; how many. */
export async function recoverStalePreparations(ctx: Context, staleSeconds = ctx.config.staleRunSeconds): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const ids = await requeueStalePreparations(trx, staleSeconds);
    for (const recordingId of ids) await ctx.queue.send('prepare-audio', { recordingId }, { trx });
    return ids.length;
  });
}
