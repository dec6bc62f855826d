// Near-silence made silent before pocketsphinx hears it. A call recorded one party per channel
// holds long stretches of near-silence on each channel (the other party talking), often a recorder's
// dither or a codec's idle pattern of a few steps either side of zero. pocketsphinx, whose silence
// model saw neither that nor speech beside it, fills such a stretch with a word seconds long ("up"
// from 8.4 s to 14.0 s: a turn, talk time and an interruption that never happened) and loses the
// words around it. Exact zeros it takes as silence, so 10 ms frames whose samples all stay within a
// few steps of zero are read as zeros.
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
