// Where a channel has speech, from its energy: frames of 20 ms louder than the channel's own noise
// floor by a margin (and than an absolute floor, so digital silence and hiss never count), held
// for a moment after they end and joined across short gaps. Talk statistics clip each recognised
// word to these spans, so a "word" the recogniser stretched over seconds of silence counts only
// where the audio has sound.
import { SAMPLE_RATE, type PcmSource } from '../../platform/media/pcm-file.ts';
import { round } from './round.ts';

const FRAME = SAMPLE_RATE / 50;
/** Louder than the noise floor by this much is speech. */
const MARGIN_DB = 12;
/** Never speech below this level (dBFS): digital silence, a line's hiss. */
const ABSOLUTE_FLOOR_DB = -50;
/** Speech continues this long after its last loud frame (the tail of a word). */
const HANGOVER_SECONDS = 0.15;
/** Gaps shorter than this between loud stretches are part of the speech. */
const JOIN_SECONDS = 0.25;
/** Read this many frames at a time. */
const FRAMES_PER_READ = 500;

export type Span = [start: number, end: number];

/** Each frame's level in dBFS (-Infinity for digital silence). */
export function frameLevels(source: PcmSource): Float64Array {
  const frames = Math.floor(source.samples / FRAME);
  const levels = new Float64Array(frames);
  for (let first = 0; first < frames; first += FRAMES_PER_READ) {
    const count = Math.min(FRAMES_PER_READ, frames - first);
    const bytes = source.read(first * FRAME, count * FRAME);
    for (let f = 0; f < count; f++) {
      let sum = 0;
      for (let i = 0; i < FRAME; i++) {
        const sample = bytes.readInt16LE((f * FRAME + i) * 2) / 32768;
        sum += sample * sample;
      }
      levels[first + f] = 10 * Math.log10(sum / FRAME);
    }
  }
  return levels;
}

/** The level below which a tenth of the frames lie: the channel's noise when nobody speaks. */
function noiseFloor(levels: Float64Array): number {
  const finite = [...levels].filter(Number.isFinite).sort((a, b) => a - b);
  return finite.length === 0 ? -Infinity : finite[Math.floor(finite.length / 10)]!;
}

export function speechSpans(source: PcmSource): Span[] {
  const levels = frameLevels(source);
  const threshold = Math.max(ABSOLUTE_FLOOR_DB, noiseFloor(levels) + MARGIN_DB);
  const frameSeconds = FRAME / SAMPLE_RATE;
  const spans: Span[] = [];
  for (let f = 0; f < levels.length; f++) {
    if (!(levels[f]! > threshold)) continue;
    const start = f * frameSeconds;
    const end = Math.min(levels.length * frameSeconds, (f + 1) * frameSeconds + HANGOVER_SECONDS);
    const last = spans.at(-1);
    if (last && start - last[1] <= JOIN_SECONDS) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  }
  return spans.map(([s, e]) => [round(s), round(e)]);
}

/** The parts of [start, end] inside `spans` (sorted, apart); none when no sound is under it. */
export function clipToSpeech(start: number, end: number, spans: readonly Span[]): Span[] {
  const inside: Span[] = [];
  // The first span that may reach past `start`, by bisection.
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (spans[mid]![1] <= start) low = mid + 1;
    else high = mid;
  }
  for (let i = low; i < spans.length && spans[i]![0] < end; i++) inside.push([Math.max(spans[i]![0], start), Math.min(spans[i]![1], end)]);
  return inside;
}
