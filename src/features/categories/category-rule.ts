// A category's rule and its evaluation on one transcript: conditions over what was said (phrases,
// said or not, by a speaker, within the first seconds), what was meant (a sentence like a given
// one, by sentence embeddings), the talk statistics (of the call or of a speaker) and the
// sentiment (of a speaker, over the call or a third of it), all of them or any.
// Pure: the transcript's words, segments, statistics, sentiment and segment vectors in, met or not out.
import { Type, type Static } from '@sinclair/typebox';
import type { SpeakerSegment, SpeakerWord } from '../../engines/transcription/types.ts';
import type { TalkStats } from '../../core/transcripts/talk-stats.ts';
import type { TranscriptSentiment } from '../../core/transcripts/sentiment.ts';
import { answerByPhrases, speakerIn, type TranscriptParts } from '../../core/transcripts/phrase-rules.ts';
import { cosineSimilarity } from '../../engines/text/sentence-encoder.ts';

const Speaker = Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A speaker label ("agent", "customer"); absent: anyone, or the whole call' }));
const Comparison = Type.Union([Type.Literal('above'), Type.Literal('below')]);

const PhraseCondition = Type.Object(
  {
    type: Type.Literal('phrase'),
    phrases: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 50, description: 'Any of these, compared as phrase rules of questions are' }),
    said: Type.Optional(Type.Boolean({ description: 'true (default): one is said; false: none is' })),
    speaker: Speaker,
    within_seconds: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 86_400 })),
  },
  { additionalProperties: false },
);
/**
 * A sentence meaning the same as one said: cosine similarity of Universal Sentence Encoder vectors
 * at least this, by default (chosen on a few dev pairs: paraphrases 0.6–0.76, unrelated turns of
 * the same calls 0.37–0.58). bench/similar-to.ts measures it since: on sentences that share the
 * rule's topic it rarely fires and is no better than chance (docs/benches.md).
 */
export const SIMILAR_THRESHOLD = 0.6;
const SimilarCondition = Type.Object(
  {
    type: Type.Literal('similar_to'),
    text: Type.String({ minLength: 1, maxLength: 300, description: 'A sentence as a speaker would say it ("I want my money back"): met when a segment means much the same' }),
    threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: `Cosine similarity of sentence embeddings a segment must reach (default ${SIMILAR_THRESHOLD}; higher is stricter)` })),
    speaker: Speaker,
    within_seconds: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 86_400, description: 'Only segments starting in the first seconds of the call' })),
  },
  { additionalProperties: false },
);
export const talkMetrics = ['silence_seconds', 'overlap_seconds', 'interruptions', 'talk_ratio', 'talk_seconds', 'words_per_minute', 'longest_turn_seconds'] as const;
const TalkCondition = Type.Object(
  {
    type: Type.Literal('talk'),
    metric: Type.Union(talkMetrics.map((m) => Type.Literal(m)), { description: 'silence_seconds and overlap_seconds are the call\'s; the others a speaker\'s (interruptions: the call\'s without a speaker)' }),
    speaker: Speaker,
    op: Comparison,
    value: Type.Number(),
  },
  { additionalProperties: false },
);
const SentimentCondition = Type.Object(
  {
    type: Type.Literal('sentiment'),
    speaker: Speaker,
    part: Type.Optional(Type.Union([Type.Literal('mean'), Type.Literal('first_third'), Type.Literal('last_third')], { description: 'mean (default), or the first or last third of the call' })),
    op: Comparison,
    value: Type.Number({ minimum: -1, maximum: 1 }),
  },
  { additionalProperties: false },
);

