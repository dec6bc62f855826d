// Batch executions of a scenario over many recordings, with idempotency keys: the same key and
// body return the original execution; another body is refused; concurrent duplicates make one.
import { createHash } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Context } from '../../context.ts';
import type { Db, Trx } from '../../platform/db/database.ts';
import type { ExecutionsTable } from '../../platform/db/tables.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { isUuid, newUuid } from '../../ids.ts';
import { decodeCursor, page } from '../cursor.ts';
import { transcribableStatuses, type RecordingStatus } from '../../platform/db/tables.ts';
import { selectionFilters, type Selection } from '../scenarios/selection.ts';
import { recordingConditions } from '../recordings/recording-filters.ts';
import { runTables, type RunKindName } from '../runs/run-kind.ts';

export type ExecutionRow = Selectable<ExecutionsTable>;
/** An execution runs one kind of run. */
export type ExecutionKind = RunKindName;

export interface Counts {
  queued: number;
  running: number;
  completed: number;
  failed: number;
  cancelled: number;
  /** Recordings of the execution deleted since (their runs went with them): the counts add up to its recording_ids. */
  deleted: number;
}

export interface Execution extends ExecutionRow {
  status: 'queued' | 'running' | 'completed' | 'completed_with_errors';
  counts: Counts;
}

function requestHash(recordingIds: string[] | undefined): string {
  const canonical = recordingIds === undefined ? { selection: true } : { recording_ids: [...new Set(recordingIds)].sort() };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

interface ExecutionRequest {
  kind: ExecutionKind;
  workspaceId: string;
  scenarioId: string;
  selection: Selection;
  recordingIds?: string[] | undefined;
  idempotencyKey: string;
  /** Creates the child runs of the new execution, inside its transaction. */
  startRuns: (trx: Trx, executionId: string, recordingIds: string[]) => Promise<void>;
}

export interface ExecutionBody {
  recording_ids?: string[] | undefined;
  idempotency_key: string;
}

/**
 * The `Idempotency-Key` header as sent: its bytes read as UTF-8 where they are (Node reads header
 * bytes one to a character, so "kéy" sent in UTF-8 arrived as "kÃ©y", another key than the body's
 * "kéy"), else as Latin-1, as clients that write headers in Latin-1 meant them. Sent twice (Node
 * joins the values with ", "), it is a 400.
 */
function headerKey(rawHeaders: readonly string[]): string | undefined {
  const sent: string[] = [];
  for (let i = 0; i < rawHeaders.length - 1; i += 2) if (rawHeaders[i]!.toLowerCase() === 'idempotency-key') sent.push(rawHeaders[i + 1]!);
  if (sent.length > 1) throw invalid('Idempotency-Key', 'is sent more than once: send one key');
  const [raw] = sent;
  if (raw === undefined) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(raw, 'latin1'));
  } catch {
    return raw;
  }
}

/** The execution's key: the body's `idempotency_key` or the `Idempotency-Key` header (one is required; both must agree). */
export function idempotencyKeyOf(body: { idempotency_key?: string | undefined }, rawHeaders: readonly string[]): string {
  const [field, header] = [body.idempotency_key, headerKey(rawHeaders)];
  if (field !== undefined && header !== undefined && field !== header) throw invalid('idempotency_key', 'differs from the Idempotency-Key header: send the key once, or the same in both');
  const key = field ?? header;
  if (key === undefined) throw invalid('idempotency_key', 'is required: in the body, or as an Idempotency-Key header');
  checkIdempotencyKey(key, field !== undefined ? 'idempotency_key' : 'Idempotency-Key');
  return key;
}
/** An execution of `scenario` as the request body asks; `startRuns` makes its child runs. */
export function startExecution(
  ctx: Context,
  kind: ExecutionKind,
  workspaceId: string,
  scenario: { id: string; selection: Selection },
  body: ExecutionBody,
  startRuns: ExecutionRequest['startRuns'],
): Promise<{ execution: Execution; created: boolean }> {
  checkIdempotencyKey(body.idempotency_key);
  return createExecution(ctx, { kind, workspaceId, scenarioId: scenario.id, selection: scenario.selection, recordingIds: body.recording_ids, idempotencyKey: body.idempotency_key, startRuns });
}

