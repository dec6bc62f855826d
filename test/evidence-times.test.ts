// An engine's passages timed by the words that say them, not by their share of a segment's characters.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { timedByWords } from '../src/features/analysis/evidence-times.ts';

const word = (text: string, start: number, shown: string | undefined, channel = 1) => ({ word: text, start, end: start + 0.4, confidence: 0.9, channel, speaker: channel === 0 ? 'agent' : 'customer', ...(shown === undefined ? {} : { punctuated_word: shown }) });

// "Hello Sarah, my order is late. I paid $49 on June 3rd." with "forty nine dollars" carried by "forty".
const words = [
  word('hello', 0.5, 'Hello'), word('sarah', 1, 'Sarah,'), word('my', 1.5, 'my'), word('order', 2, 'order'), word('is', 2.5, 'is'), word('late', 3, 'late.'),
  word('i', 10.15, 'I'), word('paid', 10.6, 'paid'), word('forty', 11, '$49'), word('nine', 11.5, ''), word('dollars', 12, ''), word('on', 12.5, 'on'), word('june', 13, 'June'), word('third', 13.5, '3rd.'),
  word('thank', 4, 'Thank', 0), word('you', 4.5, 'you.', 0),
];

test('a passage is given the times of its words, a number\'s unshown words with it', () => {
  const [paid] = timedByWords([{ text: 'I paid $49 on June 3rd.', start: 10.976, end: 13.9 }], words);
  assert.deepEqual([paid!.start, paid!.end], [10.15, 13.9]);
  const [late] = timedByWords([{ text: 'Hello Sarah, my order is late.', start: 0.2, end: 10.893 }], words);
  assert.deepEqual([late!.start, late!.end], [0.5, 3.4]);
  const [number] = timedByWords([{ text: '$49', start: 11.2, end: 11.3 }], words);
  assert.deepEqual([number!.start, number!.end], [11, 12.4], 'the words "forty nine dollars" say it');
});

test('the occurrence nearest the engine\'s guess, on any channel; a passage not said keeps its times', () => {
  const twice = [...words, word('thank', 20, 'Thank', 0), word('you', 20.5, 'you.', 0)];
  assert.equal(timedByWords([{ text: 'Thank you.', start: 19, end: 21 }], twice)[0]!.start, 20);
  assert.equal(timedByWords([{ text: 'Thank you.', start: 3, end: 5 }], twice)[0]!.start, 4);
  const unsaid = { text: 'We will call you back.', start: 7, end: 8, source: 'transcript' as const };
  assert.deepEqual(timedByWords([unsaid], words), [unsaid]);
  assert.deepEqual(timedByWords([unsaid], []), [unsaid]);
});
