// What the speech benches share: a sentence spoken by one of Debian's flite voices, as the 16 kHz
// mono WAV Hark's engines read; and precision, recall and F1 of counted detections.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** `text` spoken by flite's `voice` into `file` (16 kHz mono s16le WAV); its length in seconds. */
export function fliteWav(text: string, voice: string, file: string): number {
  const spoken = `${file}.flite.wav`;
  execFileSync('flite', ['-voice', voice, '-t', text, '-o', spoken]);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', spoken, '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', file]);
  fs.rmSync(spoken);
  return (fs.statSync(file).size - 44) / 32_000;
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

/** Counts one decision against the truth. */
export function count(counts: Counts, truth: boolean, found: boolean): void {
  if (truth && found) counts.tp++;
  else if (found) counts.fp++;
  else if (truth) counts.fn++;
}

export function f1({ tp, fp, fn }: Counts): { precision: number; recall: number; f1: number } {
  const precision = tp / Math.max(1, tp + fp);
  const recall = tp / Math.max(1, tp + fn);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}
