// remove-audio: the objects of a deleted recording, removed again a minute after the delete. The
// delete removes them at once; this catches what that could not (an unreachable store) and what a
// preparation still running at the delete wrote after it.
import type { Context } from '../../context.ts';
import { recordingKeys } from '../../platform/storage/blobs.ts';
import type { JobHandler } from '../../platform/queue/queue.ts';

export function removeAudioJob(ctx: Context): JobHandler<'remove-audio'> {
  return {
    name: 'remove-audio',
    settings: { retryLimit: 10, retryDelay: 60, retryBackoff: true, expireInSeconds: 600 },
    concurrency: 1,
    async handle({ workspaceId, recordingId }) {
      await ctx.blobs.remove(recordingKeys(workspaceId, recordingId).folder);
    },
  };
}
