// Decoding reads the prepared WAV a piece at a time: the file source gives exactly the samples of
// the data chunk, pocketsphinx decodes it to the same words as the whole file in memory, and
// whisper.cpp gets windows cut at quiet moments.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createPocketsphinx } from '../src/engines/transcription/pocketsphinx-native.ts';
import { bufferSource, openPcmFile, quietestOffset, quietWindows, SAMPLE_RATE } from '../src/platform/media/pcm-file.ts';
import { gatedSource, KEPT_SILENCE_FRAMES, SILENT_LEVEL, withoutLongSilences } from '../src/engines/transcription/near-silence.ts';
import { whisperCppEngine } from '../src/engines/transcription/whisper-cpp.ts';
import { speech } from './helpers/audio.ts';

function prepared(): string {
  const out = path.join(os.tmpdir(), `hark-pcm-${process.pid}.wav`);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', speech('Please call me back tomorrow morning.'), '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', out]);
  return out;
}

test('the file source reads the data chunk\'s samples, chunk by chunk', () => {
  const file = prepared();
  const pcm = openPcmFile(file);
  try {
    const whole = fs.readFileSync(file);
    const dataAt = whole.indexOf('data') + 8;
    assert.equal(pcm.samples, (whole.length - dataAt) / 2);
    const pieces: Buffer[] = [];
    for (let off = 0; off < pcm.samples; off += 1000) pieces.push(pcm.read(off, Math.min(1000, pcm.samples - off)));
    assert.ok(Buffer.concat(pieces).equals(whole.subarray(dataAt)));
  } finally {
    pcm.close();
    fs.rmSync(file, { force: true });
  }
});

test('pocketsphinx decodes the file source to the same words as the buffer', async () => {
  const file = prepared();
  const decoder = createPocketsphinx();
  const pcm = openPcmFile(file);
  try {
    const fromFile = await decoder.decodeAsync(pcm);
    const fromBuffer = await decoder.decodeAsync(pcm.read(0, pcm.samples));
    assert.equal(fromFile.text, fromBuffer.text);
    assert.ok(fromFile.text.length > 0);
  } finally {
    pcm.close();
    decoder.close();
    fs.rmSync(file, { force: true });
  }
});

/** Loud noise with silent gaps (start and length in seconds). */
function noiseWithGaps(seconds: number, gaps: { at: number; length: number }[]): Buffer {
  const pcm = Buffer.alloc(seconds * SAMPLE_RATE * 2);
  let seed = 7;
  for (let i = 0; i < pcm.length / 2; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const t = i / SAMPLE_RATE;
    const quiet = gaps.some((gap) => t >= gap.at && t < gap.at + gap.length);
    pcm.writeInt16LE(quiet ? 0 : (seed % 20000) - 10000, i * 2);
  }
  return pcm;
}

test('the quietest 100 ms of a piece is found', () => {
  const pcm = noiseWithGaps(4, [{ at: 2.5, length: 0.2 }]);
  const at = quietestOffset(pcm) / SAMPLE_RATE;
  assert.ok(at >= 2.5 && at <= 2.7, `cut at ${at}s`);
});

test('windows cover every sample once, stay under the maximum and cut in the silences', () => {
  const source = bufferSource(noiseWithGaps(30, [{ at: 8.3, length: 0.3 }, { at: 17.6, length: 0.3 }, { at: 27, length: 0.3 }]));
  const windows = quietWindows(source, 10, 3);
  assert.equal(windows[0]!.start, 0);
  for (let i = 1; i < windows.length; i++) assert.equal(windows[i]!.start, windows[i - 1]!.start + windows[i - 1]!.length, 'contiguous');
  assert.equal(windows.at(-1)!.start + windows.at(-1)!.length, source.samples, 'to the end');
  for (const window of windows) assert.ok(window.length <= 10 * SAMPLE_RATE);
  const cuts = windows.slice(1).map((w) => w.start / SAMPLE_RATE);
  assert.equal(cuts.length, 3);
  for (const [cut, gap] of cuts.map((c, i) => [c, [8.3, 17.6, 27][i]!] as const)) assert.ok(cut >= gap && cut <= gap + 0.3, `cut ${cut} in the gap at ${gap}`);
  assert.deepEqual(quietWindows(source, 60, 3), [{ start: 0, length: source.samples }], 'a short file is one window');
});

