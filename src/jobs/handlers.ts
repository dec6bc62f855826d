// Every job kind this build runs, with its queue settings.
import { analysisKind } from '../analysis/analysis-kind.ts';
import type { Context } from '../context.ts';
import { recoverRunsJob } from '../runs/recover.ts';
import { runJob } from '../runs/run-job.ts';
import { onTranscriptCompleted } from '../services/automation.ts';
import type { TranscriptionRun } from '../services/transcription-runs.ts';
import { transcriptionKind } from '../transcription/transcription-kind.ts';
import { deliverWebhookJob } from './deliver-webhook.ts';
import { downloadAudioJob } from './download-audio.ts';
import { expireAudioJob } from './expire-audio.ts';
import { prepareAudioJob } from './prepare-audio.ts';
import { removeAudioJob } from './remove-audio.ts';
import type { JobHandler, JobName } from './queue.ts';

export const runKinds = [transcriptionKind, analysisKind] as const;

/** One handler per job name, each with its own payload type (a union, not a common one). */
type AnyJobHandler = { [N in JobName]: JobHandler<N> }[JobName];

export function jobHandlers(ctx: Context): AnyJobHandler[] {
  return [
    prepareAudioJob(ctx),
    downloadAudioJob(ctx),
    expireAudioJob(ctx),
    removeAudioJob(ctx),
    runJob(ctx, transcriptionKind, { afterComplete: (c, trx, run) => onTranscriptCompleted(c, trx, run as TranscriptionRun) }),
    runJob(ctx, analysisKind),
    deliverWebhookJob(ctx),
    recoverRunsJob(ctx, runKinds),
  ];
}
