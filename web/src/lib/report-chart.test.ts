import { describe, expect, test } from 'vitest';
import { chartOf, lineStyle, speakerLabel, type ReportGroup } from './report-chart.ts';

const q = (id: string, rate: number | null) => ({ question_id: id, question: `Question ${id}?`, true: rate === null ? 0 : rate * 4, false: rate === null ? 0 : 4 - rate * 4, rate });
const groups: ReportGroup[] = [
  { key: { 'metadata.agent': 'ben', 'recorded_at:week': '2026-11-09' }, results: 2, questions: [q('greeting', 0.5), q('refund', null)] },
  { key: { 'metadata.agent': 'ana', 'recorded_at:week': '2026-11-09' }, results: 2, questions: [q('greeting', 1), q('refund', 0)] },
  { key: { 'metadata.agent': 'ana', 'recorded_at:week': '2026-11-16' }, results: 1, questions: [q('greeting', 0.25), q('refund', 1)] },
];

describe('report charts', () => {
  test('by field and week: a line per agent for the chosen question, weeks in order', () => {
    const chart = chartOf(groups, 'metadata.agent', 'week', 'greeting');
    expect(chart.x).toBe('recorded_at:week');
    // In the order the table lists them (by value), whatever the groups' order (ben came first).
    expect(chart.series.map((s) => s.name)).toEqual(['ana', 'ben']);
    expect(chart.rows).toEqual([
      { 'recorded_at:week': 'week of 9 Nov 2026', ben: 50, ana: 100 },
      { 'recorded_at:week': 'week of 16 Nov 2026', ana: 25 },
    ]);
    // Each point's rate is of so many answers, by the label the chart shows.
    expect(chart.counts['week of 16 Nov 2026']).toEqual({ ana: 4 });
  });

  test('by field only: a bar per question for each value, rates in percent, no rate stays empty', () => {
    const chart = chartOf(groups.slice(0, 2).map((g) => ({ ...g, key: { 'metadata.agent': g.key['metadata.agent'] ?? null } })), 'metadata.agent', null, null);
    expect(chart.series).toEqual([
      { name: 'greeting', label: 'Question greeting?' },
      { name: 'refund', label: 'Question refund?' },
    ]);
    expect(chart.rows).toEqual([
      { 'metadata.agent': 'ana', greeting: 100, refund: 0 },
      { 'metadata.agent': 'ben', greeting: 50, refund: null },
    ]);
  });

  test('by call category: a bar group per category, a call in none under (none)', () => {
    const byCategory = [
      { key: { category: 'Refund offered' }, results: 2, questions: [q('greeting', 1)] },
      { key: { category: 'Unhappy customer' }, results: 1, questions: [q('greeting', 0)] },
      { key: { category: null }, results: 4, questions: [q('greeting', 0.5)] },
    ];
    expect(chartOf(byCategory, 'category', null, null).rows).toEqual([
      { category: '(none)', greeting: 50 },
      { category: 'Refund offered', greeting: 100 },
      { category: 'Unhappy customer', greeting: 0 },
    ]);
  });

  test('no grouping: one row', () => {
    expect(chartOf([{ key: {}, results: 3, questions: [q('greeting', 2 / 3)] }], null, null, null).rows).toEqual([{ all: 'All', greeting: 66.7 }]);
  });
});

describe('talk report speakers', () => {
  test('everyone on a one-channel call is named as such; others as the report names them', () => {
    expect(speakerLabel('one_channel')).toBe('Everyone, on one-channel calls');
    expect(speakerLabel('agent')).toBe('agent');
    expect(speakerLabel('channel_0')).toBe('channel_0');
  });
});

describe('lines at the same rates', () => {
  test('one line is drawn plain', () => {
    expect(lineStyle(0, 1)).toEqual({ strokeWidth: 2, strokeDasharray: '', dotRadius: 4 });
  });
  test('each line is narrower than those under it, with smaller dots, and dashed its own way, so none hides another', () => {
    for (const count of [2, 3, 4]) {
      const styles = Array.from({ length: count }, (_, i) => lineStyle(i, count));
      for (let i = 1; i < count; i++) {
        expect(styles[i]!.strokeWidth).toBeLessThan(styles[i - 1]!.strokeWidth);
        expect(styles[i]!.dotRadius).toBeLessThan(styles[i - 1]!.dotRadius);
      }
      expect(new Set(styles.map((s) => s.strokeDasharray)).size).toBe(count);
      expect(styles[0]!.strokeDasharray).toBe('');
    }
  });
  test('beyond four lines the dashes tell them apart', () => {
    const styles = Array.from({ length: 6 }, (_, i) => lineStyle(i, 6));
    expect(styles.slice(3).every((s) => s.strokeWidth === 2)).toBe(true);
    expect(styles[4]!.strokeDasharray).not.toBe(styles[3]!.strokeDasharray);
  });
});
