// A reviewer's corrections of a transcript: a word's text, or a segment's whole text. Times stay
// with the audio: a corrected word keeps its times; a segment rewritten with as many words keeps
// each word's times, and one rewritten with more or fewer words spreads them over the time its
// words took, by length. The words of a segment are its channel's words that start inside it.
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
  /** Whether words were timed again (a segment rewritten with more or fewer words). */
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

export function applyCorrections(transcript: { segments: readonly SpeakerSegment[]; words: readonly Word[] }, corrections: Corrections): CorrectedTranscript {
  const segments = transcript.segments.map((s) => ({ ...s }));
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
    const tokens = text.split(' ');
    if (own.length === tokens.length) {
      replaced.set(edit.index, own.map((w, k) => ({ ...words[w]!, word: bareWord(tokens[k]!), punctuated_word: tokens[k]!, confidence: words[w]!.word === bareWord(tokens[k]!) ? words[w]!.confidence : 1 })));
    } else if (own.length > 0 || transcript.words.length > 0) {
      const span = own.length > 0 ? { start: words[own[0]!]!.start, end: words[own.at(-1)!]!.end } : segment;
      replaced.set(edit.index, spread(text, span, segment));
    }
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
  return { text: textOf(segments), segments, words, retimed: replaced.size > 0 && [...replaced.entries()].some(([s, list]) => list.length !== owned[s]!.length) };
}
