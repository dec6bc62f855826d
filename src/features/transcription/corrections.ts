// A reviewer's corrections of a transcript: a word's text, or a segment's whole text. Times stay
// with the audio: a corrected word keeps its times; a rewritten segment keeps the times and
// confidence of each word it still has, and spreads its new words, by length, over the time of
// the words they replace. The words of a segment are its channel's words that start inside it.
import type { SpeakerSegment, SpeakerWord } from '../../engines/transcription/types.ts';
import { severalSpeakers, turnsText } from '../../core/transcripts/speakers.ts';
import { round } from '../../core/transcripts/round.ts';
import { wordsBySegment } from '../../core/transcripts/segment-words.ts';

export interface WordCorrection {
  index: number;
  word: string;
}

export interface SegmentCorrection {
  index: number;
  text: string;
}

export interface Corrections {
  words?: WordCorrection[] | undefined;
  segments?: SegmentCorrection[] | undefined;
}

type Word = SpeakerWord & { punctuated_word?: string | undefined };

export interface CorrectedTranscript {
  text: string;
  segments: SpeakerSegment[];
  words: Word[];
  /** Whether words came, went or were timed anew (talk statistics are then counted again). */
  retimed: boolean;
}

export class CorrectionError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** The word as search and phrase rules read it: the written word without surrounding punctuation. */
export const bareWord = (written: string): string => written.replace(/^[^\p{L}\p{N}[]+|[^\p{L}\p{N}\]]+$/gu, '') || written;

/** The transcript's text from its segments, as the transcription wrote it (turns when several speak). */
export function textOf(segments: readonly SpeakerSegment[]): string {
  return severalSpeakers(segments) ? turnsText(segments) : segments.map((s) => s.text.trim()).join(' ');
}

/** New words for `text` over the span its old words (else the segment) took, times by length. */
function spread(text: string, span: { start: number; end: number }, like: { channel: number; speaker: string }): Word[] {
  const tokens = text.split(/\s+/).filter(Boolean);
  const weights = tokens.map((t) => t.length + 1);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const duration = Math.max(0, span.end - span.start);
  let at = span.start;
  return tokens.map((token, i) => {
    const start = at;
    at += (duration * weights[i]!) / total;
    return { start: round(start), end: round(at), word: bareWord(token), punctuated_word: token, confidence: 1, channel: like.channel, speaker: like.speaker };
  });
}

/** The least time a word written into a segment between two others takes (else it shares a neighbour's). */
const MIN_NEW_WORD_SECONDS = 0.08;

/** A word as compared when realigning: its letters and digits, in lower case. */
const key = (written: string): string => bareWord(written).toLowerCase();

/**
 * A segment's words for its rewritten `tokens`: each token that is a word it had (the same word in
 * any case, or a number written as the transcript showed it, "$25") keeps that word's times and
 * confidence, matched in order (the longest common run of words); the other tokens are new words,
 * confidence 1, spread by length over the time between the kept words around them. So correcting
 * "car" to "card" leaves the words around it as they were heard, with the recogniser's doubts
 * (the topics leave doubtful words out), instead of making every word of the segment sure.
 */
function realign(own: readonly Word[], tokens: readonly string[], segment: SpeakerSegment): Word[] {
  // The old words in units: a word with the words that go on its written number ("twenty five dollars" shown "$25").
  const units: Word[][] = [];
  for (const word of own) {
    if (word.punctuated_word === '' && units.length > 0) units.at(-1)!.push(word);
    else units.push([word]);
  }
  const matches = (unit: Word[], token: string) => key(unit[0]!.punctuated_word ?? unit[0]!.word) === key(token) || (unit.length === 1 && key(unit[0]!.word) === key(token));
  // Longest common subsequence of units and tokens.
  const [n, m] = [units.length, tokens.length];
  const best = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) best[i]![j] = matches(units[i]!, tokens[j]!) ? best[i + 1]![j + 1]! + 1 : Math.max(best[i + 1]![j]!, best[i]![j + 1]!);
  const words: Word[] = [];
  let pending: string[] = [];
  let skipped: Word[][] = [];
  let lastUnit = 0;
  let from = Math.min(segment.start, own[0]?.start ?? segment.start);
  /** A word made for a token, that stays the old word it was (its recognised form and confidence). */
  const inherit = (made: Word, old: Word): Word => ({ ...made, word: old.word, confidence: old.confidence });
  // New tokens take the time of the words they replace: one for one where as many, else spread
  // over it. Inserted between two kept words, they take the time between them, or where the words
  // run on without a pause, share their neighbour's time with it. Answers whether `next` (the kept
  // word after them) was placed too.
  const flush = (next?: { unit: Word[]; token: string }): boolean => {
    const [tokens, replacing] = [pending, skipped];
    pending = [];
    skipped = [];
    if (tokens.length === 0) return false;
    if (tokens.length === replacing.length) {
      words.push(...tokens.map((token, k) => spread(token, { start: replacing[k]![0]!.start, end: replacing[k]!.at(-1)!.end }, segment)[0]!));
      return false;
    }
    if (replacing.length > 0) {
      words.push(...spread(tokens.join(' '), { start: replacing[0]![0]!.start, end: replacing.at(-1)!.at(-1)!.end }, segment));
      return false;
    }
    const until = next ? next.unit[0]!.start : Math.max(own.at(-1)?.end ?? segment.end, segment.end);
    const before = words.at(-1);
    if (until - from < MIN_NEW_WORD_SECONDS * tokens.length && before && lastUnit === 1) {
      words.pop();
      const made = spread([before.punctuated_word ?? before.word, ...tokens].join(' '), { start: before.start, end: Math.max(before.end, until) }, segment);
      words.push(inherit(made[0]!, before), ...made.slice(1));
      return false;
    }
    if (until - from < MIN_NEW_WORD_SECONDS * tokens.length && next && next.unit.length === 1) {
      const made = spread([...tokens, next.token].join(' '), { start: from, end: next.unit[0]!.end }, segment);
      words.push(...made.slice(0, -1), inherit(made.at(-1)!, next.unit[0]!));
      return true;
    }
    // No time at all (after a written number that ends the segment): just before the end, so the
    // words still start inside the segment (a word starting at its end belongs to the next).
    const span = until > from ? { start: from, end: until } : { start: Math.max(segment.start, from - MIN_NEW_WORD_SECONDS * tokens.length), end: from };
    words.push(...spread(tokens.join(' '), span, segment));
    return false;
  };
  let [i, j] = [0, 0];
  while (i < n || j < m) {
    if (i < n && j < m && matches(units[i]!, tokens[j]!)) {
      const unit = units[i]!;
      if (!flush({ unit, token: tokens[j]! })) words.push({ ...unit[0]!, punctuated_word: tokens[j]! }, ...unit.slice(1));
      from = unit.at(-1)!.end;
      lastUnit = unit.length;
      i++;
      j++;
    } else if (j < m && (i === n || best[i]![j + 1]! >= best[i + 1]![j]!)) {
      pending.push(tokens[j]!);
      j++;
    } else skipped.push(units[i++]!);
  }
  flush();
  return words;
}

