// prepare-audio: probe the original, decode it to a 16 kHz mono WAV beside it (and one per channel
// when it has several), fill the duration and the channel count.
import { channelsAlike } from '../../platform/media/alike-channels.ts';
import type { Context } from '../../context.ts';
import fs from 'node:fs/promises';
import { checkPreparedLength, MAX_SEPARATE_CHANNELS, MediaError, prepare, probe, tooLong, wavShortfall } from '../../platform/media/ffmpeg.ts';
import { openPcmFile, SAMPLE_RATE } from '../../platform/media/pcm-file.ts';
import { recordingKeys } from '../../platform/storage/blobs.ts';
import { recordingEvent } from './recording-events.ts';
import type { JobHandler } from '../../platform/queue/queue.ts';
import { startPreparationHeartbeat } from './heartbeat.ts';
import { stopwatch } from '../../platform/observability/stopwatch.ts';
import { claimPreparation, prepared, preparationFailed } from '../../core/recordings/recording-store.ts';

export function prepareAudioJob(ctx: Context): JobHandler<'prepare-audio'> {
  // Preparations running in this process, by recording. pg-boss delivers a job again once it has
  // outlived its expiry without stopping the first delivery: the second waits for the first
  // instead of decoding the same audio beside it.
  const running = new Map<string, Promise<void>>();
  return {
    name: 'prepare-audio',
    settings: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: ctx.config.jobTimeoutSeconds },
    concurrency: ctx.config.workerConcurrency,
    handle({ recordingId }) {
      const earlier = running.get(recordingId);
      if (earlier) return earlier;
      const work = prepareRecording(ctx, recordingId).finally(() => running.delete(recordingId));
      running.set(recordingId, work);
      return work;
    },
  };
}

async function prepareRecording(ctx: Context, recordingId: string): Promise<void> {
  const recording = await claimPreparation(ctx.db, recordingId);
  if (!recording) return; // deleted, or already prepared by an earlier delivery of this job
  const keys = recordingKeys(recording.workspace_id, recording.id);
  const temp = ctx.blobs.tempPath();
  let channelTemps: string[] = [];
  const stopHeartbeat = startPreparationHeartbeat(ctx, recording.id);
  const lap = stopwatch((stage, seconds) => ctx.metrics.stageSeconds.inc({ kind: 'preparation', stage }, seconds));
  try {
    const { seconds, channels, createdAt } = await ctx.blobs.withLocalFile(keys.original, async (original) => {
      lap('fetch');
      // Audio already in the prepared form (16 kHz mono 16-bit PCM WAV, complete) is used as it
      // is: no ffprobe and no ffmpeg for the user to wait for.
      const ready = await alreadyPrepared(original);
      if (ready !== null) {
        lap('probe');
        checkPreparedLength(ready, ctx.config.maxAudioSeconds);
        await fs.copyFile(original, temp);
        lap('convert');
        return { seconds: ready, channels: 1, createdAt: null };
      }
      const info = await probe(original);
      lap('probe');
      // Refused from the probe before any WAV is written; a header that lies is caught by the
      // decoder's own bound.
      if (info.durationSeconds !== null && info.durationSeconds > ctx.config.maxAudioSeconds) throw tooLong(ctx.config.maxAudioSeconds);
      const separate = info.channels >= 2 && info.channels <= MAX_SEPARATE_CHANNELS ? info.channels : 0;
      channelTemps = Array.from({ length: separate }, () => ctx.blobs.tempPath());
      const decoded = await prepare(original, temp, info.durationSeconds, ctx.config.maxAudioSeconds, info.channels, channelTemps);
      lap('convert');
      // Channels that carry one signal (dual mono) are one channel: transcribed apart, every word would be said twice.
      if (channelTemps.length > 1 && channelsAlike(channelTemps)) {
        for (const file of channelTemps) await ctx.blobs.removeTemp(file);
        channelTemps = [];
        lap('channels');
        return { seconds: decoded, channels: 1, createdAt: info.createdAt };
      }
      return { seconds: decoded, channels: info.channels, createdAt: info.createdAt };
    });
    for (const [channel, file] of channelTemps.entries()) await ctx.blobs.commit(file, keys.channel(channel));
    await ctx.blobs.commit(temp, keys.prepared);
    await ctx.db.transaction().execute(async (trx) => {
      const done = await prepared(trx, recording.id, { seconds, channels, createdAt });
      if (!done) return;
      await ctx.pipeline.recordingPrepared(trx, done);
      await recordingEvent(ctx, trx, done);
    });
    lap('store');
  } catch (error) {
    await ctx.blobs.removeTemp(temp);
    for (const file of channelTemps) await ctx.blobs.removeTemp(file);
    if (!(error instanceof MediaError)) throw error;
    await ctx.db.transaction().execute(async (trx) => {
      const failed = await preparationFailed(trx, recording.id, error);
      if (failed) await recordingEvent(ctx, trx, failed);
    });
  } finally {
    stopHeartbeat();
  }
}

/** The duration of a complete 16 kHz mono s16 WAV, or null for anything else (ffmpeg prepares it). */
async function alreadyPrepared(file: string): Promise<number | null> {
  let samples: number;
  try {
    const pcm = openPcmFile(file);
    samples = pcm.samples;
    pcm.close();
  } catch {
    return null;
  }
  return (await wavShortfall(file)) > 0 ? null : samples / SAMPLE_RATE;
}