/** Returns the execution and whether it was created by this call. */
async function createExecution(ctx: Context, request: ExecutionRequest): Promise<{ execution: Execution; created: boolean }> {
  const hash = requestHash(request.recordingIds);
  const existing = await findByKey(ctx, request);
  if (existing) return { execution: await withCounts(ctx, checkSameRequest(existing, hash)), created: false };

  const recordingIds = request.recordingIds ? [...new Set(request.recordingIds)] : await selectRecordings(ctx, request);
  if (request.recordingIds) {
    const found = await ctx.db.selectFrom('recordings').select('id').where('workspace_id', '=', request.workspaceId).where('id', '=', sql<string>`ANY(${recordingIds}::text[])`).execute();
    const known = new Set(found.map((r) => r.id));
    const unknown = request.recordingIds.flatMap((id, i) => (known.has(id) ? [] : [{ id, i }]));
    if (unknown.length > 0) {
      // Each unknown id named by its place in the body (`recording_ids/1`), as every refused field is.
      throw new AppError('validation_failed', `unknown recording ids: ${[...new Set(unknown.map((u) => u.id))].join(', ')}`, unknown.map((u) => ({ path: `recording_ids/${u.i}`, message: `unknown recording ${u.id}` })));
    }
  }
  const id = newUuid();
  const inserted = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('executions')
      .values({ id, workspace_id: request.workspaceId, kind: request.kind, scenario_id: request.scenarioId, idempotency_key: request.idempotencyKey, request_hash: hash, recording_ids: recordingIds })
      .onConflict((oc) => oc.columns(['workspace_id', 'kind', 'scenario_id', 'idempotency_key']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) return row;
    await request.startRuns(trx, row.id, recordingIds);
    // As the runs left it: an execution with none is finished already.
    return trx.selectFrom('executions').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
  });
  if (inserted) return { execution: await withCounts(ctx, inserted), created: true };
  // A concurrent duplicate won the race: answer as a replay.
  const winner = await findByKey(ctx, request);
  if (!winner) throw new Error('execution vanished after an idempotency conflict');
  return { execution: await withCounts(ctx, checkSameRequest(winner, hash)), created: false };
}

function checkSameRequest(execution: ExecutionRow, hash: string): ExecutionRow {
  if (execution.request_hash !== hash) {
    throw new AppError('idempotency_key_reused', 'this idempotency key was used with a different request body');
  }
  return execution;
}

function findByKey(ctx: Context, request: ExecutionRequest) {
  return ctx.db
    .selectFrom('executions')
    .selectAll()
    .where('workspace_id', '=', request.workspaceId)
    .where('kind', '=', request.kind)
    .where('scenario_id', '=', request.scenarioId)
    .where('idempotency_key', '=', request.idempotencyKey)
    .executeTakeFirst();
}

/**
 * The recordings an execution without `recording_ids` takes: its scenario's selection, of those
 * the run can start on. A transcription needs the audio; an analysis needs a transcript, and not
 * the audio (kept transcripts are analysed after the audio's retention ends): a recording not yet
 * transcribed is left out, not counted as deleted.
 */
async function selectRecordings(ctx: Context, request: ExecutionRequest): Promise<string[]> {
  let query = ctx.db.selectFrom('recordings').select('id').where('workspace_id', '=', request.workspaceId);
  query =
    request.kind === 'analysis'
      ? query.where((eb) => eb.exists(eb.selectFrom('transcripts as t').select('t.id').whereRef('t.recording_id', '=', 'recordings.id').where('t.workspace_id', '=', request.workspaceId)))
      : // The audio kept, as audioExpired (core/recordings) reads it: not deleted, not past expires_at.
        query.where('audio_deleted_at', 'is', null).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]));
  // Stored selections are checked against the statuses when saved (scenarios/selection.ts); one
  // stored empty (before empty lists were refused) means the default. Of a transcription's, only
  // those a run can start from: a failed recording among them is left out, not the whole execution refused.
  let statuses = (request.selection.statuses.length > 0 ? request.selection.statuses : ['completed']) as RecordingStatus[];
  if (request.kind === 'transcription') statuses = statuses.filter((status) => transcribableStatuses.includes(status));
  if (statuses.length === 0) return [];
  query = query.where('status', 'in', statuses);
  // Matched as the list matches its metadata filters ("3" finds 3 and "3").
  for (const condition of recordingConditions({ metadata: selectionFilters(request.selection.metadata) }, 'recordings')) query = query.where(condition);
  const rows = await query.orderBy('seq').limit(10_000).execute();
  return rows.map((r) => r.id);
}