export function applyCorrections(transcript: { segments: readonly SpeakerSegment[]; words: readonly Word[] }, corrections: Corrections): CorrectedTranscript {
  const segments = transcript.segments.map((s) => ({ ...s }));
  const words0 = transcript.words;
  let words: Word[] = transcript.words.map((w) => ({ ...w }));
  const wordEdits = corrections.words ?? [];
  const segmentEdits = corrections.segments ?? [];
  if (wordEdits.length + segmentEdits.length === 0) throw new CorrectionError('', 'has no correction: give words or segments');
  const seen = new Set<string>();
  const once = (target: string, path: string) => {
    if (seen.has(target)) throw new CorrectionError(path, `names ${target}, which an earlier correction corrects: correct it once`);
    seen.add(target);
  };

  const owned = wordsBySegment(segments, words);
  const touched = new Set<number>();
  wordEdits.forEach((edit, i) => {
    const word = words[edit.index];
    if (!word) throw new CorrectionError(`words/${i}/index`, `is not a word of the transcript (it has ${words.length})`);
    once(`word ${edit.index}`, `words/${i}/index`);
    const written = edit.word.trim();
    if (!written || /\s/.test(written)) throw new CorrectionError(`words/${i}/word`, 'must be one word: correct the segment to change the number of words');
    if (word.punctuated_word === '') throw new CorrectionError(`words/${i}/index`, 'is part of a number written by the word before it: correct that word, or the segment');
    words[edit.index] = { ...word, word: bareWord(written), punctuated_word: written, confidence: 1 };
    owned.forEach((own, s) => own.includes(edit.index) && touched.add(s));
  });

  // Segment rewrites replace their words; the words of other segments keep their indexes' order.
  const replaced = new Map<number, Word[]>();
  segmentEdits.forEach((edit, i) => {
    const segment = segments[edit.index];
    if (!segment) throw new CorrectionError(`segments/${i}/index`, `is not a segment of the transcript (it has ${segments.length})`);
    once(`segment ${edit.index}`, `segments/${i}/index`);
    const text = edit.text.trim().replace(/\s+/g, ' ');
    if (!text) throw new CorrectionError(`segments/${i}/text`, 'is empty: a segment keeps at least one word');
    const own = owned[edit.index]!;
    if (own.some((w) => wordEdits.some((e) => e.index === w))) throw new CorrectionError(`segments/${i}`, 'also has one of its words corrected: correct one or the other');
    segment.text = text;
    if (own.length > 0) replaced.set(edit.index, realign(own.map((w) => words[w]!), text.split(' '), segment));
    else if (transcript.words.length > 0) replaced.set(edit.index, spread(text, segment, segment));
  });
  if (replaced.size > 0) {
    const dropped = new Set([...replaced.keys()].flatMap((s) => owned[s]!));
    words = [...words.filter((_, i) => !dropped.has(i)), ...[...replaced.values()].flat()].sort((a, b) => a.start - b.start || a.channel - b.channel);
  }
  // A segment with a corrected word reads it: formatted words are its text; otherwise the word's
  // token in the segment's own text is replaced, keeping the engine's punctuation and capitals.
  if (touched.size > 0) {
    const after = wordsBySegment(segments, words);
    for (const s of touched) {
      const own = after[s]!.map((w) => words[w]!);
      const segment = segments[s]!;
      const tokens = segment.text.split(' ');
      if (own.every((w) => w.punctuated_word !== undefined)) segment.text = own.map((w) => w.punctuated_word).filter(Boolean).join(' ');
      else if (tokens.length === own.length) {
        segment.text = tokens
          .map((token, k) => {
            const edit = wordEdits.find((e) => e.index === after[s]![k]);
            if (!edit) return token;
            const [, lead = '', , trail = ''] = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/u.exec(token) ?? [];
            return `${lead}${bareWord(edit.word.trim())}${trail}`;
          })
          .join(' ');
      } else segment.text = own.map((w) => w.punctuated_word ?? w.word).join(' ');
    }
  }
  // Talk statistics are counted again where words came or went, or were timed anew.
  const retimed = [...replaced.entries()].some(([s, list]) => list.length !== owned[s]!.length || list.some((w, k) => w.start !== words0[owned[s]![k]!]?.start));
  return { text: textOf(segments), segments, words, retimed };
}
