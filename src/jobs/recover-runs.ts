// recover-runs: a run (or a preparation) whose worker died stays "running" ("processing") with
// no heartbeat; after
// HARK_STALE_RUN_SECONDS it is queued again, so no run stays stuck (on a PostgreSQL server a dead
// worker's queue job would otherwise wait for its expiry).
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import type { JobHandler } from './queue.ts';

/** How often a running handler says it is alive. */
export const HEARTBEAT_MS = 10_000;

export function startHeartbeat(ctx: Context, table: 'transcription_runs' | 'analysis_runs' | 'recordings', id: string): () => void {
  const busy = table === 'recordings' ? 'processing' : 'running';
  const timer = setInterval(() => {
    ctx.db.updateTable(table).set({ updated_at: new Date() }).where('id', '=', id).where('status', '=', busy).execute().catch(() => {});
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export async function recoverStaleRuns(ctx: Context): Promise<number> {
  const cutoff = sql<Date>`now() - make_interval(secs => ${ctx.config.staleRunSeconds})`;
  let recovered = 0;
  for (const [table, job] of [['transcription_runs', 'transcribe'], ['analysis_runs', 'analyze']] as const) {
    await ctx.db.transaction().execute(async (trx) => {
      const stale = await trx.updateTable(table).set({ status: 'queued', updated_at: new Date() }).where('status', '=', 'running').where('updated_at', '<', cutoff).returning('id').execute();
      for (const run of stale) await ctx.queue.send(job, { runId: run.id }, { trx });
      recovered += stale.length;
    });
  }
  await ctx.db.transaction().execute(async (trx) => {
    const stale = await trx.updateTable('recordings').set({ status: 'queued', updated_at: new Date() }).where('status', '=', 'processing').where('updated_at', '<', cutoff).returning('id').execute();
    for (const recording of stale) await ctx.queue.send('prepare-audio', { recordingId: recording.id }, { trx });
    recovered += stale.length;
  });
  return recovered;
}

export function recoverRunsJob(ctx: Context): JobHandler<Record<string, never>> {
  return {
    name: 'recover-runs',
    settings: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 300 },
    concurrency: 1,
    async handle() {
      const recovered = await recoverStaleRuns(ctx);
      if (recovered > 0) ctx.log.warn({ recovered }, 'queued again runs whose worker stopped');
    },
  };
}
