// Whether a file's channels say the same thing: a phone's or a voice memo's "stereo" is often one
// signal twice (dual mono), and transcribing each channel would write every word twice, as two
// speakers talking over each other. The prepared channel files are compared a second at a time:
// a second where the channels differ by more than a tenth of their level (a lossy codec's own
// differences stay far below) makes them different; seconds of silence on both say nothing.
import { openPcmFile, SAMPLE_RATE, type PcmFile } from './pcm-file.ts';

/** The difference's energy over the channels' that still counts as the same signal (−20 dB). */
const ALIKE_RATIO = 0.01;
/** Below this mean square a second is silence on a channel (about −60 dBFS). */
const SILENT = (32768 * 0.001) ** 2;
/** Seconds that differ before the channels are called different at once (one click is not a voice). */
const DIFFERENT_SECONDS = 3;

const meanSquare = (samples: Int16Array): number => {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return samples.length > 0 ? sum / samples.length : 0;
};

/** True where every channel file carries the first one's signal (and there is some). */
export function channelsAlike(files: readonly string[]): boolean {
  if (files.length < 2) return false;
  const opened: PcmFile[] = [];
  try {
    for (const file of files) opened.push(openPcmFile(file));
    const length = Math.min(...opened.map((f) => f.samples));
    let different = 0;
    let voiced = 0;
    for (let offset = 0; offset < length; offset += SAMPLE_RATE) {
      const take = Math.min(SAMPLE_RATE, length - offset);
      const read = (file: PcmFile) => {
        const bytes = file.read(offset, take);
        return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + take * 2));
      };
      const first = read(opened[0]!);
      const level = meanSquare(first);
      for (const other of opened.slice(1)) {
        const samples = read(other);
        const otherLevel = meanSquare(samples);
        if (level < SILENT && otherLevel < SILENT) continue;
        voiced++;
        let sum = 0;
        for (let i = 0; i < take; i++) {
          const d = first[i]! - samples[i]!;
          sum += d * d;
        }
        if (sum / take > ALIKE_RATIO * Math.max(level, otherLevel)) different++;
        if (different >= DIFFERENT_SECONDS) return false;
      }
    }
    // A short call says little: most of what was heard must agree, not only all but three seconds.
    return voiced > 0 && different / voiced < 0.1;
  } finally {
    for (const file of opened) file.close();
  }
}
