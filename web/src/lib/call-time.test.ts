import { describe, expect, test } from 'vitest';
import { callTimeFrom, splitCallTime } from './per-file-metadata.ts';

// A fixed zone stands in for the browser's: one hour ahead of UTC.
const plusOne = () => 60;

describe('callTimeFrom', () => {
  test('the forms a file name or a CSV cell takes, in the browser\'s zone unless one is given', () => {
    expect(callTimeFrom('2026-11-20T09:30', plusOne)).toBe('2026-11-20T08:30:00.000Z');
    expect(callTimeFrom('2026-11-20 09:30:15', plusOne)).toBe('2026-11-20T08:30:15.000Z');
    expect(callTimeFrom('2026-11-20_0930', plusOne)).toBe('2026-11-20T08:30:00.000Z');
    expect(callTimeFrom('20261120', plusOne)).toBe('2026-11-20T11:00:00.000Z');
    expect(callTimeFrom('2026-11-20T09:30Z', plusOne)).toBe('2026-11-20T09:30:00.000Z');
    expect(callTimeFrom('2026-11-20T09:30-05:00', plusOne)).toBe('2026-11-20T14:30:00.000Z');
  });
  test('a date alone is noon, so the call stays on its day', () => {
    expect(callTimeFrom('2026-11-20', plusOne)).toBe('2026-11-20T11:00:00.000Z');
    expect(callTimeFrom('2026-11-20', () => -600)).toBe('2026-11-20T22:00:00.000Z');
  });
  test('what is no date', () => {
    for (const text of ['billing', '2026-13-01', '2026-02-30', '2026-11-20T25:00', '11/20/2026', '']) expect(callTimeFrom(text, plusOne)).toBeNull();
  });
});

describe('splitCallTime', () => {
  test('recorded_at leaves the metadata; the rest stays', () => {
    const split = splitCallTime({ agent: 'sam', recorded_at: '2026-11-20T09:30Z' });
    expect(split).toEqual({ metadata: { agent: 'sam' }, recordedAt: '2026-11-20T09:30:00.000Z', problem: null });
    expect(splitCallTime({ agent: 'sam' })).toEqual({ metadata: { agent: 'sam' }, recordedAt: null, problem: null });
    expect(splitCallTime({ recorded_at: 'monday' }).problem).toMatch(/not a date/);
  });
});
