// A preparation's heartbeat: a recording being prepared says it is alive, so one whose worker
// died is queued again by the stale-run sweep (runs have their own watch in core/runs/run-job.ts).
import type { Context } from '../../context.ts';
import { HEARTBEAT_MS } from '../../core/runs/run-job.ts';

export function startPreparationHeartbeat(ctx: Context, recordingId: string): () => void {
  const timer = setInterval(() => {
    ctx.db.updateTable('recordings').set({ updated_at: new Date() }).where('id', '=', recordingId).where('status', '=', 'processing').execute().catch(() => {});
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}
