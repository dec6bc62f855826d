import { describe, expect, test } from 'vitest';
import { spottedWords } from './spotted-words.ts';

describe('spotted phrases in the transcript', () => {
  test('the words mostly inside a phrase heard on their channel are marked with it', () => {
    const words = [
      { start: 0, end: 0.4, channel: 0 }, // thank
      { start: 0.4, end: 0.8, channel: 0 }, // you
      { start: 1.2, end: 1.5, channel: 0 }, // a
      { start: 1.5, end: 1.9, channel: 0 }, // nice
      { start: 1.9, end: 2.4, channel: 0 }, // apart
      { start: 1.3, end: 1.8, channel: 1 }, // the customer, at the same time
    ];
    const marked = spottedWords(words, [{ phrase: 'acme support', start: 1.2, end: 2.34, channel: 0 }]);
    expect([...marked]).toEqual([
      [2, 'acme support'],
      [3, 'acme support'],
      [4, 'acme support'],
    ]);
  });

  test('no phrase heard, nothing marked', () => {
    expect(spottedWords([{ start: 0, end: 1, channel: 0 }], []).size).toBe(0);
  });
});
