// Which word and segment are being heard at a time of the audio, for highlighting the transcript
// while it plays. Times are seconds; items are in time order.
export interface Timed {
  start: number;
  end: number;
}

/** A browser's seek can land a few milliseconds before the time asked (a frame boundary). */
const SEEK_TOLERANCE_SECONDS = 0.02;

/** The word lit at the player's `time`: as `indexAt`, with a seek that landed just short of a word counted in it. */
export function wordAt<T extends Timed>(words: readonly T[], time: number): number {
  return indexAt(words, time + SEEK_TOLERANCE_SECONDS);
}

/**
 * The index of the item being heard at `time`: the last one that has started, while it lasts or
 * until the next one starts (so a short pause keeps the last word lit); -1 before the first.
 */
export function indexAt<T extends Timed>(items: readonly T[], time: number): number {
  let low = 0;
  let high = items.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (items[middle]!.start <= time) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** The words of a segment (those that start inside it). */
export function wordsOf<T extends Timed>(words: readonly T[], segment: Timed): T[] {
  return words.filter((w) => w.start >= segment.start - 0.01 && w.start < segment.end);
}

export function formatTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

/**
 * Where a scrolled box of the transcript should scroll so the word heard is in view: null while
 * it is in view already; else the word a third of the way down. Positions are the word's and the
 * box's on the page (getBoundingClientRect), `scrollTop` the box's.
 */
export function followScroll(box: { top: number; height: number }, word: { top: number; height: number }, scrollTop: number): number | null {
  const offset = word.top - box.top;
  if (offset >= 0 && offset + word.height <= box.height) return null;
  return Math.max(0, scrollTop + offset - box.height / 3);
}
