// Subtitle cues a reader can follow: a long segment cut where a cue would grow too long, after a
// sentence end, else a comma, else between words, each cue timed by its words; short sentences
// share a cue; short segments and segments without words stay as written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_CUE_CHARS, MAX_CUE_SECONDS, subtitleCues } from '../src/features/transcription/subtitle-cues.ts';
import { exportTranscript } from '../src/features/transcription/transcript-export.ts';

/** Words 0.4 s apart as formatting shows them ("" for a word a number's first word writes). */
function said(shown: string[], from = 0) {
  return shown.map((punctuated_word, i) => ({ word: punctuated_word.toLowerCase().replace(/[^a-z0-9]/g, '') || 'x', punctuated_word, start: from + i * 0.4, end: from + i * 0.4 + 0.35, confidence: 0.9, channel: 0, speaker: 'channel_0' }));
}

test('a long segment is cut where a cue would grow too long, after a sentence end where there is one, each cue timed by its own words', () => {
  const words = said('Thank you for calling. How can I help you today? My parcel never arrived, and it was $25 with delivery, I paid it on the first of the month.'.split(' '));
  const segment = { start: 0, end: words.at(-1)!.end, text: words.map((w) => w.punctuated_word).join(' '), channel: 0, speaker: 'channel_0' };
  const cues = subtitleCues([segment], words);
  // Two short sentences share a cue; the next cue starts where the sentence after them does.
  assert.deepEqual(cues.map((c) => c.text), ['Thank you for calling. How can I help you today?', 'My parcel never arrived, and it was $25 with delivery,', 'I paid it on the first of the month.']);
  assert.equal(cues[1]!.start, words[10]!.start);
  assert.equal(cues.map((c) => c.text).join(' '), segment.text, 'every word once, in order');
  for (const cue of cues) {
    assert.ok(cue.end - cue.start <= MAX_CUE_SECONDS && cue.text.length <= MAX_CUE_CHARS, JSON.stringify(cue));
  }
});

test('a short sentence is no cue of its own: it shares one with the sentence before it', () => {
  const words = said('The light is flashing red. Flashing red. It has been like that since Monday and I tried turning it off and on.'.split(' '));
  const segment = { start: 0, end: words.at(-1)!.end, text: words.map((w) => w.punctuated_word).join(' '), channel: 0, speaker: 'channel_0' };
  assert.deepEqual(subtitleCues([segment], words).map((c) => c.text), ['The light is flashing red. Flashing red.', 'It has been like that since Monday and I tried turning it off and on.']);
});

test('a short segment, and one without words, stay whole; a number keeps its unshown words', () => {
  const words = said(['It', 'is', '$25.', '', '']);
  const short = { start: 0, end: 2, text: 'It is $25.', channel: 0, speaker: 'channel_0' };
  assert.deepEqual(subtitleCues([short], words), [short]);
  const bare = { start: 0, end: 30, text: 'a long segment the engine gave without words', channel: 0, speaker: 'channel_0' };
  assert.deepEqual(subtitleCues([bare], []), [bare]);
  const srt = exportTranscript('srt', [{ ...bare, text: said(Array(40).fill('word')).map(() => 'word').join(' ') }], said(Array(40).fill('word')));
  assert.ok(srt.split('-->').length - 1 >= 3, srt);
});

test('a cut after a number keeps the words it wrote in, so the next cue starts at its own first word', () => {
  const words = said('Your total comes to $25. '.split(' ').slice(0, 5).concat(['', 'We will send the receipt to the address on the account today.']).join(' ').split(' '));
  const segment = { start: 0, end: words.at(-1)!.end, text: words.map((w) => w.punctuated_word).filter(Boolean).join(' '), channel: 0, speaker: 'channel_0' };
  const cues = subtitleCues([segment], words);
  assert.deepEqual(cues.map((c) => c.text), ['Your total comes to $25.', 'We will send the receipt to the address on the account today.']);
  assert.equal(cues[1]!.start, words.find((w) => w.punctuated_word === 'We')!.start);
});

