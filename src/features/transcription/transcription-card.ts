// JSON cards of transcription scenarios, runs and transcripts, with their schemas.
import { Type, type Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { readStored } from '../../platform/db/stored-json.ts';
import type { TranscriptionRunsTable, TranscriptsTable } from '../../platform/db/tables.ts';
import { transcriptionEngineNames } from '../../engines/transcription/registry.ts';
import type { SpeakerSegment, SpeakerWord } from '../../engines/transcription/types.ts';
import { talkStats, TalkStatsSchema, type TalkStats } from './talk-stats.ts';

export { TalkStatsSchema, type TalkStats };
import { presentRunFields, runCardFields } from '../../core/runs/run-card.ts';
import { RetrySettings, SelectionSchema } from '../../core/scenarios/scenario-card.ts';
import { StringEnum, DateTime, Nullable } from '../../http/schemas/schema-types.ts';
import { transcriptSentiment, TranscriptSentimentSchema } from './sentiment.ts';
import { SpotSchema, VocabularySchema, type Vocabulary } from './vocabulary.ts';
import { keyPhrases, KeyPhraseSchema } from './key-phrases.ts';
import { ChapterSchema, wholeCall } from './chapters.ts';

type TranscriptionRun = Selectable<TranscriptionRunsTable>;
type TranscriptRow = Selectable<TranscriptsTable>;

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
  prompt: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  channels: Type.Optional(
    Type.Union(channelModes.map((mode) => Type.Literal(mode)), {
      description: '"separate" transcribes each channel of the audio on its own (agent and customer on their own channels); "mix" transcribes the channels mixed to one; "auto" (the default) is "separate" for audio of 2 to 8 channels',
    }),
  ),
  speaker_labels: Type.Optional(
    Type.Record(Type.String({ pattern: '^[0-7]$' }), Type.String({ minLength: 1, maxLength: 64 }), {
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

const speakerFields = {
  channel: Type.Integer({ minimum: 0, description: 'The audio channel it was said on (0 for audio transcribed mixed)' }),
  speaker: Type.String({ description: 'The channel\'s speaker label ("agent", "customer"), else "channel_<n>"' }),
};
export const SegmentSchema = Type.Object({ start: Type.Number(), end: Type.Number(), text: Type.String(), ...speakerFields });
export const WordSchema = Type.Object({
  start: Type.Number(),
  end: Type.Number(),
  word: Type.String({ description: 'The word as recognised (what search, phrase rules and redaction read)' }),
  punctuated_word: Type.Optional(Type.String({ description: 'The word as the formatted text writes it (capital, punctuation): with the scenario option format, on engines that write none' })),
  confidence: Type.Number(),
  ...speakerFields,
});
// Transcripts stored before speakers existed have neither field: they were all channel 0.
const StoredSegments = Type.Array(Type.Composite([Type.Omit(SegmentSchema, ['channel', 'speaker']), Type.Partial(Type.Object(speakerFields))]));
const StoredWords = Type.Array(Type.Composite([Type.Omit(WordSchema, ['channel', 'speaker']), Type.Partial(Type.Object(speakerFields))]));

const withSpeaker = <T extends { channel?: number | undefined; speaker?: string | undefined }>(item: T) => ({
  ...item,
  channel: item.channel ?? 0,
  speaker: item.speaker ?? 'channel_0',
});

/** A stored transcript's segments and words, checked against their schemas. */
export function transcriptParts(transcript: Pick<TranscriptRow, 'id' | 'segments' | 'words'>): { segments: SpeakerSegment[]; words: SpeakerWord[] } {
  return {
    segments: readStored(StoredSegments, transcript.segments, `transcript ${transcript.id} segments`).map(withSpeaker),
    words: readStored(StoredWords, transcript.words, `transcript ${transcript.id} words`).map(withSpeaker),
  };
}



export const SpottedSchema = Type.Object({
  phrase: Type.String({ description: 'The phrase as the scenario spots it, in lower case' }),
  start: Type.Number(),
  end: Type.Number(),
  channel: Type.Integer(),
  speaker: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
});
export type Spotted = Static<typeof SpottedSchema>;

/** The phrases a transcript's audio was found to say ([] when its scenario spots none). */
export function transcriptSpotted(transcript: Pick<TranscriptRow, 'id' | 'spotted'>): Spotted[] {
  return transcript.spotted === null ? [] : readStored(Type.Array(SpottedSchema), transcript.spotted, `transcript ${transcript.id} spotted`);
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
    stats: TalkStatsSchema,
    sentiment: TranscriptSentimentSchema,
    spotted: Type.Array(SpottedSchema, { description: "The scenario's spot phrases found in the audio by keyword spotting, in time order ([] when it spots none)" }),
    key_phrases: Type.Array(KeyPhraseSchema, { description: 'What the call is about: up to 10 key phrases, best first, weighed by how often the call says them and how rarely spoken English does' }),
    chapters: Type.Array(ChapterSchema, { description: 'The call cut where its subject changes, in time order; one chapter for a short call or a scenario without chapters ([] when nothing was said)' }),
    version: Type.Integer({ minimum: 1, description: '1 as transcribed; each correction makes the next version, the previous ones kept' }),
    previous_transcript_id: Nullable(Type.String({ description: 'The version this one corrects' })),
    corrected_by: Nullable(Type.String({ description: 'Who made this version: an account id (acc-…) or an API key id (key-…); null as transcribed' })),
    created_at: DateTime,
  },
  { $id: 'Transcript' },
);

/** Talk statistics as stored, or computed from the parts for transcripts stored before them. */
export function transcriptStats(transcript: TranscriptRow, parts: { segments: SpeakerSegment[]; words: SpeakerWord[] }): TalkStats {
  return transcript.stats === null ? talkStats(parts.segments, parts.words, transcript.duration_seconds) : readStored(TalkStatsSchema, transcript.stats, `transcript ${transcript.id} stats`);
}

export function presentTranscript(transcript: TranscriptRow) {
  const parts = transcriptParts(transcript);
  return {
    id: transcript.id,
    transcription_run_id: transcript.transcription_run_id,
    recording_id: transcript.recording_id,
    language: transcript.language,
    duration_seconds: transcript.duration_seconds,
    text: transcript.text,
    ...parts,
    ...(transcript.summary !== null ? { summary: transcript.summary } : {}),
    stats: transcriptStats(transcript, parts),
    sentiment: transcript.sentiment === null ? transcriptSentiment(parts.segments, transcript.duration_seconds) : readStored(TranscriptSentimentSchema, transcript.sentiment, `transcript ${transcript.id} sentiment`),
    spotted: transcriptSpotted(transcript),
    key_phrases: transcript.key_phrases === null ? keyPhrases(parts.segments) : readStored(Type.Array(KeyPhraseSchema), transcript.key_phrases, `transcript ${transcript.id} key phrases`),
    chapters: transcript.chapters === null ? wholeCall(parts.segments) : readStored(Type.Array(ChapterSchema), transcript.chapters, `transcript ${transcript.id} chapters`),
    version: transcript.version,
    previous_transcript_id: transcript.previous_transcript_id,
    corrected_by: transcript.corrected_by,
    created_at: transcript.created_at,
  };
}
