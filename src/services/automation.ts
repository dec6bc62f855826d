// What happens by itself when a state changes: automatic scenarios start runs. Each hook runs
// inside the transaction of the change that caused it, so the run exists exactly when the change
// does.
import type { Context } from '../context.ts';
import type { Trx } from '../db/database.ts';
import { createAnalysisRun } from './analysis-runs.ts';
import { analysisScenarios } from './analysis-scenarios.ts';
import type { Recording } from './recordings.ts';
import { createTranscriptionRun, type TranscriptionRun } from './transcription-runs.ts';
import { pipelineScenario } from './scenario-store.ts';
import { transcriptionScenarios } from './transcription-scenarios.ts';

export async function onRecordingPrepared(ctx: Context, trx: Trx, recording: Recording): Promise<void> {
  // Runs started while the audio was being prepared start now rather than at their next check.
  const waiting = await trx.selectFrom('transcription_runs').select('id').where('recording_id', '=', recording.id).where('status', '=', 'queued').execute();
  for (const run of waiting) await ctx.queue.send('transcribe', { runId: run.id }, { trx });
  const scenario = await pipelineScenario(trx, transcriptionScenarios, recording.workspace_id, recording.pipeline);
  if (scenario) await createTranscriptionRun(ctx, trx, { workspaceId: recording.workspace_id, recordingId: recording.id, scenario });
}

export async function onTranscriptCompleted(ctx: Context, trx: Trx, run: TranscriptionRun): Promise<void> {
  const transcript = run.transcript_id ? await trx.selectFrom('transcripts').selectAll().where('id', '=', run.transcript_id).executeTakeFirst() : undefined;
  if (!transcript) return;
  const pipeline = await trx.selectFrom('recordings').select('pipeline').where('id', '=', run.recording_id).executeTakeFirst();
  const scenario = await pipelineScenario(trx, analysisScenarios, run.workspace_id, pipeline?.pipeline ?? false);
  if (scenario) await createAnalysisRun(ctx, trx, { workspaceId: run.workspace_id, transcript, scenario });
}
