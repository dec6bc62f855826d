// Transcription runs on the run core: start (the workspace's default scenario when none is
// named), retry, and transcripts by run or recording.
import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import type { Db, Trx } from '../../platform/db/database.ts';
import { AppError, invalid } from '../../errors.ts';
import { createRun, createRuns, getRun, retryRun, type NewRun } from '../../core/runs/runs.ts';
import { transcriptionKind, type TranscriptionRun, type TranscriptionSnapshot } from './transcription-kind.ts';
import { executionProgress } from '../../core/events.ts';
import { startExecution, type ExecutionBody } from '../../core/executions/executions.ts';
import { assertTranscribable, getRecording } from '../../core/recordings/recordings.ts';
import { getTranscriptionScenario } from './transcription-scenarios.ts';
import { latestTranscript, TRANSCRIPT_COLUMNS, type TranscriptRow } from '../../core/transcripts/transcript.ts';

export type ScenarioSnapshot = TranscriptionSnapshot;
export type { TranscriptionRun };

export async function createTranscriptionRun(
  ctx: Context,
  trx: Trx,
  input: TranscriptionRunInput,
): Promise<TranscriptionRun> {
  return (await createRun(ctx, trx, transcriptionKind, newTranscriptionRun(input))) as TranscriptionRun;
}

interface TranscriptionRunInput {
  workspaceId: string;
  recordingId: string;
  scenario: ScenarioSnapshot;
  executionId?: string | null;
  retryOf?: string | null;
}

function newTranscriptionRun(input: TranscriptionRunInput): NewRun {
  const { id, engine, model, language, options, retry } = input.scenario;
  return {
    workspaceId: input.workspaceId,
    recordingId: input.recordingId,
    columns: { transcription_scenario_id: id },
    snapshot: { id, engine, model, language, options, retry },
    executionId: input.executionId,
    retryOf: input.retryOf,
  };
}

async function defaultScenarioId(db: Db, workspaceId: string): Promise<string> {
  const row = await db.selectFrom('transcription_scenarios').select('id').where('workspace_id', '=', workspaceId).orderBy('auto', 'desc').orderBy('created_at').executeTakeFirst();
  if (!row) throw invalid('transcription_scenario_id', 'is required: the workspace has no scenario');
  return row.id;
}

export async function startTranscription(ctx: Context, workspaceId: string, recordingId: string, scenarioId: string | undefined): Promise<TranscriptionRun> {
  const recording = await getRecording(ctx, workspaceId, recordingId);
  assertTranscribable(recording);
  const scenario = await getTranscriptionScenario(ctx.db, workspaceId, scenarioId ?? (await defaultScenarioId(ctx.db, workspaceId)));
  return ctx.db.transaction().execute((trx) => createTranscriptionRun(ctx, trx, { workspaceId, recordingId: recording.id, scenario }));
}

export function retryTranscriptionRun(ctx: Context, workspaceId: string, id: string): Promise<TranscriptionRun> {
  return retryRun(ctx, transcriptionKind, workspaceId, id, async (run, snapshot) => {
    assertTranscribable(await getRecording(ctx, workspaceId, run.recording_id));
    return ctx.db.transaction().execute((trx) =>
      createTranscriptionRun(ctx, trx, { workspaceId, recordingId: run.recording_id, scenario: snapshot, executionId: run.execution_id, retryOf: run.id }),
    );
  }) as Promise<TranscriptionRun>;
}

export async function transcriptOfRun(ctx: Context, workspaceId: string, runId: string): Promise<TranscriptRow> {
  const run = (await getRun(ctx.db, transcriptionKind, workspaceId, runId)) as TranscriptionRun;
  if (run.status !== 'completed' || !run.transcript_id) {
    throw new AppError('run_not_completed', `the run is ${run.status}; its transcript exists once it is completed`);
  }
  return ctx.db.selectFrom('transcripts').select(TRANSCRIPT_COLUMNS).where('id', '=', run.transcript_id).executeTakeFirstOrThrow();
}

export async function transcriptOfRecording(ctx: Context, workspaceId: string, recordingId: string): Promise<TranscriptRow> {
  const recording = await getRecording(ctx, workspaceId, recordingId);
  const transcript = await latestTranscript(ctx.db, workspaceId, recording.id);
  if (!transcript) throw new AppError('transcript_not_available', 'the recording has no completed transcript yet');
  return transcript;
}

/** An execution of a transcription scenario over the given recordings (or its selection). */
export async function startTranscriptionExecution(ctx: Context, workspaceId: string, scenarioId: string, body: ExecutionBody) {
  const scenario = await getTranscriptionScenario(ctx.db, workspaceId, scenarioId);
  return startExecution(ctx, 'transcription', workspaceId, scenario, body, async (trx, executionId, recordingIds) => {
    const recordings = recordingIds.length
      ? await trx.selectFrom('recordings').select(['id', 'status', 'audio_deleted_at', 'expires_at']).where('workspace_id', '=', workspaceId).where('id', '=', sql<string>`ANY(${recordingIds}::text[])`).execute()
      : [];
    for (const recording of recordings) {
      try {
        assertTranscribable(recording);
      } catch (error) {
        if (error instanceof AppError) throw new AppError(error.code, `${recording.id}: ${error.detail ?? error.message}`);
        throw error;
      }
    }
    await createRuns(ctx, trx, transcriptionKind, recordings.map((recording) => newTranscriptionRun({ workspaceId, recordingId: recording.id, scenario, executionId })));
    // Nothing to run: the execution is complete as it is made, and says so (execution.completed).
    if (recordings.length === 0) await executionProgress(ctx, trx, 'transcription', workspaceId, executionId);
  });
}
