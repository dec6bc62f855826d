// JSON cards of transcription scenarios, runs and transcripts, with their schemas.
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { readStored } from '../db/stored-json.ts';
import type { TranscriptionRunsTable, TranscriptsTable } from '../db/tables.ts';
import { transcriptionEngineNames } from '../engines/transcription/registry.ts';
import type { Segment, Word } from '../engines/transcription/types.ts';
import { presentRunFields, runCardFields } from './run.ts';
import { RetrySettings, SelectionSchema } from './scenario.ts';
import { StringEnum, DateTime, Nullable } from './schema-types.ts';

type TranscriptionRun = Selectable<TranscriptionRunsTable>;
type TranscriptRow = Selectable<TranscriptsTable>;

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

export const SegmentSchema = Type.Object({ start: Type.Number(), end: Type.Number(), text: Type.String() });
export const WordSchema = Type.Object({ start: Type.Number(), end: Type.Number(), word: Type.String(), confidence: Type.Number() });
const StoredSegments = Type.Array(SegmentSchema);
const StoredWords = Type.Array(WordSchema);

/** A stored transcript's segments and words, checked against their schemas. */
export function transcriptParts(transcript: Pick<TranscriptRow, 'id' | 'segments' | 'words'>): { segments: Segment[]; words: Word[] } {
  return {
    segments: readStored(StoredSegments, transcript.segments, `transcript ${transcript.id} segments`),
    words: readStored(StoredWords, transcript.words, `transcript ${transcript.id} words`),
  };
}

export const TranscriptCard = Type.Object(
  {
    id: Type.String({ description: 'A UUID' }),
    transcription_run_id: Type.String(),
    recording_id: Type.String(),
    language: Type.String(),
    duration_seconds: Nullable(Type.Number()),
    text: Type.String(),
    segments: Type.Array(SegmentSchema),
    words: Type.Array(WordSchema),
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
    ...transcriptParts(transcript),
    ...(transcript.summary !== null ? { summary: transcript.summary } : {}),
    created_at: transcript.created_at,
  };
}
