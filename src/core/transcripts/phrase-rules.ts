// Phrase rules over a transcript: the part of a call a rule looks at (a speaker, the first N
// seconds), and whether any of its phrases is said there, with the matched words and their times.
// Read by analysis questions that carry phrases and by call categories.
import type { AnalysisAnswer } from '../../engines/analysis/types.ts';
import type { SpeakerSegment, SpeakerWord } from '../../engines/transcription/types.ts';
import { severalSpeakers, turnsText } from './speakers.ts';
import { matchPhrasesIn, normalWords, shownTokens, timedTokens, type TimedToken } from './phrase-match.ts';

/** What a phrase rule names: the question (or condition) it answers, its phrases and its scope. */
export interface PhraseRule extends Scope {
  id: string;
  text: string;
  phrases: string[];
}

export interface TranscriptParts {
  text: string;
  segments: SpeakerSegment[];
  words: SpeakerWord[];
  /** Phrases keyword spotting found in the audio (the transcription scenario's `spot`). */
  spotted?: readonly { phrase: string; start: number; end: number; speaker: string; confidence: number }[];
}

/**
 * Whether the transcript tells its speakers apart: it has several channels, or its one channel
 * was named (by the recording's metadata). A mono call's "channel_0" is everyone.
 */
export function speakersKnown(parts: Pick<TranscriptParts, 'segments'>): boolean {
  const channels = new Set(parts.segments.map((segment) => segment.channel));
  return channels.size > 1 || parts.segments.some((segment) => !/^channel_\d+$/.test(segment.speaker));
}

/**
 * The speaker a rule names, as the transcript names it ("Agent" is its "agent"), or undefined
 * where the transcript cannot tell that speaker apart: its one channel is unnamed, or its channels
 * are all unnamed (channel_0, channel_1: transcribed before the scenario named them). Where the
 * channels have names, a speaker the transcript lacks is kept: that speaker said nothing.
 */
export function speakerIn(parts: Pick<TranscriptParts, 'segments'>, speaker: string): string | undefined {
  const speakers = new Set(parts.segments.map((segment) => segment.speaker));
  const named = speakers.has(speaker) ? speaker : ([...speakers].find((s) => s.toLowerCase() === speaker.toLowerCase()) ?? speaker);
  const unnamed = [...speakers].every((s) => /^channel_\d+$/.test(s));
  return speakersKnown(parts) && (speakers.has(named) || !unnamed) ? named : undefined;
}

export interface Scope {
  speaker?: string | undefined;
  within_seconds?: number | undefined;
}

const whole = (q: Scope) => q.speaker === undefined && q.within_seconds === undefined;

/** The part of a transcript a question may look at. */
export function scopedTranscript(parts: TranscriptParts, scope: Scope): TranscriptParts {
  if (whole(scope)) return parts;
  const limit = scope.within_seconds ?? Infinity;
  const mine = <T extends { speaker: string; start: number }>(item: T) => (scope.speaker === undefined || item.speaker === scope.speaker) && item.start < limit;
  const words = parts.words.filter(mine);
  const segments = parts.segments.filter(mine).map((segment) => {
    if (segment.end <= limit) return segment;
    // A segment running past the window keeps only the words said inside it.
    // Without words, the share of its words said by the limit, as if spoken at an even pace.
    const inside = words.filter((w) => w.channel === segment.channel && w.start >= segment.start && w.start < limit);
    const all = segment.text.split(/\s+/).filter(Boolean);
    const share = Math.floor((all.length * (limit - segment.start)) / Math.max(0.001, segment.end - segment.start));
    return { ...segment, end: limit, text: parts.words.length ? inside.map((w) => w.word).join(' ') : all.slice(0, share).join(' ') };
  });
  const text = severalSpeakers(segments) ? turnsText(segments) : segments.map((s) => s.text.trim()).join('\n');
  return { text, segments, words };
}

/** Items grouped by their channel, each group in the order given. */
function byChannel<T extends { channel: number }>(items: readonly T[]): T[][] {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.get(item.channel);
    if (group) group.push(item);
    else groups.set(item.channel, [item]);
  }
  return [...groups.values()];
}

