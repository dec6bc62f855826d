// Every change of a recording's row, as core/runs/run-store.ts is for runs: each status change is
// one statement guarded by the states it may leave, so two workers (or a worker and a sweep) never
// both move a recording, and the statuses a recording goes through are read here in one place:
//
//   import:  download_pending → downloading → queued, or → download_retry_wait → downloading …,
//            or → download_failed → (retried by the client) download_pending
//   upload:  queued → processing → completed, or → failed; a processing one whose worker stopped
//            goes back to queued
import { sql } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.ts';
import type { Selectable } from 'kysely';
import type { RecordingsTable, RecordingStatus } from '../../platform/db/tables.ts';

export type Recording = Selectable<RecordingsTable>;

type Executor = Db | Trx;

/** A download job takes the recording (a redelivered job takes it again). */
export function claimDownload(db: Executor, id: string): Promise<Recording | undefined> {
  return db
    .updateTable('recordings')
    .set((eb) => ({ status: 'downloading' as const, download_attempts: eb('download_attempts', '+', 1), updated_at: new Date() }))
    .where('id', '=', id)
    .where('status', 'in', ['download_pending', 'download_retry_wait', 'downloading'])
    .returningAll()
    .executeTakeFirst();
}

/** The download is stored: the recording waits for its preparation. True when it moved. */
export async function downloaded(trx: Trx, id: string, file: { sizeBytes: number; contentType: string | null }): Promise<boolean> {
  const moved = await trx
    .updateTable('recordings')
    .set({ status: 'queued', size_bytes: file.sizeBytes, content_type: file.contentType, error_code: null, error_message: null, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'downloading')
    .executeTakeFirst();
  return moved.numUpdatedRows > 0n;
}

/** A download that failed: to be tried again later, or for good. */
export function downloadFailed(trx: Trx, id: string, failure: { code: string; message: string }, retry: boolean): Promise<Recording | undefined> {
  return trx
    .updateTable('recordings')
    .set({ status: retry ? 'download_retry_wait' : 'download_failed', error_code: failure.code, error_message: failure.message, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'downloading')
    .returningAll()
    .executeTakeFirst();
}

/** The client retries a failed import, from its address or a new one. */
export function retryDownload(trx: Trx, id: string, sourceUrl: string | null, filename: string): Promise<Recording | undefined> {
  return trx
    .updateTable('recordings')
    .set({ status: 'download_pending', source_url: sourceUrl, filename, download_attempts: 0, error_code: null, error_message: null, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'download_failed')
    .returningAll()
    .executeTakeFirst();
}

/** A preparation job takes the recording (a redelivered job takes it again); undefined when done or gone. */
export function claimPreparation(db: Executor, id: string): Promise<Recording | undefined> {
  return db.updateTable('recordings').set({ status: 'processing', updated_at: new Date() }).where('id', '=', id).where('status', 'in', ['queued', 'processing']).returningAll().executeTakeFirst();
}

/** A preparation says it is alive (the stale sweep leaves it alone). */
export async function touchPreparation(db: Executor, id: string): Promise<void> {
  await db.updateTable('recordings').set({ updated_at: new Date() }).where('id', '=', id).where('status', '=', 'processing').execute();
}

/**
 * The audio is prepared. `createdAt`: the container's own creation time, which says when the call
 * took place unless the client said.
 */
export function prepared(trx: Trx, id: string, audio: { seconds: number; channels: number; createdAt: Date | null }): Promise<Recording | undefined> {
  return trx
    .updateTable('recordings')
    .set({ status: 'completed', duration_seconds: Math.round(audio.seconds * 1000) / 1000, channels: audio.channels, error_code: null, error_message: null, updated_at: new Date() })
    .$if(audio.createdAt !== null, (update) =>
      update.set({
        recorded_at: sql<Date>`CASE WHEN recorded_at_source = 'upload' THEN ${audio.createdAt}::timestamptz ELSE recorded_at END`,
        recorded_at_source: sql<string>`CASE WHEN recorded_at_source = 'upload' THEN 'file' ELSE recorded_at_source END`,
      }),
    )
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .returningAll()
    .executeTakeFirst();
}

export function preparationFailed(trx: Trx, id: string, error: { code: string; message: string }): Promise<Recording | undefined> {
  return trx
    .updateTable('recordings')
    .set({ status: 'failed', error_code: error.code, error_message: error.message, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .returningAll()
    .executeTakeFirst();
}

/** Preparations silent for `staleSeconds` (their worker stopped) go back to the queue; their ids. */
export async function requeueStalePreparations(trx: Trx, staleSeconds: number): Promise<string[]> {
  const rows = await trx
    .updateTable('recordings')
    .set({ status: 'queued' satisfies RecordingStatus, updated_at: new Date() })
    .where('status', '=', 'processing')
    .where('updated_at', '<', new Date(Date.now() - staleSeconds * 1000))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Retention deleted the audio; the card, transcripts and results stay. */
export async function audioDeleted(db: Executor, id: string): Promise<void> {
  await db.updateTable('recordings').set({ audio_deleted_at: new Date(), updated_at: new Date() }).where('id', '=', id).execute();
}

/** A redacted copy of the audio now serves playback; with `originalGone`, the unredacted files are deleted. */
export async function audioRedacted(trx: Trx, id: string, originalGone: boolean): Promise<void> {
  await trx
    .updateTable('recordings')
    .set({
      audio_redacted_at: sql<Date>`now()`,
      ...(originalGone ? { original_audio_deleted_at: sql<Date>`coalesce(original_audio_deleted_at, now())` } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

/** The client's edit: metadata replaced whole, the call's time given. */
export function edited(trx: Trx, workspaceId: string, id: string, changes: { metadataJson: string | null; recordedAt: Date | null; retentionDays?: number | null }): Promise<Recording | undefined> {
  const days = changes.retentionDays ?? null;
  return trx
    .updateTable('recordings')
    .set({
      updated_at: new Date(),
      // Counted from the upload, as when it was made: the audio goes at created_at + days.
      ...(days !== null ? { retention_days: days, expires_at: sql<Date>`created_at + make_interval(days => ${days}::int)` } : {}),
      ...(changes.metadataJson !== null ? { metadata: changes.metadataJson, metadata_json: changes.metadataJson } : {}),
      ...(changes.recordedAt ? { recorded_at: changes.recordedAt, recorded_at_source: 'client' } : {}),
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
