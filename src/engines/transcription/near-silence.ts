// Near-silence made silent before pocketsphinx hears it. A call recorded one party per channel
// holds long stretches of near-silence on each channel (the other party talking), often a recorder's
// dither or a codec's idle pattern of a few steps either side of zero. pocketsphinx, whose silence
// model saw neither that nor speech beside it, fills such a stretch with a word seconds long ("up"
// from 8.4 s to 14.0 s: a turn, talk time and an interruption that never happened) and loses the
// words around it. Exact zeros it takes as silence, so 10 ms frames whose samples all stay within a
// few steps of zero are read as zeros. Then each silence of a second or more is shortened to a
// quarter second either side of the sound (withoutLongSilences): the decoder spends time on
// silence, and the words' times are put back on the recording's clock after.
import { SAMPLE_RATE, type PcmSource } from '../../platform/media/pcm-file.ts';

const FRAME = SAMPLE_RATE / 100; // 10 ms
/** A 10 ms frame whose samples all stay within this (of 32768; about -72 dBFS) is silent. */
export const SILENT_LEVEL = 8;

/** The source with every near-silent 10 ms frame (counted from its first sample) set to zeros. */
export function gatedSource(source: PcmSource): PcmSource {
  return {
    samples: source.samples,
    read(offset, length) {
      const from = Math.floor(offset / FRAME) * FRAME;
      const to = Math.min(source.samples, Math.ceil((offset + length) / FRAME) * FRAME);
      const pcm = Buffer.from(source.read(from, to - from));
      for (let start = 0; start < pcm.length; start += FRAME * 2) {
        const end = Math.min(pcm.length, start + FRAME * 2);
        let silent = true;
        for (let i = start; i < end && silent; i += 2) silent = Math.abs(pcm.readInt16LE(i)) <= SILENT_LEVEL;
        if (silent) pcm.fill(0, start, end);
      }
      const skip = (offset - from) * 2;
      return pcm.subarray(skip, skip + length * 2);
    },
  };
}

/** A stretch of silence at least this long is shortened before decoding (10 ms frames: 1 s). */
export const LONG_SILENCE_FRAMES = 100;
/** Silence kept either side of sound where a long stretch is shortened (10 ms frames: 250 ms). */
export const KEPT_SILENCE_FRAMES = 25;
/** Frames read at a time while looking for silence (10 s). */
const SCAN_FRAMES = 1000;

/** A source with its long silences shortened, and the way back to the times of the whole. */
export interface ShortenedSource extends PcmSource {
  /**
   * The times in the original source of a word heard from `start` to `end` seconds into this one.
   * Its end stays in the stretch of sound its start is in: a word is never stretched over a
   * silence that was cut (a word the decoder ran up to a seam, or a few milliseconds past it).
   */
  originalSpan(start: number, end: number): { start: number; end: number };
}

interface Kept {
  /** First sample of the original source. */
  readonly start: number;
  readonly length: number;
  /** Where it begins in the shortened source. */
  readonly at: number;
}

/**
 * The source (already gated: silence is exact zeros) with every stretch of silence of a second or
 * more cut to 250 ms either side of the sound around it. On a call recorded one party per channel
 * each channel is silent while the other party talks; the decoder spends about a third of its
 * speech time on each second of silence, to find nothing in it. `onBlock` is called before each
 * 10 s read (it may throw to stop).
 */
export async function withoutLongSilences(source: PcmSource, onBlock?: () => void): Promise<ShortenedSource> {
  const frames = Math.ceil(source.samples / FRAME);
  const silent = new Uint8Array(frames);
  for (let first = 0; first < frames; first += SCAN_FRAMES) {
    // A long recording is looked through without holding up the process's other work.
    if (first > 0) await new Promise(setImmediate);
    onBlock?.();
    const from = first * FRAME;
    const pcm = source.read(from, Math.min(SCAN_FRAMES * FRAME, source.samples - from));
    for (let f = 0; f * FRAME * 2 < pcm.length; f++) {
      let zero = true;
      for (let i = f * FRAME * 2; i < Math.min(pcm.length, (f + 1) * FRAME * 2) && zero; i++) zero = pcm[i] === 0;
      silent[first + f] = zero ? 1 : 0;
    }
  }
  // Frames to leave out: the inside of each long silent stretch.
  const cuts: [number, number][] = [];
  for (let f = 0; f < frames; ) {
    if (!silent[f]) {
      f++;
      continue;
    }
    let end = f;
    while (end < frames && silent[end]) end++;
    if (end - f >= LONG_SILENCE_FRAMES) {
      const from = f === 0 ? (end === frames ? 2 * KEPT_SILENCE_FRAMES : 0) : f + KEPT_SILENCE_FRAMES;
      const to = end === frames ? end : end - KEPT_SILENCE_FRAMES;
      if (to > from) cuts.push([from, to]);
    }
    f = end;
  }
  if (cuts.length === 0) return { ...source, originalSpan: (start, end) => ({ start, end }) };
  const kept: Kept[] = [];
  let at = 0;
  let next = 0;
  for (const [from, to] of [...cuts, [frames, frames] as [number, number]]) {
    const start = next * FRAME;
    const length = Math.min(source.samples, from * FRAME) - start;
    if (length > 0) {
      kept.push({ start, length, at });
      at += length;
    }
    next = to;
  }
  /** The last kept piece that begins at or before `sample` of the shortened source. */
  const pieceAt = (sample: number): number => {
    let low = 0;
    let high = kept.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (kept[middle]!.at <= sample) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  return {
    samples: at,
    read(offset, length) {
      const parts: Buffer[] = [];
      for (let i = pieceAt(offset), position = offset, left = Math.min(length, at - offset); left > 0 && i < kept.length; i++) {
        const piece = kept[i]!;
        const skip = position - piece.at;
        const count = Math.min(left, piece.length - skip);
        parts.push(source.read(piece.start + skip, count));
        position += count;
        left -= count;
      }
      return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    },
    originalSpan(start, end) {
      const from = Math.round(start * SAMPLE_RATE);
      const to = Math.max(from, Math.round(end * SAMPLE_RATE));
      const piece = kept[pieceAt(from)]!;
      const original = (sample: number) => (piece.start + (sample - piece.at)) / SAMPLE_RATE;
      return { start: original(from), end: original(Math.min(to, piece.at + piece.length)) };
    },
  };
}
