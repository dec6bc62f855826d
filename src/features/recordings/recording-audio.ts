// A recording's audio for playback and download: the original as uploaded or the prepared 16 kHz
// WAV, with the byte range a player asks for (RFC 9110 single ranges), and its waveform. Once a
// transcription has redacted the audio, all serve the redacted copy: unredacted audio never
// leaves again.
import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Context } from '../../context.ts';
import { openPcmFile } from '../../platform/media/pcm-file.ts';
import { waveformOf, type Waveform } from '../../platform/media/waveform.ts';
import { AppError } from '../../errors.ts';
import { recordingKeys } from '../../platform/storage/blobs.ts';
import { assertAudioKept, getRecording, storageUnavailable } from '../../core/recordings/recordings.ts';

export const audioVariants = ['original', 'prepared'] as const;
export type AudioVariant = (typeof audioVariants)[number];

export interface AudioBytes {
  /** Size of the whole file. */
  size: number;
  contentType: string;
  filename: string;
  /** The range served, or null for the whole file. */
  range: { start: number; end: number } | null;
  body: Readable;
}

/**
 * Reads a Range header against a size: null for the whole file (no header, a unit other than
 * bytes, or several ranges, which a player never sends), a range, or 416 when none of it exists.
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) throw unsatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start >= size || start > end) throw unsatisfiable(size);
  return { start, end };
}

const unsatisfiable = (size: number) => new AppError('range_not_satisfiable', `the audio has ${size} bytes`, undefined, { 'content-range': `bytes */${size}` });

export async function recordingAudio(ctx: Context, workspaceId: string, id: string, variant: AudioVariant, rangeHeader: string | undefined): Promise<AudioBytes> {
  const recording = await getRecording(ctx, workspaceId, id);
  assertAudioKept(recording);
  const keys = recordingKeys(workspaceId, recording.id);
  const redacted = recording.audio_redacted_at !== null;
  const key = redacted ? keys.redacted : keys[variant];
  const size = await ctx.blobs.size(key).catch((error: unknown) => {
    throw storageUnavailable(ctx, error);
  });
  if (size === null) {
    throw new AppError('recording_not_ready', variant === 'prepared' ? `the recording is ${recording.status}: its audio is not prepared yet` : `the recording is ${recording.status}: its audio is not here yet`);
  }
  const range = parseRange(rangeHeader, size);
  const base = recording.filename.replace(/\.[^.]*$/, '') || 'audio';
  return {
    size,
    contentType: variant === 'prepared' || redacted ? 'audio/wav' : (recording.content_type ?? 'application/octet-stream'),
    filename: redacted ? `${base}-redacted.wav` : variant === 'prepared' ? `${base}.wav` : recording.filename,
    range,
    body: await ctx.blobs.read(key, range ?? undefined).catch((error: unknown) => {
      throw storageUnavailable(ctx, error);
    }),
  };
}

/** How many points a waveform has: enough for a wide screen, a few KB. */
export const WAVEFORM_POINTS = 1600;

/**
 * The waveform of what playback serves (the redacted copy once there is one), computed on first
 * use and kept beside the audio (removed with it).
 */
export async function recordingWaveform(ctx: Context, workspaceId: string, id: string): Promise<Waveform> {
  const recording = await getRecording(ctx, workspaceId, id);
  assertAudioKept(recording);
  const keys = recordingKeys(workspaceId, recording.id);
  const variant = recording.audio_redacted_at !== null ? 'redacted' : 'prepared';
  // A later redaction replaces the redacted copy: its time names the waveform drawn from it.
  const cached = keys.waveform(recording.audio_redacted_at !== null ? `redacted-${recording.audio_redacted_at.getTime()}` : 'prepared');
  const stored = await ctx.blobs.size(cached).catch(() => null);
  if (stored !== null) return JSON.parse(await text(await ctx.blobs.read(cached))) as Waveform;
  const source = variant === 'redacted' ? keys.redacted : keys.prepared;
  if ((await ctx.blobs.size(source).catch((error: unknown) => Promise.reject(storageUnavailable(ctx, error)))) === null) {
    throw new AppError('recording_not_ready', `the recording is ${recording.status}: its audio is not prepared yet`);
  }
  const waveform = await ctx.blobs
    .withLocalFile(source, async (file) => {
      const pcm = openPcmFile(file);
      try {
        return waveformOf(pcm, WAVEFORM_POINTS);
      } finally {
        pcm.close();
      }
    })
    .catch((error: unknown) => Promise.reject(storageUnavailable(ctx, error)));
  // Kept for the next reader; a failure to keep it costs only its computing again.
  const temp = ctx.blobs.tempPath();
  await fs
    .writeFile(temp, JSON.stringify(waveform))
    .then(() => ctx.blobs.commit(temp, cached))
    .catch((error: unknown) => {
      ctx.log.warn({ err: error }, 'could not keep a waveform');
      return ctx.blobs.removeTemp(temp);
    });
  return waveform;
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
