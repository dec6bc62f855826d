// The SQL of runs, for both kinds: each statement is written once against the columns every run
// table shares, with the state each move starts from in its WHERE clause, so a move that lost a
// race (a cancel, a second worker) changes nothing.
import os from 'node:os';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.ts';
import { rowById } from '../../platform/db/rows-by-id.ts';
import type { Json } from '../../platform/db/tables.ts';
import type { AnyRunKind, RunRow } from './run-kind.ts';

type Table = AnyRunKind['table'];
type Row = RunRow & Record<string, unknown>;
interface RunColumns extends Omit<RunRow, 'scenario'> {
  scenario: Json;
  [column: string]: unknown;
}
type RunDb = Kysely<Record<Table, RunColumns>>;

/** The one place the run tables are seen through their shared columns. */
const view = (db: Db | Trx) => db as unknown as RunDb | Transaction<Record<Table, RunColumns>>;

export async function insertRun(trx: Trx, table: Table, values: Record<string, unknown>): Promise<Row> {
  return (await view(trx).insertInto(table).values(values as never).returningAll().executeTakeFirstOrThrow()) as Row;
}

/** The run tables' columns that are not text (the kinds' own columns are ids, all text). */
const columnTypes: Readonly<Record<string, string>> = {
  seq: 'bigint',
  attempts: 'integer',
  scenario: 'jsonb',
  progress: 'float8',
  retryable: 'boolean',
  created_at: 'timestamptz',
  started_at: 'timestamptz',
  completed_at: 'timestamptz',
  updated_at: 'timestamptz',
};

/** A value in its text form, as an array element sent to PostgreSQL. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Inserts many runs (an execution's) in one statement; returns their ids. Each column is sent once:
 * as one value when every row has the same (the scenario snapshot, the execution), else as an
 * array unnested into rows, so ten thousand runs are a few arrays, not ten thousand bound rows.
 */
export async function insertRuns(trx: Trx, table: Table, rows: Record<string, unknown>[]): Promise<string[]> {
  const first = rows[0];
  if (!first) return [];
  const columns = Object.keys(first);
  const arrays: { column: string; values: (string | null)[] }[] = [];
  // Every value goes in its text form and is cast to its column's type.
  const selected = columns.map((column) => {
    const values = rows.map((row) => asText(row[column]));
    const type = sql.raw(columnTypes[column] ?? 'text');
    if (values.every((value) => value === values[0])) return sql`${values[0]}::text::${type}`;
    arrays.push({ column, values });
    return sql`${sql.ref(`t.${column}`)}::${type}`;
  });
  const from = arrays.length === 0 ? sql`generate_series(1, ${rows.length}) AS t(n)` : sql`unnest(${sql.join(arrays.map((a) => sql`${a.values}::text[]`))}) AS t(${sql.join(arrays.map((a) => sql.ref(a.column)))})`;
  const { rows: inserted } = await sql<{ id: string }>`
    INSERT INTO ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))})
    SELECT ${sql.join(selected)} FROM ${from}
    RETURNING id`.execute(trx);
  return inserted.map((row) => row.id);
}

/** The ids of a recording's queued runs of one kind. */
export async function queuedRunIds(trx: Trx, table: Table, recordingId: string): Promise<string[]> {
  return (await view(trx).selectFrom(table).select('id').where('recording_id', '=', recordingId).where('status', '=', 'queued').execute()).map((row) => row.id);
}

export async function findRun(db: Db | Trx, table: Table, id: string, workspaceId?: string): Promise<Row | undefined> {
  if (workspaceId !== undefined) return rowById<Row>(db, table, workspaceId, id);
  let query = view(db).selectFrom(table).selectAll().where('id', '=', id);
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
  return (await query.executeTakeFirst()) as Row | undefined;
}

export interface RunListFilters {
  executionId?: string | undefined;
  recordingId?: string | undefined;
  statuses?: readonly string[] | undefined;
  beforeSeq?: number | undefined;
  offset?: number | undefined;
  limit: number;
}

export async function selectRuns(db: Db, table: Table, workspaceId: string, filters: RunListFilters): Promise<Row[]> {
  let query = view(db).selectFrom(table).selectAll().where('workspace_id', '=', workspaceId);
  if (filters.executionId !== undefined) query = query.where('execution_id', '=', filters.executionId);
  if (filters.recordingId !== undefined) query = query.where('recording_id', '=', filters.recordingId);
  if (filters.statuses) query = query.where('status', 'in', [...filters.statuses]);
  if (filters.beforeSeq !== undefined) query = query.where('seq', '<', filters.beforeSeq);
  return (await query.orderBy('seq', 'desc').offset(filters.offset ?? 0).limit(filters.limit).execute()) as Row[];
}

/** queued|running → cancelled. */
export async function markCancelled(trx: Trx, table: Table, id: string): Promise<Row | undefined> {
  return (await view(trx)
    .updateTable(table)
    // A run cancelled while it waited between automatic attempts is not failed: the last attempt's error goes.
    .set({ status: 'cancelled', completed_at: new Date(), updated_at: new Date(), error_code: null, error_message: null, retryable: null })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returningAll()
    .executeTakeFirst()) as Row | undefined;
}

