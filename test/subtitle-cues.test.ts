// Subtitle cues a reader can follow: a long segment cut at sentence ends, then commas or words,
// each cue timed by its words; short segments and segments without words stay as written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_CUE_CHARS, MAX_CUE_SECONDS, subtitleCues } from '../src/features/transcription/subtitle-cues.ts';
import { exportTranscript } from '../src/features/transcription/transcript-export.ts';

/** Words 0.4 s apart as formatting shows them ("" for a word a number's first word writes). */
function said(shown: string[], from = 0) {
  return shown.map((punctuated_word, i) => ({ word: punctuated_word.toLowerCase().replace(/[^a-z0-9]/g, '') || 'x', punctuated_word, start: from + i * 0.4, end: from + i * 0.4 + 0.35, confidence: 0.9, channel: 0, speaker: 'channel_0' }));
}

test('a long segment is cut at its sentence ends, each cue timed by its own words', () => {
  const words = said('Thank you for calling. How can I help you today? My parcel never arrived, and it was $25 with delivery, I paid it on the first of the month.'.split(' '));
  const segment = { start: 0, end: words.at(-1)!.end, text: words.map((w) => w.punctuated_word).join(' '), channel: 0, speaker: 'channel_0' };
  const cues = subtitleCues([segment], words);
  assert.deepEqual(cues.slice(0, 2).map((c) => c.text), ['Thank you for calling.', 'How can I help you today?']);
  assert.equal(cues[1]!.start, words[4]!.start);
  assert.equal(cues.map((c) => c.text).join(' '), segment.text, 'every word once, in order');
  for (const cue of cues) {
    assert.ok(cue.end - cue.start <= MAX_CUE_SECONDS && cue.text.length <= MAX_CUE_CHARS, JSON.stringify(cue));
  }
  assert.ok(cues.length >= 4, 'the long last sentence is cut too');
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
