import { describe, expect, it } from 'vitest';
import { formatCallTime, formatDate, formatDateTime, periodLabel } from './dates.ts';

describe('dates', () => {
  it('writes a day, a short month and a year, in local time', () => {
    const local = new Date(2026, 10, 5, 9, 7);
    expect(formatDate(local)).toBe('5 Nov 2026');
    expect(formatDateTime(local)).toBe('5 Nov 2026, 09:07');
    expect(formatDateTime(local.toISOString())).toBe('5 Nov 2026, 09:07');
  });

  it('writes a call given only its day (stored as local noon) as the day alone', () => {
    expect(formatCallTime(new Date(2026, 10, 18, 12, 0, 0, 0))).toBe('18 Nov 2026');
    expect(formatCallTime(new Date(2026, 10, 18, 12, 0, 1))).toBe('18 Nov 2026, 12:00');
    expect(formatCallTime(new Date(2026, 10, 18, 9, 30).toISOString())).toBe('18 Nov 2026, 09:30');
    expect(formatCallTime('soon')).toBe('');
  });

  it('writes nothing for a value that is not a date', () => {
    expect(formatDate('soon')).toBe('');
    expect(formatDateTime('')).toBe('');
  });
});

describe('periodLabel', () => {
  it('says a report period as people say it, from its first day, whatever the time zone', () => {
    expect(periodLabel('2026-11-16', 'day')).toBe('16 Nov 2026');
    expect(periodLabel('2026-11-16', 'week')).toBe('week of 16 Nov 2026');
    expect(periodLabel('2026-11-01', 'month')).toBe('Nov 2026');
    expect(periodLabel('2026-11-01T00:00:00.000Z', 'month')).toBe('Nov 2026');
    expect(periodLabel('(none)', 'week')).toBe('(none)');
  });
});
