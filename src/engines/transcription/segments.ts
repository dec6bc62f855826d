// Groups timed words into segments, cutting at pauses and at a maximum length.
import type { Segment, Word } from './types.ts';

export interface SegmentOptions {
  /** A silence at least this long starts a new segment. */
  pauseSeconds: number;
  /** No segment grows longer than this. */
  maxSeconds: number;
  /** Also end a segment after a word that ends a sentence (engines that punctuate). */
  sentenceEnds?: boolean;
}

const defaults: SegmentOptions = { pauseSeconds: 0.6, maxSeconds: 15 };

export function segmentWords(words: readonly Word[], options: SegmentOptions = defaults): Segment[] {
  const segments: Segment[] = [];
  let current: Word[] = [];
  const flush = () => {
    const first = current[0];
    const last = current.at(-1);
    if (first && last) segments.push({ start: first.start, end: last.end, text: current.map((w) => w.word).join(' ') });
    current = [];
  };
  for (const word of words) {
    const first = current[0];
    const last = current.at(-1);
    if (first && last && (word.start - last.end >= options.pauseSeconds || word.end - first.start > options.maxSeconds)) flush();
    current.push(word);
    if (options.sentenceEnds && /[.?!]["')\]]?$/.test(word.word)) flush();
  }
  flush();
  return segments;
}
