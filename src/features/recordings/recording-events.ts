// The webhook event of a recording that reached the end of its preparation or download.
import type { Context } from '../../context.ts';
import { emitEvent } from '../../core/events.ts';
import type { Trx } from '../../platform/db/database.ts';
import { presentRecording } from './recording-card.ts';
import type { Recording } from '../../core/recordings/recordings.ts';
import { announceSettled } from '../../core/settled.ts';

export const recordingEvent = async (ctx: Context, trx: Trx, recording: Recording) => {
  await announceSettled(ctx, trx, recording.id);
  const type = recording.status === 'completed' ? 'recording.completed' : recording.status === 'failed' ? 'recording.failed' : 'recording.download_failed';
  await emitEvent(ctx, trx, recording.workspace_id, type, presentRecording(recording));
};
