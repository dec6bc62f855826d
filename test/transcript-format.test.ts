// Pure logic: segmenting words at pauses, and the txt/srt/vtt exports.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { segmentWords } from '../src/engines/transcription/segments.ts';
import { toSrt, toText, toVtt } from '../src/features/transcription/transcript-export.ts';

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

test('exports of several speakers name each turn and cue', () => {
  const segments = [
    { start: 0, end: 1, text: 'hello this is sam', channel: 0, speaker: 'agent' },
    { start: 1.2, end: 2, text: 'how can I help', channel: 0, speaker: 'agent' },
    { start: 2.5, end: 4, text: 'my card was charged twice', channel: 1, speaker: 'customer' },
  ];
  assert.equal(toText(segments), 'agent: hello this is sam how can I help\ncustomer: my card was charged twice\n');
  assert.equal(
    toSrt(segments),
    '1\n00:00:00,000 --> 00:00:01,000\nagent: hello this is sam\n\n2\n00:00:01,200 --> 00:00:02,000\nagent: how can I help\n\n3\n00:00:02,500 --> 00:00:04,000\ncustomer: my card was charged twice\n',
  );
  assert.match(toVtt(segments), /^WEBVTT\n\n00:00:00\.000 --> 00:00:01\.000\nagent: hello this is sam\n/);
  // One speaker: no prefixes, as before.
  const mono = segments.map((s) => ({ ...s, channel: 0, speaker: 'channel_0' }));
  assert.equal(toText(mono), 'hello this is sam\nhow can I help\nmy card was charged twice\n');
});

test('cue text stays one cue: line breaks folded, "-->" never read as timing, WebVTT markup escaped', () => {
  const segments = [{ start: 0, end: 1, text: 'Race 2 <b>bold</b> & co\n\n2\n00:00:09,000 --> 00:00:10,000\nINJECTED' }];
  assert.equal(toSrt(segments), '1\n00:00:00,000 --> 00:00:01,000\nRace 2 <b>bold</b> & co 2 00:00:09,000 -> 00:00:10,000 INJECTED\n');
  assert.equal(toVtt(segments), 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nRace 2 &lt;b&gt;bold&lt;/b&gt; &amp; co 2 00:00:09,000 -&gt; 00:00:10,000 INJECTED\n');
  assert.equal(toVtt(segments).split('-->').length, 2, 'one timing line');
});
