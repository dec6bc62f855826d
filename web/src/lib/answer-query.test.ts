import { describe, expect, test } from 'vitest';
import { answerTableQuery, firstEvidence, placeInQueue, queuedCallHref } from './answer-query.ts';

describe('the answers table and the calls opened from it', () => {
  test("the table's query: the execution, the answer filters and the recordings' own", () => {
    const search = new URLSearchParams('execution_id=exe-1&answer.greeting=false&metadata.agent=ben&metadata.agent=ana&tab=x');
    expect(answerTableQuery(search)).toEqual({ execution_id: 'exe-1', 'answer.greeting': 'false', 'metadata.agent': ['ben', 'ana'], limit: 1000, offset: 0 });
  });

  test("a call's link carries the table's URL, and the second to open it at", () => {
    const from = new URLSearchParams('answer.greeting=false&metadata.agent=ben');
    const href = queuedCallHref('ws-1', 'rec-2', 'sca-3', from, 4.5);
    const url = new URL(href, 'http://x');
    expect(url.pathname).toBe('/w/ws-1/recordings/rec-2');
    expect([url.searchParams.get('t'), url.searchParams.get('queue'), url.searchParams.get('from')]).toEqual(['4.5', 'sca-3', 'answer.greeting=false&metadata.agent=ben']);
    expect(new URL(queuedCallHref('ws-1', 'rec-2', 'sca-3', from, null), 'http://x').searchParams.has('t')).toBe(false);
    // The call the reviewer comes from rides along, for "← Previous call" once its review took it out of the table.
    expect(new URL(queuedCallHref('ws-1', 'rec-2', 'sca-3', from, null, 'rec-1'), 'http://x').searchParams.get('prev')).toBe('rec-1');
    expect(new URL(queuedCallHref('ws-1', 'rec-2', 'sca-3', from, null), 'http://x').searchParams.has('prev')).toBe(false);
  });

  test("the next call opens at the evidence of the question the table is filtered by, else of any", () => {
    const row = { answers: { greeting: { evidence_start: null }, refund: { evidence_start: 12 }, request: { evidence_start: 3 } } };
    expect(firstEvidence(row, new URLSearchParams('answer.request=uncertain'))).toBe(3);
    expect(firstEvidence(row, new URLSearchParams('answer.greeting=false'))).toBeNull();
    expect(firstEvidence(row, new URLSearchParams(''))).toBe(12);
  });

  test('a call a review took out of the table goes on from its place, not from the top', () => {
    const rows = [
      { recording_id: 'c8', recorded_at: '2026-11-20T10:00:00Z' },
      { recording_id: 'c7', recorded_at: '2026-11-19T10:00:00Z' },
      { recording_id: 'c3', recorded_at: '2026-11-16T10:00:00Z' },
    ];
    expect(placeInQueue(rows, 'c7', '2026-11-19T10:00:00Z')).toEqual({ here: 1, rest: [rows[2]], before: rows[0] });
    expect(placeInQueue(rows, 'c8', '2026-11-20T10:00:00Z')).toEqual({ here: 0, rest: rows.slice(1), before: undefined });
    // c5 (18 Nov) left the table: c3 comes next, not c8; the call before it is c7.
    expect(placeInQueue(rows, 'c5', '2026-11-18T10:00:00Z')).toEqual({ here: -1, rest: [rows[2]], before: rows[1] });
    expect(placeInQueue(rows, 'c1', '2026-11-01T10:00:00Z')).toEqual({ here: -1, rest: [], before: rows[2] });
  });
});
