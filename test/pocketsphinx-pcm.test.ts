// Decoding reads the prepared WAV a chunk at a time: the file source gives exactly the samples of
// the data chunk, and pocketsphinx decodes it to the same words as the whole file in memory.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createPocketsphinx } from '../src/engines/transcription/pocketsphinx-native.ts';
import { openPcmFile } from '../src/engines/transcription/pocketsphinx-pcm.ts';
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
