// JSON cards of transcription scenarios and runs, with their schemas (a transcript's card is
// core/transcripts/transcript.ts).
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { TranscriptionRunsTable } from '../../platform/db/tables.ts';
import { transcriptionEngineNames } from '../../engines/transcription/registry.ts';
import { presentRunFields, runCardFields } from '../../core/runs/run-card.ts';
import { RetrySettings, ScenarioVersion, SelectionSchema } from '../../core/scenarios/scenario-card.ts';
import { StringEnum, DateTime, Nullable } from '../../http/schemas/schema-types.ts';
import { SpotSchema, VocabularySchema, type Vocabulary } from './vocabulary.ts';

/** The longest prompt a scenario (or a synchronous request) gives an engine that takes one. */
export const MAX_PROMPT_CHARS = 2000;

type TranscriptionRun = Selectable<TranscriptionRunsTable>;

export const channelModes = ['auto', 'separate', 'mix'] as const;
export const redactionKinds = ['credit_card', 'phone_number', 'email', 'us_ssn', 'number_sequence'] as const;

// The call-analytics options are optional in the schema because scenarios and run snapshots stored
// before them lack them; scenario cards always show them, filled with their defaults.
export const TranscriptionOptions = Type.Object({
  word_timestamps: Type.Boolean(),
  summary: Type.Boolean({ description: 'Add a summary to the transcript (basic engine)' }),
  format: Type.Optional(
    Type.Boolean({ description: 'Readable text from engines that write none (pocketsphinx): sentences from the pauses, question marks, capitals, and numbers, money, percentages, times, dates and digit strings as digits; each word gains punctuated_word (a number written over several words is carried by the first, the others write "") (default true)' }),
  ),
  base_url: Type.Optional(Nullable(Type.String({ description: 'openai engine: the server base URL (default HARK_OPENAI_BASE_URL)' }))),
  prompt: Type.Optional(Nullable(Type.String({ maxLength: MAX_PROMPT_CHARS }))),
  channels: Type.Optional(
    Type.Union(channelModes.map((mode) => Type.Literal(mode)), {
      description: '"separate" transcribes each channel of the audio on its own (agent and customer on their own channels); "mix" transcribes the channels mixed to one; "auto" (the default) is "separate" for audio of 2 to 8 channels',
    }),
  ),
  speaker_labels: Type.Optional(
    Type.Record(Type.String({ pattern: '^[0-7]$' }), Type.String({ minLength: 1, maxLength: 64 }), {
      // A key that is no channel number is refused, not dropped.
      additionalProperties: false,
      description: 'The speaker of each channel, by channel number, e.g. {"0": "agent", "1": "customer"}; a channel without a label is "channel_<n>"',
    }),
  ),
  speaker_labels_field: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'A metadata field of the recording whose value overrides speaker_labels for that recording: an object like speaker_labels, or an array of labels by channel',
      }),
    ),
  ),
  redact: Type.Optional(
    Type.Array(Type.Union(redactionKinds.map((kind) => Type.Literal(kind))), {
      uniqueItems: true,
      maxItems: redactionKinds.length,
      description: 'Personal data replaced in the stored transcript (text, segments, words) by [CREDIT_CARD], [PHONE_NUMBER], [EMAIL], [US_SSN], [NUMBER_SEQUENCE], keeping times; detected in digits and in spoken numbers',
    }),
  ),
  redact_audio: Type.Optional(Type.Boolean({ description: 'Also silence the redacted words in a copy of the audio that playback and downloads then serve' })),
  keep_original_audio: Type.Optional(Type.Boolean({ description: 'false: with redact_audio, delete the unredacted audio once the redacted copy exists' })),
  vocabulary: Type.Optional(VocabularySchema),
  spot: Type.Optional(SpotSchema),
  chapters: Type.Optional(
    Type.Boolean({
      description: 'Cut the call into chapters where its subject changes, from sentence embeddings (the Universal Sentence Encoder, on the host); calls under 30 s or 6 segments are one chapter (default true). false: the call is one chapter and the encoder is never loaded',
    }),
  ),
});

/** Defaults of the options a stored scenario or snapshot may lack. */
export const transcriptionOptionDefaults: {
  word_timestamps: boolean;
  summary: boolean;
  format: boolean;
  channels: (typeof channelModes)[number];
  speaker_labels: Record<string, string>;
  speaker_labels_field: string | null;
  redact: (typeof redactionKinds)[number][];
  redact_audio: boolean;
  keep_original_audio: boolean;
  vocabulary: Vocabulary;
  spot: string[];
  chapters: boolean;
} = {
  word_timestamps: true,
  summary: false,
  format: true,
  channels: 'auto',
  speaker_labels: {},
  speaker_labels_field: null,
  redact: [],
  redact_audio: false,
  keep_original_audio: true,
  vocabulary: [],
  spot: [],
  chapters: true,
};

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
    version: ScenarioVersion,
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
