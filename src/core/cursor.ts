// What every list shares: opaque keyset cursors over a table's insertion sequence (newest
// first) and the comma-separated `status` filter.
import { invalid } from '../errors.ts';

export function encodeCursor(seq: number): string {
  return Buffer.from(JSON.stringify({ s: seq })).toString('base64url');
}

/** The positive whole number a cursor of this API holds under `field`; any other is a 400. */
function cursorNumber(cursor: string, field: 's' | 'o'): number {
  try {
    const value = (JSON.parse(Buffer.from(cursor, 'base64url').toString()) as Record<string, unknown>)[field];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  } catch {
    // falls through to the error below
  }
  throw invalid('cursor', 'is not a cursor this API returned');
}

export function decodeCursor(cursor: string): number {
  return cursorNumber(cursor, 's');
}

/** The page of `rows` (fetched with limit + 1) and the cursor of the next one. */
export function page<T extends { seq: number }>(rows: T[], limit: number): { data: T[]; next_cursor: string | null } {
  const data = rows.slice(0, limit);
  const last = data.at(-1);
  return { data, next_cursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
}

/**
 * Pages of a short list kept in its own order (scenarios oldest first, keys, webhooks): `offset`,
 * or the opaque `cursor` of the page before, which carries the offset to go on from.
 */
export interface OffsetQuery {
  limit: number;
  offset: number;
  cursor?: string | undefined;
}

/** Rows from `start`, at most `take` of them. */
export interface RowWindow {
  start: number;
  take: number;
}

export function offsetStart(query: OffsetQuery): number {
  return query.cursor === undefined ? query.offset : cursorNumber(query.cursor, 'o');
}

/** The page of `rows` (fetched from `start` with limit + 1) and the cursor of the next one. */
export function offsetPage<T>(rows: T[], limit: number, start: number): { data: T[]; next_cursor: string | null } {
  const data = rows.slice(0, limit);
  return { data, next_cursor: rows.length > limit ? Buffer.from(JSON.stringify({ o: start + limit })).toString('base64url') : null };
}

/** `status=a,b` checked against the statuses a resource can have. */
export function parseStatuses(raw: string, allowed: readonly string[], name = 'status'): string[] {
  const statuses = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (statuses.length === 0) throw invalid(name, `name at least one status; one of ${allowed.join(', ')}`);
  const unknown = statuses.filter((s) => !allowed.includes(s));
  if (unknown.length > 0) throw invalid(name, `unknown status ${unknown.join(', ')}; one of ${allowed.join(', ')}`);
  return statuses;
}

/**
 * A cursor over (created_at, seq), newest first: lists ordered by creation time, so a date range
 * is an index range. The time travels as whole microseconds since the epoch (a JavaScript Date
 * would lose PostgreSQL's microseconds and skip rows).
 */
/** `column`: the time the page is sorted by, when not created_at (a cursor is valid only for its sort). */
export function encodeTimeCursor(micros: number | string, seq: number, column?: string): string {
  return Buffer.from(JSON.stringify({ u: String(micros), s: seq, ...(column ? { c: column } : {}) })).toString('base64url');
}

export function decodeTimeCursor(cursor: string, column?: string): { micros: string; seq: number } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { u?: unknown; s?: unknown; c?: unknown };
    if (typeof value.u === 'string' && /^-?\d{1,17}$/.test(value.u) && typeof value.s === 'number' && Number.isSafeInteger(value.s) && value.s > 0 && value.c === column) {
      return { micros: value.u, seq: value.s };
    }
  } catch {
    // falls through to the error below
  }
  throw invalid('cursor', 'is not a cursor this API returned');
}