/**
 * Timed tokens of a transcript part, channel by channel: its words, or its segments' words at the
 * segment's times. (In time order across channels, two people talking at once would interleave
 * their words, and neither one's phrase be found.)
 */
function tokensOf(parts: TranscriptParts): TimedToken[][] {
  if (parts.words.length > 0) return byChannel(parts.words).map((words) => timedTokens(words));
  return byChannel(parts.segments).map((segments) => segments.flatMap((s) => normalWords(s.text).map((word) => ({ word, start: s.start, end: s.end }))));
}

/**
 * Places worth showing as evidence: of matches that overlap in time (several phrases of a rule
 * found in one stretch of talk: "this call may be recorded", "call may be recorded"), the best
 * one; up to five, in the order they were said.
 */
function distinctPlaces<M extends { start: number; end: number }>(bestFirst: readonly M[]): M[] {
  const kept: M[] = [];
  for (const m of bestFirst) if (!kept.some((k) => m.start < k.end && k.start < m.end)) kept.push(m);
  return kept.slice(0, 5).sort((a, b) => a.start - b.start);
}

/** The most a yes is trusted whose phrase was said only after a denial ("we can't offer a refund"): uncertain. */
export const DENIED_CONFIDENCE = 0.5;

/** The most a yes heard by spotting one word alone is trusted: uncertain (keyword spotting finds a short word inside longer ones). */
export const SINGLE_WORD_SPOT_CONFIDENCE = 0.55;

/** A phrase rule: true when any phrase is said in the question's part of the transcript (words, else the audio's spotted phrases). */
export function answerByPhrases(question: PhraseRule, parts: TranscriptParts): AnalysisAnswer {
  const scoped = scopedTranscript(parts, question);
  const tokens = tokensOf(scoped);
  let matches = matchPhrasesIn(question.phrases, tokens);
  // A phrase written as the transcript shows it ("$25", "555-247-8139") is found in its shown words.
  const shown = matches.length === 0 ? byChannel(scoped.words).map((words) => shownTokens(words)) : [];
  if (shown.some((run) => run !== null)) matches = matchPhrasesIn(question.phrases, shown.filter((run) => run !== null));
  // A phrase said plainly answers before one said after a denial ("i can't refund it").
  const best = matches.find((m) => !m.denied) ?? matches[0];
  if (!best) {
    // Not in the words: a phrase of the question that spotting heard in the audio answers it.
    const wanted = new Set(question.phrases.map((phrase) => normalWords(phrase).join(' ')));
    const limit = question.within_seconds ?? Infinity;
    const heard = (parts.spotted ?? []).filter((spot) => wanted.has(normalWords(spot.phrase).join(' ')) && (question.speaker === undefined || spot.speaker === question.speaker) && spot.start < limit);
    if (heard.length > 0) {
      return {
        question_id: question.id,
        question: question.text,
        type: 'boolean',
        answer: true,
        // A single word is spotted inside others ("refund" in "recorded for"): measured phrases were several words.
        confidence: Math.min(Math.max(...heard.map((spot) => spot.confidence)), heard.some((spot) => normalWords(spot.phrase).length > 1) ? 1 : SINGLE_WORD_SPOT_CONFIDENCE),
        evidence: distinctPlaces([...heard].sort((a, b) => b.confidence - a.confidence)).map((spot) => ({ text: spot.phrase, start: spot.start, end: spot.end, source: 'audio' as const })),
      };
    }
  }
  return {
    question_id: question.id,
    question: question.text,
    type: 'boolean',
    answer: best !== undefined,
    // Nothing said in the question's part (a speaker the call does not have): false, but unsure.
    // Said only after a denial: yes (the words were said), but uncertain, for a person to hear.
    confidence: best ? Math.min(best.denied ? DENIED_CONFIDENCE : 1, Math.round((1 - best.edits / Math.max(1, normalWords(best.phrase).length)) * 1000) / 1000) : tokens.some((run) => run.length > 0) ? 1 : 0,
    evidence: distinctPlaces(matches).map((m) => ({ text: m.text, start: m.start, end: m.end, source: 'transcript' as const })),
  };
}
