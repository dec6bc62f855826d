// Analysis runs and results: start (bound to one transcript version), read, list, cancel, retry.
import type { Selectable } from 'kysely';
import type { Context } from '../context.ts';
import type { Db, Trx } from '../db/database.ts';
import type { AnalysisResultsTable, AnalysisRunsTable } from '../db/tables.ts';
import { analysisRunEvent } from './events.ts';
import { decodeCursor, page, parseStatuses } from './cursor.ts';
import { AppError, invalid, notFound } from '../errors.ts';
import { isId, isUuid, newId } from '../ids.ts';
import { getAnalysisScenario, type AnalysisScenario } from './analysis-scenarios.ts';
import { getRecording } from './recordings.ts';
import { latestTranscript, runStatuses, type TranscriptRow } from './transcription-runs.ts';

export type AnalysisRun = Selectable<AnalysisRunsTable>;
export type AnalysisResultRow = Selectable<AnalysisResultsTable>;

export type AnalysisSnapshot = Pick<AnalysisScenario, 'id' | 'engine' | 'model' | 'instructions' | 'questions' | 'summary' | 'retry' | 'options'>;

export async function createAnalysisRun(
  ctx: Context,
  trx: Trx,
  input: { workspaceId: string; transcript: TranscriptRow; scenario: AnalysisSnapshot; executionId?: string | null; retryOf?: string | null },
): Promise<AnalysisRun> {
  const { id: scenarioId, engine, model, instructions, questions, summary, retry, options } = input.scenario;
  const run = await trx
    .insertInto('analysis_runs')
    .values({
      id: newId('analysisRun'),
      workspace_id: input.workspaceId,
      recording_id: input.transcript.recording_id,
      analysis_scenario_id: scenarioId,
      transcript_id: input.transcript.id,
      transcription_run_id: input.transcript.transcription_run_id,
      execution_id: input.executionId ?? null,
      retry_of: input.retryOf ?? null,
      status: 'queued',
      engine,
      model,
      scenario: JSON.stringify({ id: scenarioId, engine, model, instructions, questions, summary, retry, options }),
      updated_at: new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await ctx.queue.send('analyze', { runId: run.id }, { trx });
  return run;
}

/** The transcript a new analysis of `recordingId` reads: the given version, or the latest. */
export async function transcriptForAnalysis(db: Db | Trx, workspaceId: string, recordingId: string, transcriptId?: string): Promise<TranscriptRow> {
  if (transcriptId !== undefined) {
    const transcript = isUuid(transcriptId)
      ? await db.selectFrom('transcripts').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', transcriptId).executeTakeFirst()
      : undefined;
    if (!transcript) throw notFound(`transcript ${transcriptId}`);
    if (transcript.recording_id !== recordingId) throw invalid('transcript_id', `belongs to recording ${transcript.recording_id}, not ${recordingId}`);
    return transcript;
  }
  const latest = await latestTranscript(db, workspaceId, recordingId);
  if (!latest) throw new AppError('transcript_not_available', 'the recording has no completed transcript to analyse yet');
  return latest;
}

export async function startAnalysis(ctx: Context, workspaceId: string, recordingId: string, input: { analysis_scenario_id: string; transcript_id?: string | undefined }): Promise<AnalysisRun> {
  const recording = await getRecording(ctx, workspaceId, recordingId);
  const scenario = await getAnalysisScenario(ctx.db, workspaceId, input.analysis_scenario_id);
  const transcript = await transcriptForAnalysis(ctx.db, workspaceId, recording.id, input.transcript_id);
  return ctx.db.transaction().execute((trx) => createAnalysisRun(ctx, trx, { workspaceId, transcript, scenario }));
}

export async function getAnalysisRun(db: Db | Trx, workspaceId: string, id: string): Promise<AnalysisRun> {
  const run = isId('analysisRun', id)
    ? await db.selectFrom('analysis_runs').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!run) throw notFound(`analysis run ${id}`);
  return run;
}

export async function listAnalysisRuns(ctx: Context, workspaceId: string, filters: { jobId?: string | undefined; recording_id?: string | undefined; status?: string | undefined; limit: number }): Promise<AnalysisRun[]> {
  let query = ctx.db.selectFrom('analysis_runs').selectAll().where('workspace_id', '=', workspaceId);
  if (filters.jobId !== undefined) query = query.where('execution_id', '=', filters.jobId);
  if (filters.recording_id !== undefined) query = query.where('recording_id', '=', filters.recording_id);
  if (filters.status) query = query.where('status', 'in', parseStatuses(filters.status, runStatuses));
  return query.orderBy('seq', 'desc').limit(filters.limit).execute();
}

export async function cancelAnalysisRun(ctx: Context, workspaceId: string, id: string): Promise<AnalysisRun> {
  const run = await getAnalysisRun(ctx.db, workspaceId, id);
  const cancelled = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('analysis_runs')
      .set({ status: 'cancelled', completed_at: new Date(), updated_at: new Date() })
      .where('id', '=', run.id)
      .where('status', 'in', ['queued', 'running'])
      .returningAll()
      .executeTakeFirst();
    if (row) await analysisRunEvent(ctx, trx, row);
    return row;
  });
  if (!cancelled) throw new AppError('run_not_cancellable', `the run is ${run.status}; only a queued or running run can be cancelled`);
  return cancelled;
}

export async function retryAnalysisRun(ctx: Context, workspaceId: string, id: string): Promise<AnalysisRun> {
  const run = await getAnalysisRun(ctx.db, workspaceId, id);
  if (run.status !== 'failed') throw new AppError('run_not_retryable', `the run is ${run.status}; only a failed run can be retried`);
  const transcript = run.transcript_id ? await ctx.db.selectFrom('transcripts').selectAll().where('id', '=', run.transcript_id).executeTakeFirst() : undefined;
  if (!transcript) throw new AppError('transcript_not_available', 'the transcript this run analysed no longer exists');
  return ctx.db.transaction().execute((trx) =>
    createAnalysisRun(ctx, trx, { workspaceId, transcript, scenario: run.scenario as AnalysisSnapshot, executionId: run.execution_id, retryOf: run.id }),
  );
}

export async function getAnalysisResult(ctx: Context, workspaceId: string, recordingId: string, runId: string): Promise<AnalysisResultRow> {
  const run = await getAnalysisRun(ctx.db, workspaceId, runId);
  if (run.recording_id !== recordingId) throw notFound(`analysis run ${runId} of recording ${recordingId}`);
  if (run.status !== 'completed') throw new AppError('run_not_completed', `the run is ${run.status}; its result exists once it is completed`);
  return ctx.db.selectFrom('analysis_results').selectAll().where('analysis_run_id', '=', run.id).executeTakeFirstOrThrow();
}

export async function listAnalysisResults(
  ctx: Context,
  workspaceId: string,
  filters: { recording_id?: string | undefined; transcription_run_id?: string | undefined; analysis_scenario_id?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<{ data: AnalysisResultRow[]; next_cursor: string | null }> {
  let query = ctx.db.selectFrom('analysis_results').selectAll().where('workspace_id', '=', workspaceId);
  if (filters.recording_id !== undefined) query = query.where('recording_id', '=', filters.recording_id);
  if (filters.transcription_run_id !== undefined) query = query.where('transcription_run_id', '=', filters.transcription_run_id);
  if (filters.analysis_scenario_id !== undefined) query = query.where('analysis_scenario_id', '=', filters.analysis_scenario_id);
  if (filters.cursor) query = query.where('seq', '<', decodeCursor(filters.cursor));
  return page(await query.orderBy('seq', 'desc').limit(filters.limit + 1).execute(), filters.limit);
}
