// A transcript as every feature reads it: its stored parts (segments and words with their speakers,
// the phrases spotted), its card with talk statistics, sentiment, key phrases and chapters, and the
// latest transcript of a recording. Transcription writes transcripts; analysis, categories, files
// and reports read them through this module.
import { Type, type Static } from '@sinclair/typebox';
import { sql, type Selectable } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.ts';
import { readStored } from '../../platform/db/stored-json.ts';
import type { TranscriptsTable } from '../../platform/db/tables.ts';
import type { SpeakerSegment, SpeakerWord } from '../../engines/transcription/types.ts';
import { DateTime, Nullable } from '../../http/schemas/schema-types.ts';
import { talkStats, TalkStatsSchema, type TalkStats } from './talk-stats.ts';
import { scoredSentences, StoredSentimentSchema, transcriptSentiment, TranscriptSentimentSchema, type StoredSentiment, type TranscriptSentiment } from './sentiment.ts';
import { keyPhrases, KeyPhraseSchema } from './key-phrases.ts';
import { ChapterSchema, wholeCall } from './chapters.ts';

/** A transcript as features read it: every column but its segment vectors (segment-vectors.ts reads those, for `similar_to` rules). */
export type TranscriptRow = Omit<Selectable<TranscriptsTable>, 'segment_vectors'>;

/** The columns of a TranscriptRow: a transcript read selects these, not the segment vectors (about 0.7 KB a segment once made). */
export const TRANSCRIPT_COLUMNS = [
  'id', 'seq', 'workspace_id', 'transcription_run_id', 'recording_id', 'language', 'duration_seconds', 'text', 'segments', 'words', 'summary', 'stats',
  'created_at', 'version', 'previous_transcript_id', 'current', 'corrected_by', 'sound', 'sentiment', 'spotted', 'key_phrases', 'chapters',
] as const satisfies readonly (keyof TranscriptRow)[];

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

/** The segments' and speakers' sentiment as stored (what category rules read), scored now for a transcript stored before sentiment. */
export function speakerSentimentOf(transcript: Pick<TranscriptRow, 'id' | 'sentiment' | 'duration_seconds'>, parts: { segments: SpeakerSegment[]; words: SpeakerWord[] }): StoredSentiment {
  return transcript.sentiment === null ? transcriptSentiment(parts.segments, parts.words, transcript.duration_seconds) : readStored(StoredSentimentSchema, transcript.sentiment, `transcript ${transcript.id} sentiment`);
}

/** Sentiment as stored, with its sentences scored now for a transcript stored before they were kept (or all of it, before sentiment). */
export function sentimentOf(transcript: Pick<TranscriptRow, 'id' | 'sentiment' | 'duration_seconds'>, parts: { segments: SpeakerSegment[]; words: SpeakerWord[] }): TranscriptSentiment {
  const kept = speakerSentimentOf(transcript, parts);
  return { ...kept, sentences: kept.sentences ?? scoredSentences(parts.segments, parts.words) };
}

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
    sentiment: sentimentOf(transcript, parts),
    spotted: transcriptSpotted(transcript),
    key_phrases: transcript.key_phrases === null ? keyPhrases(parts.segments) : readStored(Type.Array(KeyPhraseSchema), transcript.key_phrases, `transcript ${transcript.id} key phrases`),
    chapters: transcript.chapters === null ? wholeCall(parts.segments) : readStored(Type.Array(ChapterSchema), transcript.chapters, `transcript ${transcript.id} chapters`),
    version: transcript.version,
    previous_transcript_id: transcript.previous_transcript_id,
    corrected_by: transcript.corrected_by,
    created_at: transcript.created_at,
  };
}

export async function latestTranscript(db: Db | Trx, workspaceId: string, recordingId: string): Promise<TranscriptRow | undefined> {
  return db.selectFrom('transcripts').select(TRANSCRIPT_COLUMNS).where('workspace_id', '=', workspaceId).where('recording_id', '=', recordingId).orderBy('seq', 'desc').executeTakeFirst();
}

/** The latest transcript of each of `recordingIds` that has one, by recording id (ids only). */
export async function latestTranscripts(db: Db | Trx, workspaceId: string, recordingIds: string[]): Promise<Map<string, Pick<TranscriptRow, 'id' | 'recording_id' | 'transcription_run_id'>>> {
  if (recordingIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('transcripts')
    .select(['id', 'recording_id', 'transcription_run_id'])
    .distinctOn('recording_id')
    .where('workspace_id', '=', workspaceId)
    .where('recording_id', '=', sql<string>`ANY(${recordingIds}::text[])`)
    .orderBy('recording_id')
    .orderBy('seq', 'desc')
    .execute();
  return new Map(rows.map((row) => [row.recording_id, row]));
}
