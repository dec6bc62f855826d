// The samples of a prepared WAV file (16 kHz mono s16le), read a piece at a time from disk:
// decoding a file of any length holds one piece of it in memory, never the file.
import fs from 'node:fs';
import { EngineError } from '../engine-error.ts';

export const SAMPLE_RATE = 16_000;

/** 16-bit mono samples, read on demand. */
export interface PcmSource {
  readonly samples: number;
  /** `length` samples from sample `offset`, as s16le bytes. */
  read(offset: number, length: number): Buffer;
}

export interface PcmFile extends PcmSource {
  close(): void;
}

export const bufferSource = (pcm: Buffer): PcmSource => ({ samples: pcm.length / 2, read: (off, len) => pcm.subarray(off * 2, (off + len) * 2) });

/** Opens a WAV file (RIFF, or RF64 from ffmpeg), checks its format and finds its data chunk. */
export function openPcmFile(file: string): PcmFile {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    throw new EngineError('audio_unreadable', `cannot open the prepared audio: ${(error as Error).message}`, false);
  }
  try {
    const size = fs.fstatSync(fd).size;
    const header = Buffer.alloc(Math.min(size, 64 * 1024));
    fs.readSync(fd, header, 0, header.length, 0);
    const riff = header.toString('latin1', 0, 4);
    if ((riff !== 'RIFF' && riff !== 'RF64') || header.toString('latin1', 8, 12) !== 'WAVE') {
      throw new EngineError('invalid_audio', 'the prepared audio is not a WAV file', false);
    }
    let offset = 12;
    let formatOk = false;
    while (offset + 8 <= header.length) {
      const id = header.toString('latin1', offset, offset + 4);
      const length = header.readUInt32LE(offset + 4);
      const body = offset + 8;
      if (id === 'fmt ' && body + 16 <= header.length) {
        const tag = header.readUInt16LE(body);
        const channels = header.readUInt16LE(body + 2);
        const rate = header.readUInt32LE(body + 4);
        const bits = header.readUInt16LE(body + 14);
        if ((tag !== 1 && tag !== 0xfffe) || channels !== 1 || rate !== SAMPLE_RATE || bits !== 16) {
          throw new EngineError('invalid_audio', `the prepared audio is not 16 kHz mono s16le (format ${tag}, ${channels} ch, ${rate} Hz, ${bits} bit)`, false);
        }
        formatOk = true;
      } else if (id === 'data') {
        if (!formatOk) throw new EngineError('invalid_audio', 'the prepared audio has no fmt chunk before its data', false);
        // A data chunk of unknown or 4 GiB+ length (RF64, streaming) runs to the end of the file.
        const bytes = length === 0 || length === 0xffffffff || body + length > size ? size - body : length;
        return {
          samples: Math.floor(bytes / 2),
          read(from, count) {
            const chunk = Buffer.alloc(count * 2);
            const got = fs.readSync(fd, chunk, 0, chunk.length, body + from * 2);
            return got === chunk.length ? chunk : chunk.subarray(0, got - (got % 2));
          },
          close: () => fs.closeSync(fd),
        };
      }
      offset = body + length + (length % 2);
    }
    throw new EngineError('invalid_audio', 'the prepared audio has no data chunk', false);
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

export interface PcmWindow {
  /** First sample. */
  start: number;
  /** Number of samples. */
  length: number;
}

const FRAME = SAMPLE_RATE / 100; // 10 ms
const QUIET_SPAN = 10; // frames: the quietest 100 ms

/**
 * Splits a source into windows of at most `maxSeconds`, each cut at the quietest 100 ms of its last
 * `searchSeconds`, so an engine that takes a whole buffer at a time (whisper.cpp) gets bounded
 * pieces and a cut rarely falls inside a word.
 */
export function quietWindows(source: PcmSource, maxSeconds: number, searchSeconds: number): PcmWindow[] {
  const max = Math.max(FRAME * QUIET_SPAN * 2, Math.floor(maxSeconds * SAMPLE_RATE));
  const search = Math.min(Math.floor(searchSeconds * SAMPLE_RATE), Math.floor(max / 2));
  const windows: PcmWindow[] = [];
  let start = 0;
  while (source.samples - start > max) {
    const from = start + max - search;
    const cut = from + quietestOffset(source.read(from, search));
    windows.push({ start, length: cut - start });
    start = cut;
  }
  if (source.samples > start) windows.push({ start, length: source.samples - start });
  return windows;
}

/**
 * Splits a source into `count` pieces of about equal length, each cut at the quietest 100 ms
 * within `searchSeconds` around the even split, so pieces decoded apart rarely part a word.
 */
export function quietPieces(source: PcmSource, count: number, searchSeconds: number): PcmWindow[] {
  const total = source.samples;
  const search = Math.floor(Math.min(searchSeconds * SAMPLE_RATE, total / count / 2));
  const cuts = [0];
  for (let k = 1; k < count; k++) {
    const from = Math.max(cuts[cuts.length - 1]!, Math.floor((k * total) / count - search / 2));
    const cut = from + quietestOffset(source.read(from, search));
    if (cut > cuts[cuts.length - 1]! && cut < total) cuts.push(cut);
  }
  return cuts.map((start, i) => ({ start, length: (cuts[i + 1] ?? total) - start }));
}

/** The sample offset, in a piece of s16le audio, of the middle of its quietest 100 ms. */
export function quietestOffset(pcm: Buffer): number {
  const frames = Math.floor(pcm.length / 2 / FRAME);
  if (frames <= QUIET_SPAN) return Math.floor(pcm.length / 4);
  const energy = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let i = f * FRAME; i < (f + 1) * FRAME; i++) {
      const sample = pcm.readInt16LE(i * 2);
      sum += sample * sample;
    }
    energy[f] = sum;
  }
  let span = 0;
  for (let f = 0; f < QUIET_SPAN; f++) span += energy[f]!;
  let best = span;
  let bestAt = 0;
  for (let f = QUIET_SPAN; f < frames; f++) {
    span += energy[f]! - energy[f - QUIET_SPAN]!;
    // Later wins ties, so a long silence is cut near its end and the window stays long.
    if (span <= best) {
      best = span;
      bestAt = f - QUIET_SPAN + 1;
    }
  }
  return (bestAt + QUIET_SPAN / 2) * FRAME;
}
