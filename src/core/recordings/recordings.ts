// Recordings: creation from an upload or an import, reading, listing, deletion, and the rules
// other services ask of a recording's state.
import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import type { Trx } from '../../platform/db/database.ts';
import { rowById } from '../../platform/db/rows-by-id.ts';
import { AppError, diskFull, invalid, isDiskFull, notFound } from '../../errors.ts';
import { isId, newId } from '../../ids.ts';
import { parseInstant } from '../../instant.ts';
import { checkOutboundUrl, OutboundError } from '../../platform/net/outbound.ts';
import { recordingKeys } from '../../platform/storage/blobs.ts';
import type { ReceivedAudio } from './audio-intake.ts';
import { decodeTimeCursor, encodeTimeCursor } from '../cursor.ts';
import { pipelineSql, type Pipeline } from './pipeline-status.ts';
import { recordingConditions, recordingStatuses, type RecordingFilters } from './recording-filters.ts';
import { checkMetadata, parseMetadata, type Metadata } from '../metadata.ts';
import { retryDownload, type Recording } from './recording-store.ts';
import { downloadingStatuses } from '../../platform/db/tables.ts';
import { executionProgress } from '../events.ts';
import { runTables, type RunKindName } from '../runs/run-kind.ts';

export { recordingStatuses, type RecordingFilters };

export type { Recording } from './recording-store.ts';

export type { RecordingStatus } from '../../platform/db/tables.ts';

export { checkMetadata, parseMetadata, type Metadata };

/** The latest a call may claim to have taken place, allowing for clocks a little ahead. */
const RECORDED_AT_SLACK_MS = 86_400_000;

/** `recorded_at` as given (RFC 3339 with a time zone), checked; null when none was given. */
export function checkRecordedAt(raw: unknown): Date | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const date = typeof raw === 'string' ? parseInstant(raw) : null;
  if (!date) throw invalid('recorded_at', 'must be a date-time with a time zone, such as 2026-11-02T09:30:00Z');
  if (date.getTime() > Date.now() + RECORDED_AT_SLACK_MS) throw invalid('recorded_at', 'must not be in the future');
  if (date.getUTCFullYear() < 1900) throw invalid('recorded_at', 'must be after 1900');
  return date;
}

/** The retention days asked for, checked; null when none was given (the workspace's default applies). */
export function checkRetention(ctx: Context, raw: unknown): number | null {
  const { minDays, maxDays } = ctx.config.retention;
  if (raw === undefined || raw === null || raw === '') return null;
  const days = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < minDays || days > maxDays) {
    throw invalid('retention_days', `must be an integer from ${minDays} to ${maxDays}`);
  }
  return days;
}

const expiry = (days: number) => new Date(Date.now() + days * 86_400_000);

/** Days asked for, else the workspace's default, else the server's. */
async function retentionDays(ctx: Context, trx: Trx, workspaceId: string, asked: number | null): Promise<number> {
  if (asked !== null) return asked;
  const workspace = await trx.selectFrom('workspaces').select('default_retention_days').where('id', '=', workspaceId).executeTakeFirst();
  return workspace?.default_retention_days ?? ctx.config.retention.defaultDays;
}

/** A name of at most 255 characters, cut before its extension (".wav" kept) where it is longer. */
function fitName(name: string): string {
  if (name.length <= 255) return name;
  const extension = /\.[A-Za-z0-9]{1,10}$/.exec(name)?.[0] ?? '';
  return name.slice(0, 255 - extension.length) + extension;
}

