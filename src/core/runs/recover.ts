// Recovery of runs whose worker died: a run left "running" without a heartbeat for
// HARK_STALE_RUN_SECONDS (and a preparation left "processing") is queued again, so nothing stays
// stuck; on the embedded store, which has one process, everything running is orphaned at start.
import type { Context } from '../../context.ts';
import type { JobHandler } from '../../platform/queue/queue.ts';
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
  await ctx.db.transaction().execute(async (trx) => {
    const stale = await trx
      .updateTable('recordings')
      .set({ status: 'queued', updated_at: new Date() })
      .where('status', '=', 'processing')
      .where('updated_at', '<', new Date(Date.now() - staleSeconds * 1000))
      .returning('id')
      .execute();
    for (const recording of stale) await ctx.queue.send('prepare-audio', { recordingId: recording.id }, { trx });
    recovered += stale.length;
  });
  return recovered;
}

export function recoverRunsJob(ctx: Context, kinds: readonly AnyRunKind[]): JobHandler<'recover-runs'> {
  return {
    name: 'recover-runs',
    settings: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 300 },
    concurrency: 1,
    async handle() {
      const recovered = await recoverStaleRuns(ctx, kinds);
      if (recovered > 0) ctx.log.warn({ recovered }, 'queued again runs whose worker stopped');
    },
  };
}