/** The counts of a page of executions, by id: one statement per kind of run, not one per execution. */
async function countsOf(db: Db | Trx, executions: readonly ExecutionRow[]): Promise<Map<string, Counts>> {
  const out = new Map<string, Counts>(executions.map((e) => [e.id, { queued: 0, running: 0, completed: 0, failed: 0, cancelled: 0, deleted: 0 }]));
  for (const kind of Object.keys(runTables) as ExecutionKind[]) {
    const ids = executions.filter((e) => e.kind === kind).map((e) => e.id);
    if (ids.length === 0) continue;
    // A recording retried inside an execution counts by its latest run.
    const { rows } = await sql<{ execution_id: string; status: string; n: number }>`
      SELECT execution_id, status, count(*)::int AS n FROM (
        SELECT DISTINCT ON (execution_id, recording_id) execution_id, status FROM ${sql.table(runTables[kind])}
        WHERE execution_id = ANY(${ids}::text[]) ORDER BY execution_id, recording_id, seq DESC
      ) latest GROUP BY execution_id, status`.execute(db);
    for (const row of rows) {
      const counts = out.get(row.execution_id);
      if (counts && row.status in counts) counts[row.status as keyof Counts] = Number(row.n);
    }
  }
  for (const execution of executions) {
    const counts = out.get(execution.id)!;
    counts.deleted = Math.max(0, execution.recording_ids.length - (counts.queued + counts.running + counts.completed + counts.failed + counts.cancelled));
  }
  return out;
}

function withStatus<E extends ExecutionRow>(execution: E, counts: Counts): E & { status: Execution['status']; counts: Counts } {
  const active = counts.queued + counts.running;
  const status =
    active === 0 ? (counts.failed + counts.cancelled > 0 ? 'completed_with_errors' : 'completed') : counts.running + counts.completed + counts.failed > 0 ? 'running' : 'queued';
  return { ...execution, status, counts };
}

/** Executions with the status and counts their runs give. */
async function withCountsAll<E extends ExecutionRow>(ctx: { db: Db | Trx }, executions: readonly E[]): Promise<(E & { status: Execution['status']; counts: Counts })[]> {
  const counts = await countsOf(ctx.db, executions);
  return executions.map((execution) => withStatus(execution, counts.get(execution.id)!));
}

export async function withCounts(ctx: { db: Db | Trx }, execution: ExecutionRow): Promise<Execution> {
  return (await withCountsAll(ctx, [execution]))[0]!;
}

export async function getExecution(ctx: Context, workspaceId: string, kind: ExecutionKind, scenarioId: string, id: string): Promise<Execution> {
  const row = isUuid(id)
    ? await ctx.db.selectFrom('executions').selectAll().where('workspace_id', '=', workspaceId).where('kind', '=', kind).where('scenario_id', '=', scenarioId).where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!row) throw notFound(`execution ${id}`);
  return withCounts(ctx, row);
}

export async function listExecutions(
  ctx: Context,
  workspaceId: string,
  kind: ExecutionKind,
  scenarioId: string,
  options: { limit: number; offset?: number | undefined; cursor?: string | undefined },
): Promise<{ data: Execution[]; next_cursor: string | null }> {
  let query = ctx.db.selectFrom('executions').selectAll().where('workspace_id', '=', workspaceId).where('kind', '=', kind).where('scenario_id', '=', scenarioId);
  if (options.cursor) query = query.where('seq', '<', decodeCursor(options.cursor, 'executions'));
  const { data, next_cursor } = page(await query.orderBy('seq', 'desc').offset(options.offset ?? 0).limit(options.limit + 1).execute(), options.limit, 'executions');
  return { data: await withCountsAll(ctx, data), next_cursor };
}

/** Every execution of a workspace of the given kinds, newest first, with its scenario's name (null once deleted). */
export async function listWorkspaceExecutions(
  ctx: Context,
  workspaceId: string,
  kinds: readonly ExecutionKind[],
  options: { limit: number; offset?: number | undefined; cursor?: string | undefined },
): Promise<{ data: (Execution & { scenario_name: string | null })[]; next_cursor: string | null }> {
  let query = ctx.db
    .selectFrom('executions as e')
    .leftJoin('transcription_scenarios as ts', (join) => join.onRef('ts.id', '=', 'e.scenario_id').on('e.kind', '=', 'transcription'))
    .leftJoin('analysis_scenarios as sa', (join) => join.onRef('sa.id', '=', 'e.scenario_id').on('e.kind', '=', 'analysis'))
    .selectAll('e')
    .select((eb) => eb.fn.coalesce('ts.name', 'sa.name').as('scenario_name'))
    .where('e.workspace_id', '=', workspaceId)
    .where('e.kind', 'in', [...kinds]);
  if (options.cursor) query = query.where('e.seq', '<', decodeCursor(options.cursor, 'executions'));
  const { data, next_cursor } = page(await query.orderBy('e.seq', 'desc').offset(options.offset ?? 0).limit(options.limit + 1).execute(), options.limit, 'executions');
  return { data: await withCountsAll(ctx, data), next_cursor };
}

/** A key of 1 to 255 characters, counted as JSON Schema counts them (code points: an emoji is one). */
export function checkIdempotencyKey(key: string, name = 'idempotency_key'): void {
  const characters = [...key].length;
  if (characters === 0 || characters > 255) throw invalid(name, 'must be 1 to 255 characters');
}
