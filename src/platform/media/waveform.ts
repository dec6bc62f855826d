// A waveform to draw: the loudest sample of each of `points` equal slices of the audio, scaled so
// the loudest slice is 1. Read a piece at a time, so an hour of audio costs a pass over the file
// and a few kilobytes of answer, instead of the player fetching the whole file to draw it.
import { SAMPLE_RATE, type PcmSource } from './pcm-file.ts';

const SAMPLES_PER_READ = SAMPLE_RATE * 10;

export interface Waveform {
  duration_seconds: number;
  peaks: number[];
}

export function waveformOf(source: PcmSource, points: number): Waveform {
  const slices = Math.max(1, Math.min(points, source.samples));
  const peaks = new Array<number>(slices).fill(0);
  const perSlice = source.samples / slices;
  for (let first = 0; first < source.samples; first += SAMPLES_PER_READ) {
    const count = Math.min(SAMPLES_PER_READ, source.samples - first);
    const bytes = source.read(first, count);
    for (let i = 0; i < count; i++) {
      const slice = Math.min(slices - 1, Math.floor((first + i) / perSlice));
      const level = Math.abs(bytes.readInt16LE(i * 2));
      if (level > peaks[slice]!) peaks[slice] = level;
    }
  }
  const loudest = Math.max(1, ...peaks);
  return { duration_seconds: source.samples / SAMPLE_RATE, peaks: source.samples === 0 ? [] : peaks.map((p) => Math.round((p / loudest) * 1000) / 1000) };
}
