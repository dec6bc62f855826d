// Pure logic: readable text from unpunctuated words — sentences at pauses, question marks,
// capitals, "I" — with the recognised words kept, and text that must be left alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatTranscript, punctuate } from '../src/features/transcription/formatting.ts';

/** Words 0.3 s apart (0.25 s long), with a pause of `pause` seconds before each index in `pausesBefore`. */
function spoken(text: string, pausesBefore: Record<number, number> = {}, channel = 0, speaker = 'agent') {
  let at = 0;
  return text.split(' ').map((word, i) => {
    at += pausesBefore[i] ?? 0;
    const w = { word, start: at, end: at + 0.25, confidence: 0.9, channel, speaker };
    at += 0.3;
    return w;
  });
}

test('sentences end at pauses: a full stop, or a question mark where the sentence opens as a question', () => {
  const words = punctuate(spoken('thank you for calling how can i help you today', { 4: 0.8 }));
  assert.equal(words.map((w) => w.punctuated_word).join(' '), 'Thank you for calling. How can I help you today?');
  assert.equal(words.map((w) => w.word).join(' '), 'thank you for calling how can i help you today', 'the recognised words are kept');
});

test('"I" and its contractions are capitalised; a redaction marker stays one token; one word is a sentence', () => {
  assert.equal(punctuate(spoken("i'm sure i'll call back")).map((w) => w.punctuated_word).join(' '), "I'm sure I'll call back.");
  assert.equal(punctuate(spoken('my card is [CREDIT_CARD]')).map((w) => w.punctuated_word).join(' '), 'My card is [CREDIT_CARD].');
  assert.equal(punctuate(spoken('is')).map((w) => w.punctuated_word).join(' '), 'Is.', 'a lone opener is no question');
  assert.deepEqual(punctuate([]), []);
});

test('segments and the text are rebuilt from the punctuated words, per speaker; no words leaves the text alone', () => {
  const agent = spoken('hello thank you for calling', {}, 0, 'agent');
  const customer = spoken('hi my parcel never arrived', { 0: 2 }, 1, 'customer');
  const segments = [
    { start: 0, end: 1.5, text: 'hello thank you for calling', channel: 0, speaker: 'agent' },
    { start: 2, end: 3.5, text: 'hi my parcel never arrived', channel: 1, speaker: 'customer' },
  ];
  const formatted = formatTranscript({ language: 'en', text: 'x', segments, words: [...agent, ...customer] }, true);
  assert.deepEqual(formatted.segments.map((s) => s.text), ['Hello thank you for calling.', 'Hi my parcel never arrived.']);
  assert.equal(formatted.text, 'agent: Hello thank you for calling.\ncustomer: Hi my parcel never arrived.');
  const bare = { language: 'en', text: 'as the engine wrote it', segments: [{ start: 0, end: 1, text: 'as the engine wrote it', channel: 0, speaker: 'channel_0' }], words: [] };
  assert.equal(formatTranscript(bare, false).text, 'as the engine wrote it');
});
