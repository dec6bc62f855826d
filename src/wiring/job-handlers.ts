// Every job kind this build runs, with its queue settings.
import { analysisKind } from '../features/analysis/analysis-kind.ts';
import type { Context } from '../context.ts';
import { runJob } from '../core/runs/run-job.ts';
import { transcriptionKind, type TranscriptionRun } from '../features/transcription/transcription-kind.ts';
import { deliverWebhookJob } from '../features/webhooks/deliver-webhook.ts';
import { downloadAudioJob } from '../features/recordings/download-audio.ts';
import { expireAudioJob, recoverRunsJob } from './sweeps.ts';
import { prepareAudioJob } from '../features/recordings/prepare-audio.ts';
import { removeAudioJob } from '../features/recordings/remove-audio.ts';
import { categorizeJob } from '../features/categories/categories.ts';
import type { JobHandler, JobName } from '../platform/queue/queue.ts';

export const runKinds = [transcriptionKind, analysisKind] as const;

/** One handler per job name, each with its own payload type (a union, not a common one). */
type AnyJobHandler = { [N in JobName]: JobHandler<N> }[JobName];

export function jobHandlers(ctx: Context): AnyJobHandler[] {
  return [
    prepareAudioJob(ctx),
    downloadAudioJob(ctx),
    expireAudioJob(ctx),
    removeAudioJob(ctx),
    runJob(ctx, transcriptionKind, { afterComplete: (c, trx, run) => c.pipeline.transcriptReady(trx, run as TranscriptionRun) }),
    runJob(ctx, analysisKind),
    deliverWebhookJob(ctx),
    recoverRunsJob(ctx, runKinds),
    categorizeJob(ctx),
  ];
}
