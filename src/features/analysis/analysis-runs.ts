// Analysis runs on the run core: start (bound to one transcript version), retry, and results.
import type { Selectable } from 'kysely';
import type { Context } from '../../context.ts';
import type { Db, Trx } from '../../platform/db/database.ts';
import type { AnalysisResultsTable } from '../../platform/db/tables.ts';
import { analysisKind, type AnalysisRun, type AnalysisSnapshot } from './analysis-kind.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { createRun, createRuns, getRun, retryRun, type NewRun } from '../../core/runs/runs.ts';
import { getAnalysisScenario } from './analysis-scenarios.ts';
import { decodeCursor, page } from '../../core/cursor.ts';
import { executionProgress } from '../../core/events.ts';
import { startExecution, type ExecutionBody } from '../../core/executions/executions.ts';
import { getRecording } from '../../core/recordings/recordings.ts';
import { latestTranscript, latestTranscripts, TRANSCRIPT_COLUMNS, type TranscriptRow } from '../../core/transcripts/transcript.ts';

export type { AnalysisRun };
export type AnalysisResultRow = Selectable<AnalysisResultsTable>;

export type { AnalysisSnapshot };

export async function createAnalysisRun(
  ctx: Context,
  trx: Trx,
  input: AnalysisRunInput,
): Promise<AnalysisRun> {
  return (await createRun(ctx, trx, analysisKind, newAnalysisRun(input))) as AnalysisRun;
}

interface AnalysisRunInput {
  workspaceId: string;
  transcript: Pick<TranscriptRow, 'id' | 'recording_id' | 'transcription_run_id'>;
  scenario: AnalysisSnapshot;
  executionId?: string | null;
  retryOf?: string | null;
}

function newAnalysisRun(input: AnalysisRunInput): NewRun {
  const { id, engine, model, instructions, questions, summary, retry, options } = input.scenario;
  return {
    workspaceId: input.workspaceId,
    recordingId: input.transcript.recording_id,
    columns: { analysis_scenario_id: id, transcript_id: input.transcript.id, transcription_run_id: input.transcript.transcription_run_id },
    snapshot: { id, engine, model, instructions, questions, summary, retry, options: options ?? {} },
    executionId: input.executionId,
    retryOf: input.retryOf,
  };
}

/** The transcript a new analysis of `recordingId` reads: the given version, or the latest. */
export async function transcriptForAnalysis(db: Db | Trx, workspaceId: string, recordingId: string, transcriptId?: string): Promise<TranscriptRow> {
  if (transcriptId !== undefined) {
    const transcript = isUuid(transcriptId)
      ? await db.selectFrom('transcripts').select(TRANSCRIPT_COLUMNS).where('workspace_id', '=', workspaceId).where('id', '=', transcriptId).executeTakeFirst()
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

export function retryAnalysisRun(ctx: Context, workspaceId: string, id: string): Promise<AnalysisRun> {
  return retryRun(ctx, analysisKind, workspaceId, id, async (run, snapshot) => {
    const transcriptId = (run as AnalysisRun).transcript_id;
    const transcript = transcriptId ? await ctx.db.selectFrom('transcripts').select(TRANSCRIPT_COLUMNS).where('id', '=', transcriptId).executeTakeFirst() : undefined;
    if (!transcript) throw new AppError('transcript_not_available', 'the transcript this run analysed no longer exists');
    return ctx.db.transaction().execute((trx) => createAnalysisRun(ctx, trx, { workspaceId, transcript, scenario: snapshot, executionId: run.execution_id, retryOf: run.id }));
  }) as Promise<AnalysisRun>;
}

export async function getAnalysisResult(ctx: Context, workspaceId: string, recordingId: string, runId: string): Promise<AnalysisResultRow> {
  const run = await getRun(ctx.db, analysisKind, workspaceId, runId);
  if (run.recording_id !== recordingId) throw notFound(`analysis run ${runId} of recording ${recordingId}`);
  if (run.status !== 'completed') throw new AppError('run_not_completed', `the run is ${run.status}; its result exists once it is completed`);
  return ctx.db.selectFrom('analysis_results').selectAll().where('analysis_run_id', '=', run.id).executeTakeFirstOrThrow();
}

export async function listAnalysisResults(
  ctx: Context,
  workspaceId: string,
  filters: { recording_id?: string | undefined; transcription_run_id?: string | undefined; analysis_scenario_id?: string | undefined; limit: number; offset?: number | undefined; cursor?: string | undefined },
): Promise<{ data: AnalysisResultRow[]; next_cursor: string | null }> {
  let query = ctx.db.selectFrom('analysis_results').selectAll().where('workspace_id', '=', workspaceId);
  if (filters.recording_id !== undefined) query = query.where('recording_id', '=', filters.recording_id);
  if (filters.transcription_run_id !== undefined) query = query.where('transcription_run_id', '=', filters.transcription_run_id);
  if (filters.analysis_scenario_id !== undefined) query = query.where('analysis_scenario_id', '=', filters.analysis_scenario_id);
  if (filters.cursor) query = query.where('seq', '<', decodeCursor(filters.cursor, 'analysis-results'));
  return page(await query.orderBy('seq', 'desc').offset(filters.offset ?? 0).limit(filters.limit + 1).execute(), filters.limit, 'analysis-results');
}

/** An execution of an analysis scenario over the latest transcripts of the given recordings (or
 * of its selection's recordings that have one). */
export async function startAnalysisExecution(ctx: Context, workspaceId: string, scenarioId: string, body: ExecutionBody) {
  const scenario = await getAnalysisScenario(ctx.db, workspaceId, scenarioId);
  return startExecution(ctx, 'analysis', workspaceId, scenario, body, async (trx, executionId, recordingIds) => {
    const latest = await latestTranscripts(trx, workspaceId, recordingIds);
    const transcripts = [];
    for (const recordingId of recordingIds) {
      const transcript = latest.get(recordingId);
      if (transcript) transcripts.push(transcript);
      else if (body.recording_ids) throw new AppError('transcript_not_available', `recording ${recordingId} has no completed transcript`);
    }
    await createRuns(ctx, trx, analysisKind, transcripts.map((transcript) => newAnalysisRun({ workspaceId, transcript, scenario, executionId })));
    // Nothing to run: the execution is complete as it is made, and says so (execution.completed).
    if (transcripts.length === 0) await executionProgress(ctx, trx, 'analysis', workspaceId, executionId);
  });
}
