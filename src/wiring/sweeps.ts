// expire-audio: the periodic sweep, once per cluster: the audio of recordings past their retention
// and browser sessions past their limits. Scratch files are each host's own: every process sweeps
// its own (runtime.ts).
import type { Context } from '../context.ts';
import { deleteExpiredSessions } from '../features/access/sessions.ts';
import { expireAudio } from '../features/recordings/expire-audio.ts';
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
