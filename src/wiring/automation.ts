// What happens by itself when a state changes (core/pipeline.ts): a new workspace gets its first
// scenarios, automatic scenarios start runs. Each step runs inside the transaction of the change
// that caused it, so the run exists exactly when the change does.
import type { Context } from '../context.ts';
import { AppError } from '../errors.ts';
import type { Trx } from '../platform/db/database.ts';
import { createAnalysisRun } from '../features/analysis/analysis-runs.ts';
import { analysisScenarios } from '../features/analysis/analysis-scenarios.ts';
import { createTranscriptionRun } from '../features/transcription/transcription-runs.ts';
import { transcriptionKind } from '../features/transcription/transcription-kind.ts';
import { wakeQueuedRuns } from '../core/runs/runs.ts';
import { TRANSCRIPT_COLUMNS } from '../core/transcripts/transcript.ts';
import type { Pipeline, PreparedRecording, ReadyTranscript } from '../core/pipeline.ts';
import { defaultAnalysisScenario, defaultTranscriptionScenario } from './scenario-defaults.ts';
import { pipelineScenario } from '../core/scenarios/scenario-store.ts';
import { transcriptionScenarios, updateTranscriptionScenario } from '../features/transcription/transcription-scenarios.ts';
import { categorize } from '../features/categories/categories.ts';

async function onRecordingPrepared(ctx: Context, trx: Trx, recording: PreparedRecording): Promise<void> {
  // Runs started while the audio was being prepared start now rather than at their next check,
  // and one asked for already (a synchronous transcription, a client quicker than the audio) is
  // the call's transcription: no automatic run beside it.
  if ((await wakeQueuedRuns(ctx, trx, transcriptionKind, recording.id)) > 0) return;
  const scenario = await pipelineScenario(trx, transcriptionScenarios, recording.workspace_id, recording.pipeline);
  if (scenario) await createTranscriptionRun(ctx, trx, { workspaceId: recording.workspace_id, recordingId: recording.id, scenario });
}

async function onTranscriptReady(ctx: Context, trx: Trx, run: ReadyTranscript): Promise<void> {
  const transcript = run.transcript_id ? await trx.selectFrom('transcripts').select(TRANSCRIPT_COLUMNS).where('id', '=', run.transcript_id).executeTakeFirst() : undefined;
  if (!transcript) return;
  const pipeline = await trx.selectFrom('recordings').select('pipeline').where('id', '=', run.recording_id).executeTakeFirst();
  const scenario = await pipelineScenario(trx, analysisScenarios, run.workspace_id, pipeline?.pipeline ?? false);
  if (scenario) await createAnalysisRun(ctx, trx, { workspaceId: run.workspace_id, transcript, scenario });
}

/**
 * Names the speakers of the transcription scenario that has none, as an edit of the version read:
 * a change saved meanwhile is read again (and, where it named speakers, kept).
 */
async function onSpeakersNamed(ctx: Context, workspaceId: string, labels: Record<string, string>): Promise<string | null> {
  for (let attempt = 1; ; attempt++) {
    const transcription = await ctx.db.transaction().execute((trx) => pipelineScenario(trx, transcriptionScenarios, workspaceId, true));
    if (!transcription || Object.keys(transcription.options.speaker_labels ?? {}).length > 0 || transcription.options.speaker_labels_field) return null;
    try {
      await updateTranscriptionScenario(ctx, workspaceId, transcription.id, { version: transcription.version, options: { ...transcription.options, speaker_labels: labels } });
      return transcription.id;
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'scenario_changed') || attempt === 3) throw error;
    }
  }
}

/** The pipeline every feature announces its moments to. */
export function automation(ctx: Context): Pipeline {
  return {
    async workspaceCreated(trx, workspaceId) {
      await trx.insertInto('transcription_scenarios').values(defaultTranscriptionScenario(workspaceId, ctx.config.autoTranscribe)).execute();
      await trx.insertInto('analysis_scenarios').values(defaultAnalysisScenario(workspaceId)).execute();
    },
    recordingPrepared: (trx, recording) => onRecordingPrepared(ctx, trx, recording),
    transcriptReady: async (trx, run) => {
      if (run.transcript_id) await categorize(ctx, trx, run.transcript_id);
      await onTranscriptReady(ctx, trx, run);
    },
    speakersNamed: (workspaceId, labels) => onSpeakersNamed(ctx, workspaceId, labels),
  };
}
