// The combined view of /v1/files: a recording with its latest transcript and analysis, and one
// status for the whole pipeline.
import type { Context } from '../../context.ts';
import { runTables, type RunTable } from '../../core/runs/run-kind.ts';
import { failedRecordingStatuses } from '../../platform/db/tables.ts';
import { getRecording } from '../../core/recordings/recordings.ts';
import { presentTranscript } from '../../core/transcripts/transcript.ts';
import { latestTranscript } from '../../core/transcripts/transcript.ts';
import { presentAnalysisResult } from '../../core/analyses/analysis-result.ts';

export type PipelineStatus = 'queued' | 'processing' | 'completed' | 'failed';

export async function fileView(ctx: Context, workspaceId: string, id: string) {
  const recording = await getRecording(ctx, workspaceId, id);
  const active = async (table: RunTable) =>
    ctx.db.selectFrom(table).select('id').where('recording_id', '=', recording.id).where('status', 'in', ['queued', 'running']).executeTakeFirst();
  const latestStatus = async (table: RunTable) =>
    (await ctx.db.selectFrom(table).select('status').where('recording_id', '=', recording.id).orderBy('seq', 'desc').executeTakeFirst())?.status;

  let status: PipelineStatus;
  if (failedRecordingStatuses.includes(recording.status)) status = 'failed';
  else if (recording.status !== 'completed') status = recording.status === 'processing' ? 'processing' : 'queued';
  else if ((await active(runTables.transcription)) || (await active(runTables.analysis))) status = 'processing';
  else if ((await latestStatus(runTables.transcription)) === 'failed' || (await latestStatus(runTables.analysis)) === 'failed') status = 'failed';
  else status = 'completed';

  // Read after the status: a run that completes between the reads is then in both, never
  // "completed" with its result missing.
  const transcript = await latestTranscript(ctx.db, workspaceId, recording.id);
  const result = await ctx.db.selectFrom('analysis_results').selectAll().where('recording_id', '=', recording.id).orderBy('seq', 'desc').executeTakeFirst();

  return {
    file_id: recording.id,
    status,
    metadata: JSON.parse(recording.metadata_json) as Record<string, unknown>,
    error_code: recording.error_code,
    transcript: transcript ? presentTranscript(transcript) : null,
    analysis: result
      ? {
          summary: result.summary ?? '',
          answers: presentAnalysisResult(result).answers.map((a) => ({ question: a.question, answer: a.answer })),
          tokens_used: result.tokens_used,
        }
      : null,
  };
}

/** Holds until the pipeline ends or `seconds` pass (long polling). */
export async function waitForFile(ctx: Context, workspaceId: string, id: string, seconds: number, signal: AbortSignal) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const view = await fileView(ctx, workspaceId, id);
    if (view.status === 'completed' || view.status === 'failed' || Date.now() >= deadline || signal.aborted) return view;
    await new Promise((resolve) => setTimeout(resolve, Math.min(500, Math.max(0, deadline - Date.now()))));
  }
}
