import { describe, expect, test } from 'vitest';
import { followScroll, formatTime, indexAt, wordAt, wordsOf } from './transcript-sync.ts';

const words = [
  { start: 0.5, end: 0.9, word: 'hello' },
  { start: 1.0, end: 1.4, word: 'there' },
  { start: 2.5, end: 3.0, word: 'bye' },
];

describe('the word being heard', () => {
  test('before the first word nothing is lit', () => expect(indexAt(words, 0.2)).toBe(-1));
  test('inside a word, that word', () => {
    expect(indexAt(words, 0.5)).toBe(0);
    expect(indexAt(words, 1.2)).toBe(1);
  });
  test('in a pause the last word stays lit until the next starts', () => expect(indexAt(words, 2.0)).toBe(1));
  test('after the last word, the last word', () => expect(indexAt(words, 99)).toBe(2));
  test('no words, nothing', () => expect(indexAt([], 1)).toBe(-1));
  test('a seek that lands a few milliseconds short of a word lights that word, not the one before', () => {
    expect(wordAt(words, 0.995)).toBe(1);
    expect(wordAt(words, 0.95)).toBe(0);
  });
  test('the words of a segment', () => expect(wordsOf(words, { start: 0.5, end: 2 }).map((w) => w.word)).toEqual(['hello', 'there']));
  test('times read as m:ss or h:mm:ss', () => {
    expect(formatTime(65.4)).toBe('1:05');
    expect(formatTime(3725)).toBe('1:02:05');
  });
});

describe('following the word heard', () => {
  test('scrolls only when the word is out of the box, to a third of the way down', () => {
    const box = { top: 100, height: 300 };
    expect(followScroll(box, { top: 150, height: 20 }, 0)).toBeNull();
    expect(followScroll(box, { top: 390, height: 20 }, 0)).toBe(190);
    expect(followScroll(box, { top: 1100, height: 20 }, 200)).toBe(1100);
    expect(followScroll(box, { top: 40, height: 20 }, 500)).toBe(340);
    expect(followScroll(box, { top: 90, height: 20 }, 5)).toBe(0);
  });
});
