// Every job kind this build runs, with its queue settings.
import type { Context } from '../context.ts';
import { analyzeJob } from './analyze.ts';
import { deliverWebhookJob } from './deliver-webhook.ts';
import { downloadAudioJob } from './download-audio.ts';
import { expireAudioJob } from './expire-audio.ts';
import { prepareAudioJob } from './prepare-audio.ts';
import { recoverRunsJob } from './recover-runs.ts';
import type { JobHandler } from './queue.ts';
import { transcribeJob } from './transcribe.ts';

export function jobHandlers(ctx: Context): JobHandler<never>[] {
  return [prepareAudioJob(ctx), downloadAudioJob(ctx), expireAudioJob(ctx), transcribeJob(ctx), analyzeJob(ctx), deliverWebhookJob(ctx), recoverRunsJob(ctx)] as JobHandler<never>[];
}
