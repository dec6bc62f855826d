// pocketsphinx's own language model, asked where a sentence ends: higher odds between two
// sentences than inside one, and a break the word lists leave alone ends a sentence where the
// model says so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sentenceEndOdds, sentenceOddsOf } from '../src/engines/transcription/pocketsphinx-sentences.ts';
import { formatTranscript, oddsByStretch } from '../src/features/transcription/formatting.ts';

/** Words back to back, 0.3 s each, with a 0.1 s break before each index in `breaks`. */
function spoken(text: string, breaks: number[]) {
  let at = 0;
  return text.split(' ').map((word, i) => {
    if (breaks.includes(i)) at += 0.1;
    const w = { word, start: at, end: at + 0.3, confidence: 0.9, channel: 0, speaker: 'agent' };
    at += 0.3;
    return w;
  });
}

test('the odds of a sentence end are higher between two sentences than inside one', () => {
  const words = 'i would like a refund my order never arrived'.split(' ');
  const odds = sentenceEndOdds(words);
  assert.equal(odds.length, words.length);
  assert.equal(odds[0], -Infinity, 'nothing ends before the first word');
  const between = odds[words.indexOf('my')]!;
  for (const inside of ['would', 'like', 'a', 'refund', 'order', 'arrived']) assert.ok(between > odds[words.indexOf(inside)]! + 3, `"refund | my" (${between}) against "| ${inside}"`);
  assert.deepEqual(sentenceEndOdds(['I', 'Would']), sentenceEndOdds(['i', 'would']), 'case does not matter');
  assert.equal(sentenceEndOdds([]).length, 0);
  const unknown = sentenceEndOdds(['my', 'card', '[CREDIT_CARD]', 'please'])[2]!;
  assert.ok(unknown > -20 && unknown < 5, `a marker the model does not know has bounded odds before it (${unknown})`);
});

test('with the model, a break the word lists leave alone ends a sentence; without it, it does not', () => {
  const words = spoken('the line has been down since the outage sometimes the light stays red', [8]);
  const segments = [{ start: 0, end: 99, text: '', channel: 0, speaker: 'agent' }];
  const withModel = formatTranscript({ language: 'en', text: '', segments, words }, false, [], sentenceEndOdds).text;
  const rulesAlone = formatTranscript({ language: 'en', text: '', segments, words }, false).text;
  assert.equal(withModel, 'The line has been down since the outage. Sometimes the light stays red.');
  assert.equal(rulesAlone, 'The line has been down since the outage sometimes the light stays red.');
  // A break inside a sentence stays inside it, whatever the model.
  const inside = formatTranscript({ language: 'en', text: '', segments, words: spoken('i would like a refund for the order', [4]) }, false, [], sentenceEndOdds).text;
  assert.equal(inside, 'I would like a refund for the order.');
});

test('without a readable model there are no odds, and formatting falls back on its rules', () => {
  const missing = sentenceOddsOf('/nonexistent/en-us.lm.bin');
  assert.deepEqual(missing(['i', 'would', 'like', 'a', 'refund']), []);
  assert.deepEqual(missing(['again']), [], 'the failure is remembered, not retried per call');
  const words = spoken('the line has been down since the outage sometimes the light stays red', [8]);
  const segments = [{ start: 0, end: 99, text: '', channel: 0, speaker: 'agent' }];
  assert.equal(formatTranscript({ language: 'en', text: '', segments, words }, false, [], missing).text, 'The line has been down since the outage sometimes the light stays red.');
});

test('the model reads each stretch of talk between sentence pauses from a sentence start', () => {
  const asked: string[][] = [];
  const odds = (words: readonly string[]) => {
    asked.push([...words]);
    return words.map((_, i) => (i === 0 ? -Infinity : 0));
  };
  const words = spoken('i would like a refund my order never arrived', []).map((w, i) => (i >= 5 ? { ...w, start: w.start + 1, end: w.end + 1 } : w));
  assert.deepEqual(oddsByStretch(words, odds, 0.6), [-Infinity, 0, 0, 0, 0, -Infinity, 0, 0, 0]);
  assert.deepEqual(asked, [['i', 'would', 'like', 'a', 'refund'], ['my', 'order', 'never', 'arrived']]);
  assert.deepEqual(oddsByStretch(words, () => [], 0.6), Array(9).fill(-Infinity), 'no odds where the model gives none');
});
