// expire-audio: deletes the audio of recordings past their retention (cards and results stay),
// temp files of stopped processes, and browser sessions past their limits.
import type { Context } from '../context.ts';
import { deleteExpiredSessions } from '../services/sessions.ts';
import { recordingKeys } from '../storage/blobs.ts';
import type { JobHandler } from './queue.ts';

/** A temp file nobody wrote for an hour belongs to a process that died. */
const STALE_TEMP_MS = 3600_000;

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

export function expireAudioJob(ctx: Context): JobHandler<Record<string, never>> {
  return {
    name: 'expire-audio',
    settings: { retryLimit: 1, retryDelay: 60, retryBackoff: false, expireInSeconds: 3600 },
    concurrency: 1,
    async handle() {
      const expired = await expireAudio(ctx);
      if (expired > 0) ctx.log.info({ expired }, 'deleted expired audio');
      const orphans = await ctx.blobs.removeStaleTemps(STALE_TEMP_MS);
      if (orphans > 0) ctx.log.warn({ orphans }, 'removed temp files left by a stopped process');
      await deleteExpiredSessions(ctx);
    },
  };
}