/** A file name as kept: its last path part (an upload's browser strips folders; an import's name is given as text), no control characters, at most 255 characters. */
export function sanitizeFilename(name: string | undefined, fallback: string): string {
  // The fallback too: a URL's decoded name may hold control characters (%00).
  const clean = (text: string) => fitName((text.split(/[\\/]/).at(-1) ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim());
  return clean(name ?? '') || clean(fallback) || 'recording';
}

export async function createFromUpload(
  ctx: Context,
  workspaceId: string,
  input: { audio: ReceivedAudio; filename: string; contentType: string | null; metadata: Metadata; retentionDays: number | null; recordedAt?: Date | null; pipeline?: boolean },
): Promise<Recording> {
  return (await createFromUploadWith(ctx, workspaceId, input, async () => null)).recording;
}

/**
 * An uploaded recording and what `alongside` makes in the same transaction (a run asked for with
 * it, which the prepared audio must find, or it would start an automatic run beside it).
 */
export async function createFromUploadWith<T>(
  ctx: Context,
  workspaceId: string,
  input: Parameters<typeof createFromUpload>[2],
  alongside: (trx: Trx, recording: Recording) => Promise<T>,
): Promise<{ recording: Recording; made: T }> {
  const id = newId('recording');
  const keys = recordingKeys(workspaceId, id);
  try {
    await ctx.blobs.commit(input.audio.tempPath, keys.original).catch((error: unknown) => {
      throw storageUnavailable(ctx, error);
    });
    return await ctx.db.transaction().execute(async (trx) => {
      const days = await retentionDays(ctx, trx, workspaceId, input.retentionDays);
      const recording = await trx
        .insertInto('recordings')
        .values({
          id,
          workspace_id: workspaceId,
          status: 'queued',
          filename: input.filename,
          content_type: input.contentType,
          size_bytes: input.audio.sizeBytes,
          metadata: input.metadata.json,
          metadata_json: input.metadata.json,
          retention_days: days,
          expires_at: expiry(days),
          source: 'upload',
          ...(input.recordedAt ? { recorded_at: input.recordedAt, recorded_at_source: 'client' } : {}),
          pipeline: input.pipeline ?? false,
          updated_at: new Date(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const made = await alongside(trx, recording);
      await ctx.queue.send('prepare-audio', { recordingId: id }, { trx });
      return { recording, made };
    });
  } catch (error) {
    await ctx.blobs.removeTemp(input.audio.tempPath);
    // Without a row, an object left by a failed removal is unreachable garbage, never a row
    // pointing at nothing; the original error is the one the client needs.
    await ctx.blobs.remove(keys.folder).catch((cleanup: unknown) => ctx.log.warn({ err: cleanup, recordingId: id }, 'could not remove the audio of a refused recording'));
    throw error;
  }
}

/**
 * An import's URL as it is taken: http or https, no credentials. Where it points is checked when it
 * is fetched (the address connected to, every redirect's too): an address not allowed ends the
 * import in download_failed with error_code address_not_allowed, nothing fetched (CONTRACT.md).
 */
function checkImportUrl(raw: string): string {
  try {
    return checkOutboundUrl(raw).toString();
  } catch (error) {
    throw invalid('url', error instanceof OutboundError ? error.message : 'is not a valid URL');
  }
}

/** The file name a URL's path ends with (decoded where it can be), else "import". */
function urlFileName(url: string): string {
  const last = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last) || 'import';
  } catch {
    return last || 'import'; // a malformed escape (%E0%A4%A) is kept as written
  }
}

export async function createImport(
  ctx: Context,
  workspaceId: string,
  input: { url: string; filename?: string | undefined; metadata?: unknown; retention_days?: unknown; recorded_at?: unknown },
): Promise<Recording> {
  const url = checkImportUrl(input.url);
  const metadata = input.metadata === undefined ? { value: {}, json: '{}' } : checkMetadata(ctx, input.metadata);
  const asked = checkRetention(ctx, input.retention_days);
  const recordedAt = checkRecordedAt(input.recorded_at);
  const fallbackName = urlFileName(url);
  const id = newId('recording');
  return ctx.db.transaction().execute(async (trx) => {
    const days = await retentionDays(ctx, trx, workspaceId, asked);
    const recording = await trx
      .insertInto('recordings')
      .values({
        id,
        workspace_id: workspaceId,
        status: 'download_pending',
        filename: sanitizeFilename(input.filename, fallbackName),
        metadata: metadata.json,
        metadata_json: metadata.json,
        retention_days: days,
        expires_at: expiry(days),
        source: 'import',
        source_url: url,
        ...(recordedAt ? { recorded_at: recordedAt, recorded_at_source: 'client' } : {}),
        updated_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await ctx.queue.send('download-audio', { recordingId: id }, { trx });
    return recording;
  });
}

export async function retryImport(ctx: Context, workspaceId: string, id: string, newUrl: string | undefined): Promise<Recording> {
  const url = newUrl === undefined ? undefined : checkImportUrl(newUrl);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('recordings')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', isId('recording', id) ? id : '')
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!current) throw notFound(`recording ${id}`);
    if (current.status !== 'download_failed') {
      throw new AppError('import_not_failed', `the recording is ${current.status}; only a download_failed import can be retried`);
    }
    // A name taken from the old URL follows the new one; a name the client gave stays.
    const named = url !== undefined && current.source_url !== null && current.filename === sanitizeFilename(undefined, urlFileName(current.source_url));
    const recording = await retryDownload(trx, current.id, url ?? current.source_url, named ? sanitizeFilename(undefined, urlFileName(url)) : current.filename);
    if (!recording) throw new AppError('import_not_failed', 'the recording moved on meanwhile');
    await ctx.queue.send('download-audio', { recordingId: id }, { trx });
    return recording;
  });
}

export async function getRecording(ctx: Context, workspaceId: string, id: string): Promise<Recording> {
  const recording = isId('recording', id) ? await rowById<Recording>(ctx.db, 'recordings', workspaceId, id) : undefined;
  if (!recording) throw notFound(`recording ${id}`);
  return recording;
}

/** The delete's second pass over a recording's objects (the remove-audio job) comes this much later. */
const REMOVE_AUDIO_DELAY_SECONDS = 60;

/**
 * Deletes the row (its runs and results with it) and the audio: at once, and again a minute later
 * by a queued job committed with the delete, which retries while the store cannot be reached.
 */
export async function deleteRecording(ctx: Context, workspaceId: string, id: string): Promise<void> {
  const recording = await getRecording(ctx, workspaceId, id);
  await ctx.db.transaction().execute(async (trx) => {
    // Its runs go with it; an execution whose last waiting run was one of them ends now (its event too).
    const executions: { kind: RunKindName; id: string }[] = [];
    for (const kind of Object.keys(runTables) as RunKindName[]) {
      const rows = await trx.selectFrom(runTables[kind]).select('execution_id').distinct().where('recording_id', '=', recording.id).where('status', 'in', ['queued', 'running']).where('execution_id', 'is not', null).execute();
      executions.push(...rows.map((row) => ({ kind, id: row.execution_id! })));
    }
    await trx.deleteFrom('recordings').where('id', '=', recording.id).execute();
    // Locked in one order (executionProgress locks each), so two deletes at once cannot deadlock.
    executions.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const execution of executions) await executionProgress(ctx, trx, execution.kind, workspaceId, execution.id);
    await ctx.queue.send('remove-audio', { workspaceId, recordingId: recording.id }, { trx, startAfterSeconds: REMOVE_AUDIO_DELAY_SECONDS });
  });
  await ctx.blobs.remove(recordingKeys(workspaceId, recording.id).folder).catch((error: unknown) => {
    ctx.log.warn({ err: error, recordingId: recording.id }, 'the audio of a deleted recording is removed later: the store could not be reached');
  });
}