test('whisper.cpp decodes a file in windows: progress runs across them, times stay in order and inside the audio', async () => {
  const file = prepared();
  try {
    const seconds = openPcmFile(file).samples / SAMPLE_RATE;
    const model = new URL('./fixtures/ggml-random-tiny.en.bin', import.meta.url).pathname;
    const engine = whisperCppEngine(async () => model, 2, 1, 60);
    const progress: number[] = [];
    const result = await engine.transcribe(
      { audioPath: file, durationSeconds: seconds, model: 'tiny-random', language: 'auto', wordTimestamps: true },
      { signal: new AbortController().signal, onProgress: (fraction) => progress.push(fraction) },
    );
    assert.equal(result.language, 'en');
    assert.ok(progress.some((p) => p < 0.5) && progress.some((p) => p > 0.5), `progress ${progress.join(' ')}`);
    let last = 0;
    for (const word of result.words) {
      assert.ok(word.start >= last && word.start <= word.end && word.end <= seconds, JSON.stringify(word));
      last = word.start;
    }
  } finally {
    fs.rmSync(file, { force: true });
  }
});

test('pocketsphinx decodes a long input as utterances cut at pauses, with times from the start of the file', async () => {
  const first = speech('Please call me back tomorrow morning.');
  const second = speech('The invoice for last month is wrong.');
  const file = path.join(os.tmpdir(), `hark-utterances-${process.pid}.wav`);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', first, '-i', second, '-filter_complex', '[0:a]aresample=16000,apad=pad_dur=1[a];[1:a]aresample=16000[b];[a][b]concat=n=2:v=0:a=1', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', file]);
  const whole = createPocketsphinx();
  const split = createPocketsphinx({ utteranceSeconds: 3.5 });
  const pcm = openPcmFile(file);
  try {
    const seconds = pcm.samples / SAMPLE_RATE;
    assert.ok(seconds > 3.5, `the file (${seconds}s) needs more than one utterance`);
    const progress: number[] = [];
    const a = await whole.decodeAsync(pcm);
    const b = await split.decodeAsync(pcm, (f) => progress.push(f));
    assert.ok(b.words.some((w) => w.word === 'invoice'), b.text);
    const invoiceA = a.words.find((w) => w.word === 'invoice');
    const invoiceB = b.words.find((w) => w.word === 'invoice');
    assert.ok(invoiceA && invoiceB && Math.abs(invoiceA.start - invoiceB.start) < 0.3, `same time in both: ${invoiceA?.start} ${invoiceB?.start}`);
    for (let i = 1; i < b.words.length; i++) assert.ok(b.words[i]!.start >= b.words[i - 1]!.end - 0.01, 'words in order');
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]! >= progress[i - 1]!, 'progress never goes back');
  } finally {
    pcm.close();
    whole.close();
    split.close();
    fs.rmSync(file, { force: true });
  }
});

test('near-silence (a few steps either side of zero) reads as zeros, 10 ms at a time, wherever a read starts', () => {
  // 40 ms: dither, a frame with one sample beyond the level, more dither, a loud frame.
  const frame = SAMPLE_RATE / 100;
  const samples = new Int16Array(frame * 4);
  for (let i = 0; i < samples.length; i++) samples[i] = ((i * 7) % (2 * SILENT_LEVEL + 1)) - SILENT_LEVEL;
  samples[frame + 5] = SILENT_LEVEL + 1;
  for (let i = frame * 3; i < frame * 4; i++) samples[i] = Math.round(3000 * Math.sin(i / 5));
  const raw = Buffer.from(samples.buffer);
  const gated = gatedSource(bufferSource(raw));
  const whole = gated.read(0, samples.length);
  const at = (buffer: Buffer, sample: number) => buffer.readInt16LE(sample * 2);
  for (let i = 0; i < frame; i++) assert.equal(at(whole, i), 0);
  for (let i = frame; i < frame * 2; i++) assert.equal(at(whole, i), samples[i], 'a frame that reaches past the level is kept whole');
  for (let i = frame * 2; i < frame * 3; i++) assert.equal(at(whole, i), 0);
  assert.ok(whole.subarray(frame * 6).equals(raw.subarray(frame * 6)), 'sound is untouched');
  // Reads that start and end inside frames give the same samples.
  for (const [offset, length] of [[3, 100], [150, 200], [frame * 2 + 17, frame + 40]] as const) assert.ok(gated.read(offset, length).equals(whole.subarray(offset * 2, (offset + length) * 2)));
  assert.ok(raw.equals(Buffer.from(samples.buffer)), 'the source is not changed');
});

