// pocketsphinx decodes a recording of a minute or more in pieces, one per core, cut at quiet
// moments and decoded side by side from the file's one cepstral mean: the words and their times
// are those of one decode of the whole file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { bufferSource, quietPieces, SAMPLE_RATE } from '../src/platform/media/pcm-file.ts';
import { pieceCount, pocketsphinxEngine } from '../src/engines/transcription/pocketsphinx.ts';
import { createPocketsphinx } from '../src/engines/transcription/pocketsphinx-native.ts';
import { loadConfig } from '../src/config.ts';
import { wer } from '../src/wer.ts';
import { speech, stereoCall } from './helpers/audio.ts';

test('a recording is decoded in one piece per core, none shorter than 30 s', () => {
  const seconds = (s: number) => s * SAMPLE_RATE;
  assert.equal(pieceCount(seconds(29), 2), 1);
  assert.equal(pieceCount(seconds(59.9), 2), 1);
  assert.equal(pieceCount(seconds(60), 2), 2);
  assert.equal(pieceCount(seconds(600), 2), 2);
  assert.equal(pieceCount(seconds(600), 1), 1);
  assert.equal(pieceCount(seconds(100), 8), 3);
});

test('pieces cover every sample once and are cut in the silences near the even split', () => {
  const pcm = Buffer.alloc(30 * SAMPLE_RATE * 2);
  let seed = 11;
  const gaps = [9.2, 20.6];
  for (let i = 0; i < pcm.length / 2; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const t = i / SAMPLE_RATE;
    pcm.writeInt16LE(gaps.some((g) => t >= g && t < g + 0.3) ? 0 : (seed % 20000) - 10000, i * 2);
  }
  const source = bufferSource(pcm);
  const pieces = quietPieces(source, 3, 4);
  assert.equal(pieces.length, 3);
  assert.equal(pieces[0]!.start, 0);
  for (let i = 1; i < pieces.length; i++) assert.equal(pieces[i]!.start, pieces[i - 1]!.start + pieces[i - 1]!.length, 'contiguous');
  assert.equal(pieces.at(-1)!.start + pieces.at(-1)!.length, source.samples, 'to the end');
  for (const [i, gap] of gaps.entries()) {
    const cut = pieces[i + 1]!.start / SAMPLE_RATE;
    assert.ok(cut >= gap && cut <= gap + 0.3, `cut ${cut} in the gap at ${gap}`);
  }
});

/** About 64 s of a customer's call: sentences said by flite with short pauses between them. */
function longCall(): string {
  const sentences = [
    'Hello, thank you for calling the support line, my name is Anna.',
    'I would like to ask about the invoice for last month, it looks wrong to me.',
    'The delivery was late and the parcel arrived broken on Tuesday.',
    'Could you please send an engineer to look at the router next week?',
    'My account number is on the letter, I can read it to you if you like.',
    'I am sorry to hear that, let me check the order and the payment for you.',
    'We can offer you a refund or a replacement, whichever you prefer.',
    'Thank you very much for your help, have a nice evening, goodbye.',
  ];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-long-call-'));
  const parts = sentences.map((text) => speech(text));
  const list = path.join(dir, 'list.txt');
  const out = path.join(os.tmpdir(), `hark-long-call-${process.pid}.wav`);
  // Each sentence once, at 16 kHz with 0.7 s of silence after it; the whole said twice over.
  const padded = parts.map((part, i) => {
    const file = path.join(dir, `${i}.wav`);
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', part, '-af', 'apad=pad_dur=0.7', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', file]);
    return file;
  });
  fs.writeFileSync(list, [...padded, ...padded].map((file) => `file '${file}'`).join('\n'));
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, '-c:a', 'pcm_s16le', out]);
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

