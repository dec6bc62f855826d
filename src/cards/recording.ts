// The recording card (CONTRACT.md "Recordings") and its schema.
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { RecordingsTable } from '../db/tables.ts';
import { recordingStatuses } from '../services/recording-filters.ts';

type Recording = Selectable<RecordingsTable>;
import { StringEnum, DateTime, JsonObject, Nullable, NullableDateTime } from './schema-types.ts';

export const RecordingCard = Type.Object(
  {
    id: Type.String({ description: 'fl-<uuid>' }),
    status: StringEnum(recordingStatuses),
    filename: Type.String(),
    content_type: Nullable(Type.String()),
    size_bytes: Nullable(Type.Integer()),
    duration_seconds: Nullable(Type.Number({ description: 'Null until the audio is prepared' })),
    metadata: JsonObject,
    retention_days: Type.Integer(),
    expires_at: DateTime,
    audio_deleted_at: NullableDateTime,
    channels: Nullable(Type.Integer({ description: 'Audio channels, once prepared; 2 to 8 are transcribed one by one unless a scenario mixes them' })),
    audio_redacted_at: Type.Union([DateTime, Type.Null()], { description: 'When a transcription redacted the audio: playback and downloads serve the redacted copy since' }),
    original_audio_deleted_at: Type.Union([DateTime, Type.Null()], { description: 'When the unredacted audio was deleted (a scenario with keep_original_audio false)' }),
    source: Type.Union([Type.Literal('upload'), Type.Literal('import')]),
    source_url: Nullable(Type.String()),
    download_attempts: Type.Integer(),
    error_code: Nullable(Type.String()),
    error_message: Nullable(Type.String()),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Recording' },
);

export function presentRecording(recording: Recording) {
  return {
    id: recording.id,
    status: recording.status as (typeof recordingStatuses)[number],
    filename: recording.filename,
    content_type: recording.content_type,
    size_bytes: recording.size_bytes === null ? null : Number(recording.size_bytes),
    duration_seconds: recording.duration_seconds,
    metadata: JSON.parse(recording.metadata_json) as Record<string, unknown>,
    retention_days: recording.retention_days,
    expires_at: recording.expires_at,
    audio_deleted_at: recording.audio_deleted_at,
    channels: recording.channels,
    audio_redacted_at: recording.audio_redacted_at,
    original_audio_deleted_at: recording.original_audio_deleted_at,
    source: recording.source as 'upload' | 'import',
    source_url: recording.source_url,
    download_attempts: recording.download_attempts,
    error_code: recording.error_code,
    error_message: recording.error_message,
    created_at: recording.created_at,
    updated_at: recording.updated_at,
  };
}
