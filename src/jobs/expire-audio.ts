// expire-audio: deletes the audio of recordings past their retention (cards and results stay) and
// browser sessions past their limits, once per cluster. Scratch files are each host's own: every
// process sweeps its own (runtime.ts).
import type { Context } from '../context.ts';
import { deleteExpiredSessions } from '../services/sessions.ts';
import { recordingKeys } from '../storage/blobs.ts';
import type { JobHandler } from './queue.ts';

export async function expireAudio(ctx: Context, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const due = await ctx.db
      .selectFrom('recordings')
      .select(['id', 'workspace_id'])
      .where('expires_at', '<=', now)
      .where('audio_deleted_at', 'is', null)
      .limit(200)
      .execute();
    for (const recording of due) {
      await ctx.blobs.remove(recordingKeys(recording.workspace_id, recording.id).folder);
      await ctx.db.updateTable('recordings').set({ audio_deleted_at: new Date(), updated_at: new Date() }).where('id', '=', recording.id).execute();
    }
    total += due.length;
    if (due.length < 200) return total;
  }
}

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