test('silences of a second or more are cut to 250 ms either side of the sound, and times map back', async () => {
  const kept = KEPT_SILENCE_FRAMES / 100;
  // Seconds: 2 silent, 1 sound, 3 silent, 0.5 sound, 0.9 silent (kept whole), 0.5 sound, 2 silent.
  const layout: [number, boolean][] = [[2, false], [1, true], [3, false], [0.5, true], [0.9, false], [0.5, true], [2, false]];
  const samples = new Int16Array(Math.round(layout.reduce((sum, [s]) => sum + s, 0) * SAMPLE_RATE));
  let at = 0;
  for (const [seconds, sound] of layout) {
    const end = at + Math.round(seconds * SAMPLE_RATE);
    for (let i = at; i < end; i++) samples[i] = sound ? 1000 + (i % 50) : 0;
    at = end;
  }
  const raw = Buffer.from(samples.buffer);
  const short = await withoutLongSilences(bufferSource(raw));
  const expected = kept + 1 + 2 * kept + 0.5 + 0.9 + 0.5 + kept;
  assert.equal(short.samples, Math.round(expected * SAMPLE_RATE));
  const original = (seconds: number) => raw.subarray(Math.round(seconds * SAMPLE_RATE) * 2);
  const read = (from: number, seconds: number) => short.read(Math.round(from * SAMPLE_RATE), Math.round(seconds * SAMPLE_RATE));
  // The first sound, the second and third with the short silence between them, read across seams.
  assert.ok(read(kept, 1).equals(original(2).subarray(0, SAMPLE_RATE * 2)));
  assert.ok(read(3 * kept + 1, 1.9).equals(original(6).subarray(0, 1.9 * SAMPLE_RATE * 2)));
  assert.ok(read(0, expected).equals(Buffer.concat([original(2 - kept).subarray(0, (1 + 2 * kept) * SAMPLE_RATE * 2), original(6 - kept).subarray(0, (1.9 + 2 * kept) * SAMPLE_RATE * 2)])));
  // Times: the second sound begins at 3 * kept + 1 s here and at 6 s in the original.
  const span = (start: number, end: number) => short.originalSpan(start, end);
  assert.deepEqual(span(kept, kept + 0.5), { start: 2, end: 2.5 });
  assert.deepEqual(span(3 * kept + 1, 3 * kept + 1.2), { start: 6, end: 6.2 });
  assert.deepEqual(span(3 * kept + 1 + 0.5 + 0.9 + 0.1, 3 * kept + 1 + 0.5 + 0.9 + 0.3), { start: 7.5, end: 7.7 });
  // A word that ends at a seam, or runs past it, ends before the cut silence; one that starts at
  // the seam is after it.
  assert.deepEqual(span(2 * kept + 0.9, 2 * kept + 1), { start: 2.9 + kept, end: 3 + kept });
  assert.deepEqual(span(2 * kept + 0.9, 2 * kept + 1.005), { start: 2.9 + kept, end: 3 + kept });
  assert.deepEqual(span(2 * kept + 1, 2 * kept + 1.1), { start: 6 - kept, end: 6.1 - kept });
  // Sound alone, or silence shorter than a second, is read as it is.
  const sound = Buffer.from(new Int16Array(SAMPLE_RATE).fill(500).buffer);
  const same = await withoutLongSilences(bufferSource(sound));
  assert.equal(same.samples, SAMPLE_RATE);
  assert.deepEqual(same.originalSpan(0.4, 0.6), { start: 0.4, end: 0.6 });
  // A silent recording keeps half a second of its silence.
  assert.equal((await withoutLongSilences(bufferSource(Buffer.alloc(SAMPLE_RATE * 10)))).samples, 2 * kept * SAMPLE_RATE);
});