export const CategoryRuleSchema = Type.Object(
  {
    match: Type.Union([Type.Literal('all'), Type.Literal('any')], { description: 'all: every condition holds; any: one does' }),
    conditions: Type.Array(Type.Union([PhraseCondition, SimilarCondition, TalkCondition, SentimentCondition]), { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false, $id: 'CategoryRule' },
);
export type CategoryRule = Static<typeof CategoryRuleSchema>;
type Condition = CategoryRule['conditions'][number];

export interface CategorizedTranscript {
  segments: SpeakerSegment[];
  words: SpeakerWord[];
  /** Phrases keyword spotting heard in the audio: a phrase condition is met by them too, as a question's phrase rule is. */
  spotted?: TranscriptParts['spotted'];
  stats: TalkStats;
  sentiment: Pick<TranscriptSentiment, 'segments' | 'speakers'>;
  /** One vector per segment, when a rule has a `similar_to` condition, with each such condition's text's vector. */
  meaning?: { segments: readonly (readonly number[])[]; texts: ReadonlyMap<string, readonly number[]> };
}

/** The `similar_to` texts of rules: what must be embedded to evaluate them. */
export const similarTexts = (rules: readonly CategoryRule[]): string[] => [...new Set(rules.flatMap((rule) => rule.conditions.flatMap((c) => (c.type === 'similar_to' ? [c.text] : []))))];

/** The highest similarity of `text` to a segment in scope (a speaker's, starting in the first seconds); -1 when none is. */
export function bestSimilarity(transcript: CategorizedTranscript, text: string, scope: { speaker?: string | undefined; within_seconds?: number | undefined }): number {
  const target = transcript.meaning?.texts.get(text);
  if (!target) throw new Error(`no vector for "${text}"`);
  let best = -1;
  transcript.segments.forEach((segment, i) => {
    const vector = transcript.meaning!.segments[i];
    if (!vector || segment.text.trim() === '') return;
    if (scope.speaker && segment.speaker !== scope.speaker) return;
    if (scope.within_seconds !== undefined && segment.start >= scope.within_seconds) return;
    best = Math.max(best, cosineSimilarity(vector, target));
  });
  return best;
}

const compare = (value: number | null | undefined, op: 'above' | 'below', limit: number) => value !== null && value !== undefined && (op === 'above' ? value > limit : value < limit);

/**
 * Whether a condition holds. Its speaker is read as questions read one (speakerIn): in any case,
 * and where the transcript cannot tell speakers apart, a phrase or a meaning is looked for in
 * everyone's words (as a question's is), while a speaker's talk or sentiment cannot be known and
 * the condition does not hold.
 */
function holds(condition: Condition, transcript: CategorizedTranscript): boolean {
  const speaker = condition.speaker === undefined ? undefined : speakerIn(transcript, condition.speaker);
  const unknownSpeaker = condition.speaker !== undefined && speaker === undefined;
  switch (condition.type) {
    case 'phrase': {
      const text = transcript.segments.map((s) => s.text).join(' ');
      const answer = answerByPhrases(
        { id: 'category', text: 'category', phrases: condition.phrases, ...(speaker ? { speaker } : {}), ...(condition.within_seconds ? { within_seconds: condition.within_seconds } : {}) },
        { text, segments: transcript.segments, words: transcript.words, ...(transcript.spotted ? { spotted: transcript.spotted } : {}) },
      );
      return answer.answer === (condition.said ?? true);
    }
    case 'similar_to':
      return bestSimilarity(transcript, condition.text, { speaker, within_seconds: condition.within_seconds }) >= (condition.threshold ?? SIMILAR_THRESHOLD);
    case 'talk': {
      const { stats } = transcript;
      if (condition.metric === 'silence_seconds' || condition.metric === 'overlap_seconds') return compare(stats[condition.metric], condition.op, condition.value);
      if (condition.metric === 'interruptions' && !condition.speaker) return compare(stats.interruptions, condition.op, condition.value);
      if (unknownSpeaker) return false;
      const speakers = speaker ? stats.speakers.filter((s) => s.speaker === speaker) : stats.speakers;
      return speakers.some((s) => compare(s[condition.metric as Exclude<(typeof talkMetrics)[number], 'silence_seconds' | 'overlap_seconds'>], condition.op, condition.value));
    }
    case 'sentiment': {
      const part = condition.part ?? 'mean';
      if (!condition.speaker) {
        // The whole call: the mean of its segments' scores (in the part asked for).
        const end = Math.max(0, ...transcript.segments.map((s) => s.end));
        const inPart = (s: SpeakerSegment) => part === 'mean' || (part === 'first_third' ? (s.start + s.end) / 2 < end / 3 : (s.start + s.end) / 2 >= (2 * end) / 3);
        const scores = transcript.segments.flatMap((s, i) => (inPart(s) ? [transcript.sentiment.segments[i] ?? 0] : []));
        return scores.length > 0 && compare(scores.reduce((sum, v) => sum + v, 0) / scores.length, condition.op, condition.value);
      }
      if (unknownSpeaker) return false;
      return compare(transcript.sentiment.speakers.find((s) => s.speaker === speaker)?.[part], condition.op, condition.value);
    }
  }
}

/** Whether the transcript meets the rule. */
export function meets(rule: CategoryRule, transcript: CategorizedTranscript): boolean {
  const results = rule.conditions.map((condition) => holds(condition, transcript));
  return rule.match === 'all' ? results.every(Boolean) : results.some(Boolean);
}
