// The periodic sweeps, once per cluster: expire-audio (the audio of recordings past their retention
// and browser sessions past their limits) and recover-runs (runs and preparations whose worker
// stopped). Scratch files are each host's own: every process sweeps its own (runtime.ts).
import type { Context } from '../context.ts';
import { deleteExpiredSessions } from '../features/access/sessions.ts';
import { expireAudio } from '../features/recordings/expire-audio.ts';
import { recoverStalePreparations } from '../features/recordings/heartbeat.ts';
import { recoverStaleRuns } from '../core/runs/recover.ts';
import type { AnyRunKind } from '../core/runs/run-kind.ts';
import type { JobHandler } from '../platform/queue/queue.ts';

export function expireAudioJob(ctx: Context): JobHandler<'expire-audio'> {
  return {
    name: 'expire-audio',
    settings: { retryLimit: 1, retryDelay: 60, retryBackoff: false, expireInSeconds: 3600 },
    concurrency: 1,
    async handle() {
      const expired = await expireAudio(ctx);
      if (expired > 0) ctx.log.info({ expired }, 'deleted expired audio');
      await deleteExpiredSessions(ctx);
    },
  };
}

export function recoverRunsJob(ctx: Context, kinds: readonly AnyRunKind[]): JobHandler<'recover-runs'> {
  return {
    name: 'recover-runs',
    settings: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 300 },
    concurrency: 1,
    async handle() {
      const recovered = (await recoverStaleRuns(ctx, kinds)) + (await recoverStalePreparations(ctx));
      if (recovered > 0) ctx.log.warn({ recovered }, 'queued again runs whose worker stopped');
    },
  };
}
