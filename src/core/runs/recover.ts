// Recovery of runs whose worker died: a run left "running" without a heartbeat for
// HARK_STALE_RUN_SECONDS is queued again, so nothing stays stuck; on the embedded store, which has
// one process, everything running is orphaned at start. The recover-runs sweep
// (wiring/sweeps.ts) does this and the same for preparations (features/recordings).
import type { Context } from '../../context.ts';
import type { AnyRunKind } from './run-kind.ts';
import { requeueStale } from './run-store.ts';

export async function recoverStaleRuns(ctx: Context, kinds: readonly AnyRunKind[], staleSeconds = ctx.config.staleRunSeconds): Promise<number> {
  let recovered = 0;
  for (const kind of kinds) {
    await ctx.db.transaction().execute(async (trx) => {
      const ids = await requeueStale(trx, kind.table, staleSeconds);
      for (const runId of ids) await ctx.queue.send(kind.job, { runId }, { trx });
      recovered += ids.length;
    });
  }
  return recovered;
}
