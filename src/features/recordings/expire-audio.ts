// Deletes the audio of recordings past their retention (cards and results stay); run by the
// expire-audio sweep (wiring/sweeps.ts).
import type { Context } from '../../context.ts';
import { recordingKeys } from '../../platform/storage/blobs.ts';
import { audioDeleted } from '../../core/recordings/recording-store.ts';

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
      await audioDeleted(ctx.db, recording.id);
    }
    total += due.length;
    if (due.length < 200) return total;
  }
}
