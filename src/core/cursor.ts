// What every list shares: opaque keyset cursors over a table's insertion sequence (newest
// first) and the comma-separated `status` filter. A cursor names the list it pages ("runs:analysis",
// "search"…): given to another list, it is a 400, not read as a place in that one.
import { invalid } from '../errors.ts';

/**
 * A cursor's fields, or undefined where it is not one this API wrote: its text must be exactly
 * what encoding them gives (base64url decoding skips characters it cannot place, so a cursor
 * with one more character would otherwise read as the original).
 */
function cursorFields(cursor: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    return Buffer.from(JSON.stringify(value)).toString('base64url') === cursor ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function encodeCursor(seq: number, list: string): string {
  return Buffer.from(JSON.stringify({ s: seq, l: list })).toString('base64url');
}

/** The positive whole number a cursor of this API holds under `field`, for `list`; any other is a 400. */
function cursorNumber(cursor: string, field: 's' | 'o', list: string): number {
  const value = cursorFields(cursor);
  const number = value?.[field];
  if (value && typeof number === 'number' && Number.isSafeInteger(number) && number > 0) {
    if (value.l === list) return number;
    throw invalid('cursor', `is a cursor of another list${typeof value.l === 'string' ? ` (${value.l})` : ''}: page a list with the next_cursor it returned`);
  }
  throw invalid('cursor', 'is not a cursor this API returned');
}

export function decodeCursor(cursor: string, list: string): number {
  return cursorNumber(cursor, 's', list);
}

/** The page of `rows` (fetched with limit + 1) and the cursor of the next one. */
export function page<T extends { seq: number }>(rows: T[], limit: number, list: string): { data: T[]; next_cursor: string | null } {
  const data = rows.slice(0, limit);
  const last = data.at(-1);
  return { data, next_cursor: rows.length > limit && last ? encodeCursor(last.seq, list) : null };
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

export function offsetStart(query: OffsetQuery, list: string): number {
  return query.cursor === undefined ? query.offset : cursorNumber(query.cursor, 'o', list);
}

/** The page of `rows` (fetched from `start` with limit + 1) and the cursor of the next one. */
export function offsetPage<T>(rows: T[], limit: number, start: number, list: string): { data: T[]; next_cursor: string | null } {
  const data = rows.slice(0, limit);
  return { data, next_cursor: rows.length > limit ? Buffer.from(JSON.stringify({ o: start + limit, l: list })).toString('base64url') : null };
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
  const value = cursorFields(cursor);
  if (value && typeof value.u === 'string' && /^-?\d{1,17}$/.test(value.u) && typeof value.s === 'number' && Number.isSafeInteger(value.s) && value.s > 0 && value.c === column) {
    return { micros: value.u, seq: value.s };
  }
  throw invalid('cursor', 'is not a cursor this API returned');
}
