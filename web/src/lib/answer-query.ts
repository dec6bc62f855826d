// The answers table's query for a page URL — one execution's results or every call's latest, the
// answer filters and the recordings' own — and the link to a call opened from that table, which
// carries the table's URL so the call's page can go on to the next call of it (a review queue).
import { filtersFromSearch, filtersToQuery } from './filters.ts';

export function answerTableQuery(search: URLSearchParams) {
  const executionId = search.get('execution_id');
  const answers = Object.fromEntries([...search.entries()].filter(([name]) => name.startsWith('answer.')));
  return { ...(executionId ? { execution_id: executionId } : {}), ...answers, ...filtersToQuery(filtersFromSearch(search)), limit: 1000, offset: 0 };
}

/** A call of the answers table of `scenarioId` (its page's URL search `from`), opened at `at` seconds where given. */
/** `previous`: the call the reviewer comes from, for "← Previous call" (a call reviewed may have left the table since). */
export function queuedCallHref(workspaceId: string, recordingId: string, scenarioId: string, from: URLSearchParams, at: number | null, previous?: string): string {
  const search = new URLSearchParams({ ...(at === null ? {} : { t: String(at) }), queue: scenarioId, from: from.toString(), ...(previous ? { prev: previous } : {}) });
  return `/w/${workspaceId}/recordings/${recordingId}?${search.toString()}`;
}

/** Where a call's first evidence is, for the questions the table is filtered by (else any): the second to open the next call at. */
export function firstEvidence(row: { answers: Record<string, { evidence_start: number | null } | undefined> }, from: URLSearchParams): number | null {
  const filtered = [...from.keys()].filter((name) => name.startsWith('answer.')).map((name) => name.slice('answer.'.length));
  const ids = filtered.length > 0 ? filtered : Object.keys(row.answers);
  for (const id of ids) {
    const start = row.answers[id]?.evidence_start;
    if (start !== null && start !== undefined) return start;
  }
  return null;
}

/**
 * Where a call stands in the table's rows (newest call first: recorded_at, then id, descending):
 * its index (-1 once a review took it out of the table) and the rows after it, from its place.
 */
export function placeInQueue<T extends { recording_id: string; recorded_at: string }>(rows: readonly T[], recordingId: string, recordedAt: string): { here: number; rest: T[]; before: T | undefined } {
  const here = rows.findIndex((row) => row.recording_id === recordingId);
  if (here !== -1) return { here, rest: rows.slice(here + 1), before: rows[here - 1] };
  const at = new Date(recordedAt).getTime();
  const after = (row: T) => {
    const time = new Date(row.recorded_at).getTime();
    return time < at || (time === at && row.recording_id < recordingId);
  };
  return { here, rest: rows.filter(after), before: rows.filter((row) => !after(row)).at(-1) };
}
