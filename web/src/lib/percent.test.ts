import { describe, expect, test } from 'vitest';
import { wholePercents } from './percent.ts';

describe('whole percents', () => {
  test('shares that add up to 1 show as percents that add up to 100', () => {
    expect(wholePercents([0.505, 0.495])).toEqual([51, 49]);
    expect(wholePercents([0.3355, 0.3355, 0.329])).toEqual([34, 33, 33]);
    expect(wholePercents([1])).toEqual([100]);
  });
  test('shares that do not add up to 1 keep their own total', () => {
    expect(wholePercents([0.4, 0.2])).toEqual([40, 20]);
    expect(wholePercents([])).toEqual([]);
  });
});