test('a long recording decoded in two pieces gives the words and times of one decode', async () => {
  const file = longCall();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-pieces-'));
  const config = loadConfig({ HARK_DATA_DIR: dataDir, HARK_LOG_LEVEL: 'silent' });
  try {
    const seconds = (fs.statSync(file).size - 44) / 2 / SAMPLE_RATE;
    assert.ok(pieceCount(seconds * SAMPLE_RATE, 2) === 2, `${seconds} s makes two pieces`);
    const request = { audioPath: file, durationSeconds: seconds, model: 'en-us', language: 'en', wordTimestamps: true };
    const decode = async (cores: number) => {
      const progress: number[] = [];
      const result = await pocketsphinxEngine(config, cores).transcribe(request, { signal: new AbortController().signal, onProgress: (f) => progress.push(f) });
      return { result, progress };
    };
    const one = await decode(1);
    const two = await decode(2);

    assert.ok(one.result.words.length > 100, one.result.text);
    // The cut falls in a pause: what each heard differs by a few words at most.
    assert.ok(wer(one.result.text, two.result.text) < 0.05, `one: ${one.result.text}\ntwo: ${two.result.text}`);
    for (let i = 1; i < two.result.words.length; i++) assert.ok(two.result.words[i]!.start >= two.result.words[i - 1]!.start, 'words in order');
    assert.ok(two.result.words.at(-1)!.end <= seconds + 0.01, 'inside the audio');
    // Words of the second piece keep their time in the file.
    const late = (words: typeof one.result.words) => words.filter((w) => w.word === 'evening').map((w) => w.start);
    assert.equal(late(two.result.words).length, 2, two.result.text);
    for (const [i, at] of late(one.result.words).entries()) assert.ok(Math.abs(at - late(two.result.words)[i]!) < 0.3, `evening at ${at} and ${late(two.result.words)[i]}`);
    assert.ok(late(two.result.words)[1]! > seconds / 2);

    for (const { progress } of [one, two]) {
      for (let i = 1; i < progress.length; i++) assert.ok(progress[i]! >= progress[i - 1]! - 1e-9, `progress never goes back: ${progress.join(' ')}`);
      assert.ok(Math.abs(progress.at(-1)! - 1) < 1e-9);
    }
    for (const { result } of [one, two]) for (const phase of ['cmn', 'search', 'lattice']) assert.ok((result.timings?.[phase] ?? 0) > 0, `${phase} timed`);
  } finally {
    fs.rmSync(file, { force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a channel\'s long silences are left out of the decode, and its words keep their times in the call', async () => {
  // The customer's side of a 30 s call: two sentences, 10 s apart, silent while the agent talks.
  const call = stereoCall(
    [
      { channel: 1, at: 2, text: 'I would like to ask about the invoice for last month.' },
      { channel: 1, at: 16, text: 'The delivery was late and the parcel arrived broken.' },
    ],
    30,
  );
  const file = path.join(os.tmpdir(), `hark-customer-side-${process.pid}.wav`);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', call, '-af', 'pan=mono|c0=c1', '-ar', '16000', '-c:a', 'pcm_s16le', file]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-silences-'));
  const raw = createPocketsphinx();
  try {
    const config = loadConfig({ HARK_DATA_DIR: dataDir, HARK_LOG_LEVEL: 'silent' });
    const progress: number[] = [];
    const request = { audioPath: file, durationSeconds: 30, model: 'en-us', language: 'en', wordTimestamps: true };
    const ours = await pocketsphinxEngine(config, 1).transcribe(request, { signal: new AbortController().signal, onProgress: (f) => progress.push(f) });
    // The decoder is fed a second of audio a step: about 8 s of it (the sentences and a quarter
    // second of silence around each), not the channel's 30.
    assert.ok(progress.length <= 12, `${progress.length} steps (32 for the whole channel)`);
    // The same words at the same times as the whole channel decoded as it is.
    const pcm = execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', file, '-f', 's16le', '-']);
    const whole = raw.decode(pcm);
    assert.ok(wer(whole.text, ours.text) < 0.1, `whole: ${whole.text}\nours: ${ours.text}`);
    for (const word of ['invoice', 'parcel']) {
      const a = whole.words.find((w) => w.word === word);
      const b = ours.words.find((w) => w.word === word);
      assert.ok(a && b && Math.abs(a.start - b.start) < 0.05 && Math.abs(a.end - b.end) < 0.05, `${word}: ${JSON.stringify(a)} ${JSON.stringify(b)}`);
    }
    assert.ok(ours.words.find((w) => w.word === 'parcel')!.start > 16);
  } finally {
    raw.close();
    fs.rmSync(file, { force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