/**
 * The recording's audio is gone by its retention: deleted, or past `expires_at` and waiting for the
 * sweep that deletes it (it is neither served nor transcribed in the meantime).
 */
export function audioExpired(recording: Pick<Recording, 'audio_deleted_at' | 'expires_at'>, now = new Date()): boolean {
  return recording.audio_deleted_at !== null || (recording.expires_at !== null && recording.expires_at.getTime() <= now.getTime());
}

/** 409 `audio_expired` where the recording's audio is gone by its retention (audioExpired). */
export function assertAudioKept(recording: Pick<Recording, 'audio_deleted_at' | 'expires_at'>): void {
  if (audioExpired(recording)) throw new AppError('audio_expired', recording.audio_deleted_at !== null ? 'the recording\'s audio was deleted by its retention' : 'the recording\'s audio is past its retention (expires_at) and is being deleted');
}

/** A transcription can start once the audio is here (it waits while preparation runs). */
export function assertTranscribable(recording: Pick<Recording, 'status' | 'audio_deleted_at' | 'expires_at'>): void {
  if (downloadingStatuses.includes(recording.status)) throw new AppError('recording_not_ready', `the recording is ${recording.status}: its audio has not been downloaded`);
  if (recording.status === 'download_failed') throw new AppError('recording_failed', 'the recording is download_failed: its audio has not been downloaded');
  if (recording.status === 'failed') throw new AppError('recording_failed', 'the recording failed to prepare');
  assertAudioKept(recording);
}

export interface ListOptions extends RecordingFilters {
  limit: number;
  offset: number;
  cursor?: string | undefined;
  /** Newest first by upload time (the default) or by when the call took place. */
  sort?: 'created_at' | 'recorded_at' | undefined;
}

/**
 * Newest first by upload or call time (indexes recordings_workspace_created and _recorded: a date
 * range is a range scan); ties by upload order.
 */
export async function listRecordings(ctx: Context, workspaceId: string, options: ListOptions): Promise<{ data: (Recording & { pipeline: Pipeline })[]; next_cursor: string | null }> {
  const column = options.sort ?? 'created_at';
  let query = ctx.db
    .selectFrom('recordings')
    .selectAll()
    .select(sql<string>`(extract(epoch FROM ${sql.ref(column)}) * 1000000)::bigint::text`.as('sort_micros'))
    .select(pipelineSql('recordings').as('pipeline'))
    .where('workspace_id', '=', workspaceId);
  for (const condition of recordingConditions(options, 'recordings')) query = query.where(condition);
  if (options.cursor) {
    const { micros, seq } = decodeTimeCursor(options.cursor, column === 'created_at' ? undefined : column);
    query = query.where(sql<boolean>`(${sql.ref(column)}, seq) < (timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond', ${seq}::bigint)`);
  }
  const rows = await query.orderBy(column, 'desc').orderBy('seq', 'desc').offset(options.offset).limit(options.limit + 1).execute();
  const data = rows.slice(0, options.limit).map(({ sort_micros: _, ...recording }) => recording);
  const last = rows.length > options.limit ? rows[options.limit - 1] : undefined;
  return { data, next_cursor: last ? encodeTimeCursor(last.sort_micros, last.seq, column === 'created_at' ? undefined : column) : null };
}

/** A store that failed to write or read: logged for the operator, a 503 for the client, who may retry. */
export function storageUnavailable(ctx: Context, error: unknown): AppError {
  ctx.log.error({ err: error }, 'the audio store failed');
  return isDiskFull(error) ? diskFull() : new AppError('storage_unavailable');
}
