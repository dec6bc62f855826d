// Turns an analysis report into chart rows: one row per x value (a period, or a metadata value),
// one series per question (or, grouped by a field over time, per field value for one question).
import { periodLabel } from './dates.ts';

export interface ReportGroup {
  key: Record<string, string | null>;
  results: number;
  questions: { question_id: string; question: string; true: number; false: number; rate: number | null }[];
}

export interface ChartData {
  rows: Record<string, string | number | null>[];
  x: string;
  series: { name: string; label: string }[];
  /** How many yes/no answers each point's rate is of, by the row's x label and the series' name ("100 %" of 1 call is not of 40). */
  counts: Record<string, Record<string, number>>;
}

const label = (value: string | null) => value ?? '(none)';

/**
 * `fieldKey` is the report's key of the field grouped by (`metadata.agent`, `category`), null for
 * none; `period` the period of `recorded_at` grouped by.
 */
export function chartOf(groups: ReportGroup[], fieldKey: string | null, period: string | null, questionId: string | null): ChartData {
  const periodKey = period ? `recorded_at:${period}` : null;
  const x = periodKey ?? fieldKey ?? 'all';
  const questions = groups[0]?.questions ?? [];
  const byX = new Map<string, Record<string, string | number | null>>();
  const countsByX = new Map<string, Record<string, number>>();
  const series = new Map<string, string>();
  for (const group of groups) {
    const xValue = periodKey ? label(group.key[periodKey] ?? null) : fieldKey ? label(group.key[fieldKey] ?? null) : 'All';
    const row = byX.get(xValue) ?? { [x]: xValue };
    const counts = countsByX.get(xValue) ?? {};
    if (periodKey && fieldKey) {
      // Lines per field value, for one question.
      const q = group.questions.find((item) => item.question_id === (questionId ?? questions[0]?.question_id));
      const name = label(group.key[fieldKey] ?? null);
      series.set(name, name);
      row[name] = q?.rate === null || q?.rate === undefined ? null : Math.round(q.rate * 1000) / 10;
      counts[name] = q ? q.true + q.false : 0;
    } else {
      for (const q of group.questions) {
        series.set(q.question_id, q.question);
        row[q.question_id] = q.rate === null ? null : Math.round(q.rate * 1000) / 10;
        counts[q.question_id] = q.true + q.false;
      }
    }
    byX.set(xValue, row);
    countsByX.set(xValue, counts);
  }
  // Sorted by the period's first day (or the field's value), then shown as people say a period.
  const shown = (value: string) => (period ? periodLabel(value, period) : value);
  const rows = [...byX.values()].sort((a, b) => String(a[x]).localeCompare(String(b[x]))).map((row) => ({ ...row, [x]: shown(String(row[x])) }));
  const counts = Object.fromEntries([...countsByX].map(([value, byName]) => [shown(value), byName]));
  // Lines per field value are listed in the order the table lists the groups (by value); bars per question in the questions' order.
  const named = [...series].map(([name, text]) => ({ name, label: text }));
  return { rows, x, series: periodKey && fieldKey ? named.sort((a, b) => a.name.localeCompare(b.name)) : named, counts };
}

/** The talk report's name for everyone on a one-channel call (its speakers are not told apart). */
export const ONE_CHANNEL = 'one_channel';

/** A talk report speaker as the chart's legend and the table name it. */
export const speakerLabel = (speaker: string): string => (speaker === ONE_CHANNEL ? 'Everyone, on one-channel calls' : speaker);

const DASHES = ['', '8 4', '2 4', '12 4 2 4'];

/**
 * How the `index`th of `count` lines is drawn so that lines at the same rates (two agents at 100 %
 * every week) all stay in sight: each drawn on top of the ones before it, narrower than they are,
 * dashed differently and with smaller dots, so a line under another shows around and between its
 * dashes, and a point under another as a ring around it.
 */
export function lineStyle(index: number, count: number): { strokeWidth: number; strokeDasharray: string; dotRadius: number } {
  const below = Math.max(0, Math.min(count, 4) - 1 - Math.min(index, 3));
  return { strokeWidth: 2 + 2 * below, strokeDasharray: DASHES[index % DASHES.length]!, dotRadius: 4 + 3 * below };
}
