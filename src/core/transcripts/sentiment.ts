// Sentiment along a call, without a language model: each segment scored from -1 (negative) to 1
// (positive) by wink-nlp's English lexicon (with its negation and intensifier handling), and per
// speaker the mean over their segments and the means of the call's first and last thirds (did the
// customer end happier than they began?). Scored when a transcript (or a corrected version) is
// stored; a 1,000-sentence call takes about 0.1 s.
import { Type, type Static } from '@sinclair/typebox';
import winkNLP, { type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { SpeakerSegment } from '../../engines/transcription/types.ts';
import { round } from './round.ts';

export const SpeakerSentimentSchema = Type.Object({
  speaker: Type.String(),
  mean: Type.Number({ description: 'Mean of their segments, -1 to 1' }),
  first_third: Nullable(Type.Number({ description: 'Mean of their segments in the first third of the call; null when they say nothing there' })),
  last_third: Nullable(Type.Number({ description: 'Mean of their segments in the last third of the call' })),
  segments: Type.Integer(),
});
export const TranscriptSentimentSchema = Type.Object(
  {
    segments: Type.Array(Type.Number({ minimum: -1, maximum: 1 }), { description: "Each segment's score, in the order of `segments`" }),
    speakers: Type.Array(SpeakerSentimentSchema),
  },
  { $id: 'TranscriptSentiment', description: 'Sentiment from a lexicon (wink-nlp), -1 negative … 1 positive' },
);
export type TranscriptSentiment = Static<typeof TranscriptSentimentSchema>;

function Nullable<T extends ReturnType<typeof Type.Number>>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

let nlp: WinkMethods | null = null;
const wink = () => (nlp ??= winkNLP(model, ['sbd', 'negation', 'sentiment']));

const mean = (values: readonly number[]) => (values.length === 0 ? null : round(values.reduce((sum, v) => sum + v, 0) / values.length));

/**
 * Words the lexicon reads as judging where a call uses them only to open a reply: "no" before a
 * polite phrase ("No thanks, bye", "No, that is fine": the lexicon scored them -0.4), and "okay",
 * "well", "so"… opening a sentence ("Okay, my account number is…" scored +0.81, as praise).
 */
const POLITE_NO = /\bno,?\s+(?=(?:thanks|thank you|problem|worries|that'?s (?:fine|all|great|okay)|that is (?:fine|all|great|okay))\b)/gi;
const OPENING_FILLER = /(^|[.?!]\s+)(?:okay|ok|alright|all right|right|well|so),?\s+(?=\w)/gi;

export function scoreText(text: string): number {
  const instance = wink();
  const judged = text.replace(POLITE_NO, '').replace(OPENING_FILLER, '$1');
  return round(instance.readDoc(judged).out(instance.its.sentiment) as number);
}

export function transcriptSentiment(segments: readonly SpeakerSegment[], durationSeconds: number | null): TranscriptSentiment {
  const scores = segments.map((segment) => scoreText(segment.text));
  const end = Math.max(durationSeconds ?? 0, ...segments.map((s) => s.end));
  const speakers = [...new Set(segments.map((s) => s.speaker))].map((speaker) => {
    const own = segments.flatMap((segment, i) => (segment.speaker === speaker ? [{ segment, score: scores[i]! }] : []));
    const middle = (s: SpeakerSegment) => (s.start + s.end) / 2;
    return {
      speaker,
      mean: mean(own.map((o) => o.score)) ?? 0,
      first_third: mean(own.filter((o) => middle(o.segment) < end / 3).map((o) => o.score)),
      last_third: mean(own.filter((o) => middle(o.segment) >= (2 * end) / 3).map((o) => o.score)),
      segments: own.length,
    };
  });
  return { segments: scores, speakers };
}
