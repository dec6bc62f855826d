// JSON cards of transcription scenarios, runs, transcripts and executions, with their schemas.
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { ExecutionsTable, TranscriptionRunsTable, TranscriptsTable } from '../db/tables.ts';

type TranscriptionRun = Selectable<TranscriptionRunsTable>;
type TranscriptRow = Selectable<TranscriptsTable>;
/** An execution row with the status and counts computed from its runs. */
export type ExecutionView = Selectable<ExecutionsTable> & { status: 'queued' | 'running' | 'completed' | 'completed_with_errors'; counts: Record<'queued' | 'running' | 'completed' | 'failed' | 'cancelled', number> };
import { transcriptionEngineNames } from '../engines/transcription/registry.ts';
import type { Segment, Word } from '../engines/transcription/types.ts';
import { presentRunFields, runCardFields } from './run.ts';
import { StringEnum, DateTime, JsonObject, Nullable } from './schema-types.ts';

export const RetrySettings = Type.Object({
  max_attempts: Type.Integer({ minimum: 1, maximum: 10, description: 'Attempts of a retryable failure inside one run' }),
  backoff_seconds: Type.Number({ minimum: 0, maximum: 3600, description: 'First wait; doubles each attempt' }),
});

export const SelectionSchema = Type.Object({
  metadata: JsonObject,
  statuses: Type.Array(Type.String(), { description: 'Recording statuses an execution without recording_ids takes (default completed)' }),
});

export const TranscriptionOptions = Type.Object({
  word_timestamps: Type.Boolean(),
  summary: Type.Boolean({ description: 'Add a summary to the transcript (basic engine)' }),
  base_url: Type.Optional(Nullable(Type.String({ description: 'openai engine: the server base URL (default HARK_OPENAI_BASE_URL)' }))),
  prompt: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
});

export const TranscriptionScenarioCard = Type.Object(
  {
    id: Type.String({ description: 'sct-<uuid>' }),
    name: Type.String(),
    engine: StringEnum(transcriptionEngineNames),
    model: Type.String(),
    language: Type.String({ description: '"auto" or a language code' }),
    options: TranscriptionOptions,
    auto: Type.Boolean({ description: 'Runs by itself after preparation; at most one per workspace' }),
    retry: RetrySettings,
    selection: SelectionSchema,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'TranscriptionScenario' },
);


export const TranscriptionRunCard = Type.Object(
  {
    id: Type.String({ description: 'trn-<uuid>' }),
    transcription_scenario_id: Type.String(),
    transcript_id: Nullable(Type.String({ description: 'The transcript, once completed' })),
    ...runCardFields,
  },
  { $id: 'TranscriptionRun' },
);

export function presentTranscriptionRun(run: TranscriptionRun) {
  return { id: run.id, transcription_scenario_id: run.transcription_scenario_id, transcript_id: run.transcript_id, ...presentRunFields(run) };
}

export const TranscriptCard = Type.Object(
  {
    id: Type.String({ description: 'A UUID' }),
    transcription_run_id: Type.String(),
    recording_id: Type.String(),
    language: Type.String(),
    duration_seconds: Nullable(Type.Number()),
    text: Type.String(),
    segments: Type.Array(Type.Object({ start: Type.Number(), end: Type.Number(), text: Type.String() })),
    words: Type.Array(Type.Object({ start: Type.Number(), end: Type.Number(), word: Type.String(), confidence: Type.Number() })),
    summary: Type.Optional(Type.String({ description: 'Present only when the scenario enables summary' })),
    created_at: DateTime,
  },
  { $id: 'Transcript' },
);

export function presentTranscript(transcript: TranscriptRow) {
  return {
    id: transcript.id,
    transcription_run_id: transcript.transcription_run_id,
    recording_id: transcript.recording_id,
    language: transcript.language,
    duration_seconds: transcript.duration_seconds,
    text: transcript.text,
    segments: transcript.segments as Segment[],
    words: transcript.words as Word[],
    ...(transcript.summary !== null ? { summary: transcript.summary } : {}),
    created_at: transcript.created_at,
  };
}

export const ExecutionCard = Type.Object(
  {
    id: Type.String({ description: 'A UUID; also the jobId of its child runs' }),
    kind: Type.Union([Type.Literal('transcription'), Type.Literal('analysis')]),
    scenario_id: Type.String(),
    status: StringEnum(['queued', 'running', 'completed', 'completed_with_errors']),
    recording_ids: Type.Array(Type.String()),
    counts: Type.Object({ queued: Type.Integer(), running: Type.Integer(), completed: Type.Integer(), failed: Type.Integer(), cancelled: Type.Integer() }),
    idempotency_key: Type.String(),
    created_at: DateTime,
  },
  { $id: 'Execution' },
);

export function presentExecution(execution: ExecutionView) {
  return {
    id: execution.id,
    kind: execution.kind as 'transcription' | 'analysis',
    scenario_id: execution.scenario_id,
    status: execution.status,
    recording_ids: execution.recording_ids,
    counts: execution.counts,
    idempotency_key: execution.idempotency_key,
    created_at: execution.created_at,
  };
}

export const ExecutionBody = Type.Object(
  {
    recording_ids: Type.Optional(Type.Array(Type.String(), { maxItems: 10_000, description: 'Omit to use the scenario\'s selection' })),
    idempotency_key: Type.String({ minLength: 1, maxLength: 255 }),
  },
  { additionalProperties: false },
);
