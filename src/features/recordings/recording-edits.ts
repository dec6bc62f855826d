// Editing a recording after it was created: its metadata (replaced whole), when the call took
// place, and how long its audio is kept (retention_days, counted from the upload). The change reaches the report facts in the same transaction, so reports group the call
// by its new values at once, and a `recording.updated` event carries the new card.
import type { Context } from '../../context.ts';
import { presentRecording } from './recording-card.ts';
import { AppError, notFound } from '../../errors.ts';
import { isId } from '../../ids.ts';
import { emitEvent } from '../../core/events.ts';
import { checkMetadata, checkRecordedAt, checkRetention, type Recording } from '../../core/recordings/recordings.ts';
import { edited } from '../../core/recordings/recording-store.ts';

export interface RecordingChanges {
  metadata?: unknown;
  recorded_at?: unknown;
  retention_days?: unknown;
}

export async function updateRecording(ctx: Context, workspaceId: string, id: string, changes: RecordingChanges): Promise<Recording> {
  const metadata = changes.metadata === undefined ? null : checkMetadata(ctx, changes.metadata);
  const recordedAt = changes.recorded_at === undefined ? null : checkRecordedAt(changes.recorded_at);
  const retentionDays = changes.retention_days === undefined ? null : checkRetention(ctx, changes.retention_days);
  if (!isId('recording', id)) throw notFound(`recording ${id}`);
  return ctx.db.transaction().execute(async (trx) => {
    if (retentionDays !== null) {
      // Audio already gone cannot be kept longer: said, not quietly given a date it cannot meet.
      const current = await trx.selectFrom('recordings').select('audio_deleted_at').where('workspace_id', '=', workspaceId).where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
      if (current?.audio_deleted_at) throw new AppError('audio_expired', 'the recording\'s audio was deleted by its retention: there is no audio left to keep');
    }
    const recording = await edited(trx, workspaceId, id, { metadataJson: metadata?.json ?? null, recordedAt: recordedAt ?? null, retentionDays });
    if (!recording) throw notFound(`recording ${id}`);
    if (metadata || recordedAt) {
      await trx
        .updateTable('analysis_facts')
        .set({ ...(metadata ? { metadata: metadata.json } : {}), ...(recordedAt ? { recorded_at: recordedAt } : {}) })
        .where('recording_id', '=', id)
        .execute();
    }
    await emitEvent(ctx, trx, workspaceId, 'recording.updated', presentRecording(recording));
    return recording;
  });
}
