// Transcription runs: start, read, list, cancel, retry; and transcripts by run or recording.
import type { Selectable } from 'kysely';
import type { Context } from '../context.ts';
import type { Db, Trx } from '../db/database.ts';
import type { TranscriptionRunsTable, TranscriptsTable } from '../db/tables.ts';
import { transcriptionRunEvent } from './events.ts';
import { decodeCursor, page, parseStatuses } from './cursor.ts';
import { AppError, invalid, notFound } from '../errors.ts';
import { isId, newId } from '../ids.ts';
import { assertTranscribable, getRecording, type Recording } from './recordings.ts';
import { getTranscriptionScenario, type TranscriptionScenario } from './transcription-scenarios.ts';

export type TranscriptionRun = Selectable<TranscriptionRunsTable>;
export type TranscriptRow = Selectable<TranscriptsTable>;

export const runStatuses = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;

/** What a run keeps of its scenario, so a retry reproduces it even after the scenario changed. */
export type ScenarioSnapshot = Pick<TranscriptionScenario, 'id' | 'engine' | 'model' | 'language' | 'options' | 'retry'>;

export async function createTranscriptionRun(
  ctx: Context,
  trx: Trx,
  input: { workspaceId: string; recordingId: string; scenario: ScenarioSnapshot; executionId?: string | null; retryOf?: string | null },
): Promise<TranscriptionRun> {
  const snapshot: ScenarioSnapshot = {
    id: input.scenario.id,
    engine: input.scenario.engine,
    model: input.scenario.model,
    language: input.scenario.language,
    options: input.scenario.options,
    retry: input.scenario.retry,
  };
  const run = await trx
    .insertInto('transcription_runs')
    .values({
      id: newId('transcriptionRun'),
      workspace_id: input.workspaceId,
      recording_id: input.recordingId,
      transcription_scenario_id: snapshot.id,
      execution_id: input.executionId ?? null,
      retry_of: input.retryOf ?? null,
      status: 'queued',
      engine: snapshot.engine,
      model: snapshot.model,
      scenario: JSON.stringify(snapshot),
      updated_at: new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await ctx.queue.send('transcribe', { runId: run.id }, { trx });
  return run;
}

async function defaultScenarioId(db: Db, workspaceId: string): Promise<string> {
  const row = await db
    .selectFrom('transcription_scenarios')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .orderBy('auto', 'desc')
    .orderBy('created_at')
    .executeTakeFirst();
  if (!row) throw invalid('transcription_scenario_id', 'is required: the workspace has no scenario');
  return row.id;
}

export async function startTranscription(ctx: Context, workspaceId: string, recordingId: string, scenarioId: string | undefined): Promise<TranscriptionRun> {
  const recording = await getRecording(ctx, workspaceId, recordingId);
  assertTranscribable(recording);
  const scenario = await getTranscriptionScenario(ctx.db, workspaceId, scenarioId ?? (await defaultScenarioId(ctx.db, workspaceId)));
  return ctx.db.transaction().execute((trx) => createTranscriptionRun(ctx, trx, { workspaceId, recordingId: recording.id, scenario }));
}

export async function getTranscriptionRun(db: Db | Trx, workspaceId: string, id: string): Promise<TranscriptionRun> {
  const run = isId('transcriptionRun', id)
    ? await db.selectFrom('transcription_runs').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!run) throw notFound(`transcription run ${id}`);
  return run;
}

export interface RunFilters {
  jobId?: string | undefined;
  recording_id?: string | undefined;
  status?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

export async function listTranscriptionRuns(ctx: Context, workspaceId: string, filters: RunFilters): Promise<{ data: TranscriptionRun[]; next_cursor: string | null }> {
  let query = ctx.db.selectFrom('transcription_runs').selectAll().where('workspace_id', '=', workspaceId);
  if (filters.jobId !== undefined) query = query.where('execution_id', '=', filters.jobId);
  if (filters.recording_id !== undefined) query = query.where('recording_id', '=', filters.recording_id);
  if (filters.status) query = query.where('status', 'in', parseStatuses(filters.status, runStatuses));
  if (filters.cursor) query = query.where('seq', '<', decodeCursor(filters.cursor));
  return page(await query.orderBy('seq', 'desc').limit(filters.limit + 1).execute(), filters.limit);
}

export async function cancelTranscriptionRun(ctx: Context, workspaceId: string, id: string): Promise<TranscriptionRun> {
  const run = await getTranscriptionRun(ctx.db, workspaceId, id);
  const cancelled = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('transcription_runs')
      .set({ status: 'cancelled', completed_at: new Date(), updated_at: new Date() })
      .where('id', '=', run.id)
      .where('status', 'in', ['queued', 'running'])
      .returningAll()
      .executeTakeFirst();
    if (row) await transcriptionRunEvent(ctx, trx, row);
    return row;
  });
  if (!cancelled) throw new AppError('run_not_cancellable', `the run is ${run.status}; only a queued or running run can be cancelled`);
  return cancelled;
}

export async function retryTranscriptionRun(ctx: Context, workspaceId: string, id: string): Promise<TranscriptionRun> {
  const run = await getTranscriptionRun(ctx.db, workspaceId, id);
  if (run.status !== 'failed') throw new AppError('run_not_retryable', `the run is ${run.status}; only a failed run can be retried`);
  const recording = await getRecording(ctx, workspaceId, run.recording_id);
  assertTranscribable(recording);
  return ctx.db.transaction().execute((trx) =>
    createTranscriptionRun(ctx, trx, {
      workspaceId,
      recordingId: run.recording_id,
      scenario: run.scenario as ScenarioSnapshot,
      executionId: run.execution_id,
      retryOf: run.id,
    }),
  );
}

export async function transcriptOfRun(ctx: Context, workspaceId: string, runId: string): Promise<TranscriptRow> {
  const run = await getTranscriptionRun(ctx.db, workspaceId, runId);
  if (run.status !== 'completed' || !run.transcript_id) {
    throw new AppError('run_not_completed', `the run is ${run.status}; its transcript exists once it is completed`);
  }
  return ctx.db.selectFrom('transcripts').selectAll().where('id', '=', run.transcript_id).executeTakeFirstOrThrow();
}

export async function latestTranscript(db: Db | Trx, workspaceId: string, recordingId: string): Promise<TranscriptRow | undefined> {
  return db
    .selectFrom('transcripts')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('recording_id', '=', recordingId)
    .orderBy('seq', 'desc')
    .executeTakeFirst();
}

export async function transcriptOfRecording(ctx: Context, workspaceId: string, recordingId: string): Promise<TranscriptRow> {
  const recording: Recording = await getRecording(ctx, workspaceId, recordingId);
  const transcript = await latestTranscript(ctx.db, workspaceId, recording.id);
  if (!transcript) throw new AppError('transcript_not_available', 'the recording has no completed transcript yet');
  return transcript;
}

