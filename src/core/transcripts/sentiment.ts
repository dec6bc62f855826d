// Sentiment along a call, without a language model: each segment and each sentence scored from -1
// (negative) to 1 (positive) by wink-nlp's English lexicon (with its negation and intensifier
// handling), and per speaker the mean over their segments and the means of the call's first and
// last thirds (did the customer end happier than they began?). Sentences are the formatted text's
// (a segment cut after each word that ends one), timed by their words. Scored when a transcript
// (or a corrected version) is stored; a 1,000-sentence call takes about 0.1 s.
import { Type, type Static } from '@sinclair/typebox';
import winkNLP, { type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { SpeakerSegment, SpeakerWord } from '../../engines/transcription/types.ts';
import { round } from './round.ts';
import { wordsBySegment } from './segment-words.ts';

export const SpeakerSentimentSchema = Type.Object({
  speaker: Type.String(),
  mean: Type.Number({ description: 'Mean of their segments, -1 to 1' }),
  first_third: Nullable(Type.Number({ description: 'Mean of their segments in the first third of the call; null when they say nothing there' })),
  last_third: Nullable(Type.Number({ description: 'Mean of their segments in the last third of the call' })),
  segments: Type.Integer(),
});
export const SentenceSentimentSchema = Type.Object({
  segment: Type.Integer({ description: 'The index in `segments` of the segment the sentence is in' }),
  start: Type.Number(),
  end: Type.Number(),
  speaker: Type.String(),
  text: Type.String(),
  score: Type.Number({ minimum: -1, maximum: 1 }),
});
export const TranscriptSentimentSchema = Type.Object(
  {
    segments: Type.Array(Type.Number({ minimum: -1, maximum: 1 }), { description: "Each segment's score, in the order of `segments`" }),
    sentences: Type.Array(SentenceSentimentSchema, { description: 'Each sentence of the text, in order, with its times and score' }),
    speakers: Type.Array(SpeakerSentimentSchema),
  },
  { $id: 'TranscriptSentiment', description: 'Sentiment from a lexicon (wink-nlp), -1 negative … 1 positive' },
);
export type TranscriptSentiment = Static<typeof TranscriptSentimentSchema>;
/** Sentiment as stored: rows written before sentences were kept lack them. */
export const StoredSentimentSchema = Type.Composite([Type.Omit(TranscriptSentimentSchema, ['sentences']), Type.Partial(Type.Pick(TranscriptSentimentSchema, ['sentences']))]);
export type StoredSentiment = Static<typeof StoredSentimentSchema>;

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
const POLITE_NO = /\bno,?\s+(?=(?:thanks|thank you|that'?s (?:fine|all|great|okay)|that is (?:fine|all|great|okay))\b)/gi;
/** "No problem", "not a problem", "no worries": courtesy, no trouble (with "no" left out, "problem" scored -0.4). */
const NO_TROUBLE = /\b(?:no|not an?|not any)\s+(?:problems?|worries|worry|trouble)\b/gi;
const OPENING_FILLER = /(^|[.?!]\s+)(?:okay|ok|alright|all right|right|well|so),?\s+(?=\w)/gi;

/**
 * An apology is courtesy, not upset ("I'm sorry about that", "Sorry, could you repeat that?", "I
 * apologise for the wait": the lexicon scored them -0.5 and -0.38, so an agent's empathy turned
 * their lane red): the apology, with the trouble it names, is left out of the judgement; what else
 * the sentence says still counts ("I'm sorry but this is ridiculous").
 */
const TROUBLE = String.raw`(?:\s+(?:about|for|to hear)(?:\s+(?:that|this|it|(?:the|any|all the)\s+(?:inconvenience|trouble|wait|delay|confusion|mix-up|hassle)))?)?,?`;
/** A first-person apology, or a sentence opened by "sorry": not "you'll be sorry about this". */
const APOLOGY = new RegExp(String.raw`(^\s*|[.?!]\s+|\b(?:i'?m|i am|we'?re|we are)\s+)(?:(?:so|very|really|truly|terribly)\s+)?(?:sorry|apologies)\b${TROUBLE}|\b(?:i|we)\s+apologi[sz]e\b${TROUBLE}`, 'gi');
/** What is left of a sentence without its apology: the sentence's own start or end kept. */
const withoutApology = (text: string) => text.replace(APOLOGY, (_match, lead: string | undefined) => (lead && /^[.?!]/.test(lead) ? lead : '')).trimStart();

/**
 * Words the lexicon reads as judging where a call uses them otherwise: "right" in "right now",
 * "right away" (a time, not approval: "I want to cancel my contract right now" scored +0.18), and
 * "want" (a request, not a liking: "I want a refund" scored +0.2).
 */
const NOT_JUDGING = /\bright(?=\s+(?:now|away|here|there|after|before|back|then)\b)|\b(?:want|wants|wanted|wanting)\b/gi;

/** Words that turn what follows around ("not", "cannot", "never", "don't"…). */
const NEGATION = /\b(?:not|no|never|cannot)\b|n't\b/i;

/** A sentence that is only an acknowledgement ("Okay.", "Alright!"): no judgement (the lexicon scored "Okay." +0.81). */
const ACKNOWLEDGEMENT_ONLY = /^\s*(?:okay|ok|alright|all right|right|well|so|mm+|uh huh|mhm)[\s.,!?]*$/i;

export function scoreText(text: string): number {
  if (ACKNOWLEDGEMENT_ONLY.test(text)) return 0;
  const instance = wink();
  const judged = withoutApology(text.replace(NO_TROUBLE, '').replace(POLITE_NO, '')).replace(OPENING_FILLER, '$1').replace(NOT_JUDGING, '');
  const score = instance.readDoc(judged).out(instance.its.sentiment) as number;
  // A negative word denied is no praise ("I cannot cancel it today" scored +0.2, as "not bad"):
  // where the sentence reads positive only by its negation, it is neutral.
  if (score > 0 && NEGATION.test(judged)) {
    const affirmed = judged.replace(/\b(?:not|never|no)\b\s*/gi, '').replace(/\b(can)not\b/gi, '$1').replace(/n't\b/gi, '');
    if ((instance.readDoc(affirmed).out(instance.its.sentiment) as number) < 0) return 0;
  }
  return round(score);
}

/** A word as stored: as recognised, and as the formatted text writes it (empty where a neighbour took it in: "twenty five" → "25", ""). */
export type SentenceWord = Pick<SpeakerWord, 'start' | 'end' | 'channel' | 'word'> & { punctuated_word?: string | undefined };

const SENTENCE_END = /[.?!]["”’)\]]*$/;

/**
 * The sentences of each segment: cut after each word the formatted text ends a sentence with
 * (words it wrote into a neighbour, "twenty five" → "25." and "", stay with that neighbour), timed
 * by their words. A segment whose words carry no written form (an engine that punctuates its own
 * text, or times no words) is cut in its text where `.`, `?` or `!` is followed by a space, each
 * sentence timed by its share of the segment's characters.
 */
export function sentencesOf(segments: readonly SpeakerSegment[], words: readonly SentenceWord[]): { segment: number; start: number; end: number; speaker: string; text: string }[] {
  const owned = wordsBySegment(segments, words);
  return segments.flatMap((segment, i) => {
    const own = owned[i]!.map((k) => words[k]!);
    const at = (start: number, end: number, text: string) => ({ segment: i, start: round(start), end: round(Math.max(start, end)), speaker: segment.speaker, text });
    if (!own.some((w) => w.punctuated_word !== undefined)) {
      const pieces = segment.text.split(/(?<=[.?!]["”’)\]]*)\s+/).map((piece) => piece.trim()).filter(Boolean);
      const length = segment.text.length || 1;
      const span = Math.max(0, segment.end - segment.start);
      let from = 0;
      return pieces.map((piece) => {
        const offset = segment.text.indexOf(piece, from);
        from = offset + piece.length;
        return at(segment.start + (span * offset) / length, segment.start + (span * from) / length, piece);
      });
    }
    const out: ReturnType<typeof at>[] = [];
    let sentence: SentenceWord[] = [];
    let ended = false;
    const close = () => {
      const text = sentence.map((w) => w.punctuated_word ?? w.word).filter(Boolean).join(' ');
      if (text !== '') out.push(at(sentence[0]!.start, sentence.at(-1)!.end, text));
      sentence = [];
      ended = false;
    };
    for (const word of own) {
      const written = word.punctuated_word ?? word.word;
      if (ended && written !== '') close();
      sentence.push(word);
      if (SENTENCE_END.test(written)) ended = true;
    }
    if (sentence.length > 0) close();
    return out;
  });
}

/** Each sentence of the segments (sentencesOf) with its score. */
export function scoredSentences(segments: readonly SpeakerSegment[], words: readonly SentenceWord[]): TranscriptSentiment['sentences'] {
  return sentencesOf(segments, words).map((sentence) => ({ ...sentence, score: scoreText(sentence.text) }));
}

export function transcriptSentiment(segments: readonly SpeakerSegment[], words: readonly SentenceWord[], durationSeconds: number | null): TranscriptSentiment {
  const scores = segments.map((segment) => scoreText(segment.text));
  const sentences = scoredSentences(segments, words);
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
  return { segments: scores, sentences, speakers };
}

