// The recording card (CONTRACT.md "Recordings") and its schema.
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { RecordingsTable } from '../../platform/db/tables.ts';
import { pipelineOfNew, pipelineStatuses, type Pipeline } from '../../core/recordings/pipeline-card.ts';
import { recordingStatuses } from '../../core/recordings/recording-filters.ts';

type Recording = Selectable<RecordingsTable>;
import { StringEnum, DateTime, JsonObject, Nullable, NullableDateTime } from '../../http/schemas/schema-types.ts';

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
    recorded_at: { ...DateTime, description: 'When the call took place: given at upload or import (or edited), else the file\'s own creation time where its container has one, else the upload time. Report periods recorded_at:day|week|month and the recorded_after/recorded_before filters use it' },
    pipeline: Type.Object(
      {
        status: StringEnum(pipelineStatuses, { description: 'preparing → audio_ready → transcribing → transcribed → analysing → analysed, or failed: from the recording and its latest runs' }),
        error_code: Nullable(Type.String()),
        error_message: Nullable(Type.String()),
        waiting: Type.Boolean({ description: 'true while transcribing or analysing and its run still waits for a worker (queued, not yet running)' }),
      },
      { description: 'Where the call stands; filter the list with pipeline_status' },
    ),
    recorded_at_source: Type.Union([Type.Literal('client'), Type.Literal('file'), Type.Literal('upload')], { description: 'Where recorded_at comes from: `client` (sent with the recording or set since), `file` (the audio\'s own tags), `upload` (when the recording arrived here, uploaded or imported)' }),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Recording' },
);

/** `pipeline`: read from its runs; without it, what the recording's own state says (a new card has no runs). */
export function presentRecording(recording: Recording, pipeline?: Pipeline) {
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
    recorded_at: recording.recorded_at,
    pipeline: pipeline ?? pipelineOfNew(recording.status, recording.error_code, recording.error_message),
    recorded_at_source: recording.recorded_at_source as 'client' | 'file' | 'upload',
    created_at: recording.created_at,
    updated_at: recording.updated_at,
  };
}
