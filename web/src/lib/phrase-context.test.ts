import { describe, expect, test } from 'vitest';
import { passageAround } from './phrase-context.ts';

const segments = [
  { start: 0, end: 3.1, text: 'Thank you, for calling Acme.' },
  { start: 3.4, end: 6, text: "I'm sorry, I can't refund it." },
  { start: 6.2, end: 9, text: 'We will refund the full amount.' },
];

describe('a phrase found, in the turn it was said in', () => {
  test('the segment running at its time, cut around the words as the segment writes them', () => {
    expect(passageAround('refund', 4.1, segments)).toEqual({ before: "I'm sorry, I can't ", found: 'refund', after: ' it.' });
    expect(passageAround('thank you for calling', 0.2, segments)).toEqual({ before: '', found: 'Thank you, for calling', after: ' Acme.' });
    // The later segment at the later time.
    expect(passageAround('refund', 6.9, segments)?.before).toBe('We will ');
  });

  test("the evidence's words without their apostrophes find them in the turn", () => {
    expect(passageAround('well refund', 1, [{ start: 0, end: 3, text: "We'll refund it today." }])).toEqual({ before: '', found: "We'll refund", after: ' it today.' });
  });

  test('said twice in the turn, the one nearest the evidence\'s time is marked', () => {
    const turn = [{ start: 10, end: 20, text: 'A refund is possible, but not a refund of the fee.' }];
    expect(passageAround('refund', 10.5, turn)).toEqual({ before: 'A ', found: 'refund', after: ' is possible, but not a refund of the fee.' });
    expect(passageAround('refund', 16.5, turn)).toEqual({ before: 'A refund is possible, but not a ', found: 'refund', after: ' of the fee.' });
  });

  test('none where no segment at that time holds the words: whole words only', () => {
    expect(passageAround('refund', 1, segments)).toBeNull();
    expect(passageAround('fun', 4.1, segments)).toBeNull();
    expect(passageAround('', 4.1, segments)).toBeNull();
  });
});
