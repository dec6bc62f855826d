// Pure logic: segmenting words at pauses, and the txt/srt/vtt exports.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { segmentWords } from '../src/engines/transcription/segments.ts';
import { toSrt, toText, toVtt } from '../src/services/transcript-export.ts';

const words = [
  { word: 'hello', start: 0.1, end: 0.5, confidence: 0.9 },
  { word: 'there', start: 0.55, end: 0.9, confidence: 0.8 },
  { word: 'how', start: 2.0, end: 2.2, confidence: 0.7 },
  { word: 'are', start: 2.25, end: 2.4, confidence: 0.7 },
];

test('words split into segments at pauses and at the maximum length', () => {
  assert.deepEqual(segmentWords(words), [
    { start: 0.1, end: 0.9, text: 'hello there' },
    { start: 2.0, end: 2.4, text: 'how are' },
  ]);
  assert.equal(segmentWords(words, { pauseSeconds: 5, maxSeconds: 1 }).length, 2);
  assert.deepEqual(segmentWords([]), []);
});

test('exports', () => {
  const segments = [
    { start: 0.1, end: 0.9, text: 'hello there' },
    { start: 3661.5, end: 3662.25, text: 'how are' },
  ];
  assert.equal(toText(segments), 'hello there\nhow are\n');
  assert.equal(toSrt(segments), '1\n00:00:00,100 --> 00:00:00,900\nhello there\n\n2\n01:01:01,500 --> 01:01:02,250\nhow are\n');
  assert.equal(toVtt(segments), 'WEBVTT\n\n00:00:00.100 --> 00:00:00.900\nhello there\n\n01:01:01.500 --> 01:01:02.250\nhow are\n');
});

test('word error rate', async () => {
  const { wer } = await import('../src/wer.ts');
  assert.equal(wer('<s> he was not an ill disposed young man </s>', 'he was not an ill disposed young man'), 0);
  assert.equal(wer('a b c d', 'a x c'), 0.5);
  assert.equal(wer('', ''), 0);
});
