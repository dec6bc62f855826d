import { describe, expect, it } from 'vitest';
import { formatDuration } from './durations.ts';

describe('formatDuration', () => {
  it('gives tenths of a second under a minute, minutes and seconds beyond', () => {
    expect(formatDuration(2.64)).toBe('2.6 s');
    expect(formatDuration(0)).toBe('0.0 s');
    expect(formatDuration(59.96)).toBe('1 min 00 s');
    expect(formatDuration(65.4)).toBe('1 min 05 s');
    expect(formatDuration(-1)).toBe('0.0 s');
  });
});