/**
 * queued → running, or a running run whose heartbeat stopped (its worker died) → running again.
 * A running run with a live heartbeat is never claimed twice.
 */
/** This process, as runs record who claimed them. */
const WORKER = `${os.hostname()}/${process.pid}`;

export async function claimRun(db: Db, table: Table, id: string, staleSeconds: number): Promise<Row | undefined> {
  return (await view(db)
    .updateTable(table)
    .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), progress: 0, worker: WORKER, started_at: eb.fn.coalesce('started_at', sql<Date>`now()`), updated_at: new Date() }))
    .where('id', '=', id)
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('updated_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`)])]))
    .returningAll()
    .executeTakeFirst()) as Row | undefined;
}

/** Whether another workspace's runs wait while this one already runs `limit` of this kind. */
export async function holdsFairShare(db: Db, table: Table, workspaceId: string, limit: number): Promise<boolean> {
  const { rows } = await sql<{ mine: number; others: boolean }>`
    SELECT (SELECT count(*)::int FROM ${sql.table(table)} WHERE workspace_id = ${workspaceId} AND status = 'running') AS mine,
           EXISTS (SELECT 1 FROM ${sql.table(table)} WHERE workspace_id <> ${workspaceId} AND status = 'queued') AS others`.execute(db);
  const row = rows[0];
  return row !== undefined && row.mine >= limit && row.others;
}

/** The heartbeat: says the run is alive; false when it is no longer running (cancelled). */
export async function touchRun(db: Db, table: Table, id: string, progress?: number): Promise<boolean> {
  const result = await view(db)
    .updateTable(table)
    .set(progress === undefined ? { updated_at: new Date() } : { progress, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function isRunning(db: Db, table: Table, id: string): Promise<boolean> {
  const row = await view(db).selectFrom(table).select('status').where('id', '=', id).executeTakeFirst();
  return row?.status === 'running';
}

/** running → completed. */
export async function markCompleted(trx: Trx, table: Table, id: string): Promise<Row | undefined> {
  return (await view(trx)
    .updateTable(table)
    .set({ status: 'completed', progress: 1, error_code: null, error_message: null, retryable: null, completed_at: new Date(), updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .returningAll()
    .executeTakeFirst()) as Row | undefined;
}

export async function updateRun(trx: Trx, table: Table, id: string, values: Record<string, unknown>): Promise<Row> {
  return (await view(trx).updateTable(table).set(values as never).where('id', '=', id).returningAll().executeTakeFirstOrThrow()) as Row;
}

/** queued|running → failed. */
export async function markFailed(trx: Trx, table: Table, id: string, failure: { code: string; message: string; retryable: boolean }): Promise<Row | undefined> {
  return (await view(trx)
    .updateTable(table)
    .set({ status: 'failed', error_code: failure.code, error_message: failure.message, retryable: failure.retryable, completed_at: new Date(), updated_at: new Date() })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returningAll()
    .executeTakeFirst()) as Row | undefined;
}

/** running → queued, keeping the failure that caused the wait on the card. */
export async function markRequeued(trx: Trx, table: Table, id: string, failure: { code: string; message: string }): Promise<boolean> {
  const result = await view(trx)
    .updateTable(table)
    .set({ status: 'queued', error_code: failure.code, error_message: failure.message, retryable: true, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** running runs without a heartbeat for `staleSeconds` → queued; their ids. */
export async function requeueStale(trx: Trx, table: Table, staleSeconds: number): Promise<string[]> {
  const rows = await view(trx)
    .updateTable(table)
    .set({ status: 'queued', updated_at: new Date() })
    .where('status', '=', 'running')
    .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function queuedRunsOfRecording(trx: Trx, table: Table, recordingId: string): Promise<string[]> {
  const rows = await view(trx).selectFrom(table).select('id').where('recording_id', '=', recordingId).where('status', '=', 'queued').execute();
  return rows.map((row) => row.id);
}

export async function hasActiveRun(trx: Trx | Db, table: Table, where: { executionId?: string; recordingId?: string }): Promise<boolean> {
  let query = view(trx).selectFrom(table).select('id').where('status', 'in', ['queued', 'running']);
  if (where.executionId !== undefined) query = query.where('execution_id', '=', where.executionId);
  if (where.recordingId !== undefined) query = query.where('recording_id', '=', where.recordingId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function latestRunStatus(db: Db, table: Table, recordingId: string): Promise<string | undefined> {
  return (await view(db).selectFrom(table).select('status').where('recording_id', '=', recordingId).orderBy('seq', 'desc').executeTakeFirst())?.status;
}

/**
 * A running run given back to the queue by a worker shutting down: queued again, its claim not
 * counted as an attempt. Null when it was no longer running (cancelled, finished).
 */
export async function handBackRun(trx: Trx, table: Table, id: string): Promise<Row | undefined> {
  return (await view(trx)
    .updateTable(table)
    .set((eb) => ({ status: 'queued', attempts: sql<number>`greatest(${eb.ref('attempts')} - 1, 0)`, progress: 0, updated_at: new Date() }))
    .where('id', '=', id)
    .where('status', '=', 'running')
    .returningAll()
    .executeTakeFirst()) as Row | undefined;
}
