// Pure logic on real audio: where a channel has speech, from its energy, and talk statistics that
// count a word only where its channel has sound.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { bufferSource } from '../src/platform/media/pcm-file.ts';
import { talkStats } from '../src/core/transcripts/talk-stats.ts';
import { clipToSpeech, speechSpans } from '../src/core/transcripts/voice-activity.ts';
import { speech } from './helpers/audio.ts';

const RATE = 16_000;
const pcmOf = (file: string) => execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', file, '-ac', '1', '-ar', String(RATE), '-f', 's16le', '-']);
const silence = (seconds: number) => Buffer.alloc(Math.round(seconds * RATE) * 2);
/** Steady hiss at about -60 dBFS, as a quiet phone line has between words. */
function hiss(seconds: number): Buffer {
  const out = Buffer.alloc(Math.round(seconds * RATE) * 2);
  let seed = 7;
  for (let i = 0; i < out.length / 2; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out.writeInt16LE(Math.round(((seed / 2 ** 31) * 2 - 1) * 50), i * 2);
  }
  return out;
}

test('speech is found where it was said, and not in digital silence or a quiet line', () => {
  const hello = pcmOf(speech('Hello, thank you for calling.'));
  const bye = pcmOf(speech('Goodbye.'));
  const seconds = (b: Buffer) => b.length / 2 / RATE;
  const audio = Buffer.concat([silence(1), hello, silence(4), hiss(3), bye, hiss(1)]);
  const spans = speechSpans(bufferSource(audio));
  const helloEnd = 1 + seconds(hello);
  const byeStart = helloEnd + 7;
  assert.ok(spans.length >= 2, JSON.stringify(spans));
  // Every span lies inside one of the two utterances (flite's own lead-in and tail are quiet).
  for (const [s, e] of spans) assert.ok((s >= 0.95 && e <= helloEnd + 0.2) || (s >= byeStart - 0.05 && e <= byeStart + seconds(bye) + 0.2), `${s}-${e} in ${JSON.stringify(spans)}`);
  const total = spans.reduce((sum, [s, e]) => sum + e - s, 0);
  assert.ok(total > 0.6 * (seconds(hello) + seconds(bye)) - 0.6, `speech found: ${total} s`);
  assert.deepEqual(speechSpans(bufferSource(silence(3))), [], 'digital silence has no speech');
});

test('a word is clipped to the sound under it; with none under it, it keeps its plausible length', () => {
  assert.deepEqual(clipToSpeech(0.5, 8, [[0.4, 1], [3, 3.5], [9, 10]]), [[0.5, 1], [3, 3.5]]);
  assert.deepEqual(clipToSpeech(5, 6, [[0.4, 1], [9, 10]]), []);
  // One "word" stretched over 8 s of silence by the recogniser; the customer speaks at 4 s.
  const words = [
    { word: 'hello', start: 0.5, end: 8.5, confidence: 0.5, speaker: 'agent', channel: 0 },
    { word: 'hi', start: 4, end: 4.4, confidence: 0.9, speaker: 'customer', channel: 1 },
  ];
  const sound = { 0: [[0.4, 1.0]] as [number, number][], 1: [[3.9, 4.5]] as [number, number][] };
  const stats = talkStats([], words, 10, sound);
  assert.deepEqual(stats.speakers.map((s) => [s.speaker, s.talk_seconds]), [['agent', 0.5], ['customer', 0.4]]);
  assert.equal(stats.overlap_seconds, 0, 'no phantom overlap');
  assert.equal(stats.interruptions, 0, 'no phantom interruption');
  const unmeasured = talkStats([], words, 10);
  assert.equal(unmeasured.speakers[0]!.talk_seconds, 1.0, 'without measurements, a plausible length (0.4 s + 0.12 s a letter)');
});
