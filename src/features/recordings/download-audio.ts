// download-audio: fetch an import's URL through the address guard into the blob store, with
// retries and backoff for transient failures; then hand it to preparation.
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { contentTypeFor, isAcceptedContentType } from '../../platform/media/sniff.ts';
import { classifyOutboundError, outboundRequest, OutboundError } from '../../platform/net/outbound.ts';
import { receiveAudio } from '../../core/recordings/audio-intake.ts';
import { recordingEvent } from './recording-events.ts';
import { recordingKeys } from '../../platform/storage/blobs.ts';
import type { JobHandler } from '../../platform/queue/queue.ts';
import { claimDownload, downloaded, downloadFailed } from '../../core/recordings/recording-store.ts';

function permanent(code: string, message: string): OutboundError {
  return new OutboundError(code, message, false);
}

export function downloadAudioJob(ctx: Context): JobHandler<'download-audio'> {
  const { maxAttempts, backoffSeconds, timeoutSeconds, maxRedirects } = ctx.config.import;

  async function download(url: string, tempHolder: { path: string | null }) {
    const signal = AbortSignal.timeout(timeoutSeconds * 1000);
    const response = await outboundRequest(url, {
      policy: { allowPrivate: ctx.config.importAllowPrivate },
      headers: { 'user-agent': 'Hark/1 (audio import)', accept: 'audio/*, application/octet-stream;q=0.9, */*;q=0.5' },
      maxRedirects,
      signal,
    });
    if (response.status < 200 || response.status >= 300) {
      response.body.destroy();
      const transient = response.status === 429 || response.status === 408 || response.status >= 500;
      throw new OutboundError(`http_${response.status}`, `the origin answered HTTP ${response.status}`, transient);
    }
    const declaredLength = Number(response.headers['content-length']);
    if (Number.isFinite(declaredLength) && declaredLength > ctx.config.maxUploadBytes) {
      response.body.destroy();
      throw permanent('too_large', `the file is ${declaredLength} bytes, over the limit of ${ctx.config.maxUploadBytes}`);
    }
    const declaredType = response.headers['content-type'];
    const contentType = typeof declaredType === 'string' ? (declaredType.split(';')[0]?.trim().toLowerCase() ?? null) : null;
    if (contentType && !isAcceptedContentType(contentType) && !contentType.startsWith('audio/') && contentType !== 'binary/octet-stream') {
      response.body.destroy();
      throw permanent('unsupported_media_type', `the origin served ${contentType}, not audio`);
    }
    try {
      const audio = await receiveAudio(ctx.blobs, response.body, ctx.config.maxUploadBytes);
      tempHolder.path = audio.tempPath;
      return { audio, contentType: contentTypeFor(contentType, audio.format) };
    } catch (error) {
      if (error instanceof AppError) {
        const code = error.code === 'payload_too_large' ? 'too_large' : error.code === 'unsupported_media_type' ? 'unsupported_media_type' : 'empty_file';
        throw permanent(code, error.detail ?? error.message);
      }
      throw classifyOutboundError(error, signal);
    }
  }

  return {
    name: 'download-audio',
    settings: { retryLimit: 2, retryDelay: 5, retryBackoff: true, expireInSeconds: timeoutSeconds + 120 },
    concurrency: 2,
    async handle({ recordingId }) {
      const recording = await claimDownload(ctx.db, recordingId);
      if (!recording?.source_url) return;
      const keys = recordingKeys(recording.workspace_id, recording.id);
      const temp: { path: string | null } = { path: null };
      try {
        const { audio, contentType } = await download(recording.source_url, temp);
        await ctx.blobs.commit(audio.tempPath, keys.original);
        await ctx.db.transaction().execute(async (trx) => {
          if (await downloaded(trx, recording.id, { sizeBytes: audio.sizeBytes, contentType })) await ctx.queue.send('prepare-audio', { recordingId }, { trx });
        });
      } catch (error) {
        if (temp.path) await ctx.blobs.removeTemp(temp.path);
        const failure = error instanceof OutboundError ? error : new OutboundError('network_error', 'the download failed', true);
        if (!(error instanceof OutboundError)) ctx.log.warn({ err: error, recordingId }, 'download failed unexpectedly');
        const retry = failure.transient && recording.download_attempts < maxAttempts;
        await ctx.db.transaction().execute(async (trx) => {
          const updated = await downloadFailed(trx, recording.id, failure, retry);
          if (updated?.status === 'download_failed') await recordingEvent(ctx, trx, updated);
          if (retry) {
            const wait = backoffSeconds * 2 ** (recording.download_attempts - 1);
            await ctx.queue.send('download-audio', { recordingId }, { trx, startAfterSeconds: Math.max(1, wait) });
          }
        });
      }
    },
  };
}
