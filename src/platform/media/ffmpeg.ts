// Debian's ffprobe and ffmpeg: probe an upload, and normalise it to 16 kHz mono s16le WAV (and,
// for audio of several channels, one such WAV per channel, decoded in the same pass).
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';

export class MediaError extends Error {
  constructor(
    readonly code: 'invalid_audio' | 'no_audio_stream' | 'empty_audio' | 'truncated_audio' | 'unsupported_format' | 'audio_too_long',
    message: string,
  ) {
    super(message);
  }
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk.length + stdout.length < 1e6 ? chunk : ''));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Probe {
  format: string;
  durationSeconds: number | null;
  audioCodec: string;
  channels: number;
  /** The container's own creation time (MP4/M4A and others write one), when plausible. */
  createdAt: Date | null;
}

/** A creation time a container claims, unless it is a placeholder (0, 1904, 1970) or in the future. */
export function plausibleCreationTime(raw: string | undefined, now = Date.now()): Date | null {
  if (!raw) return null;
  const date = new Date(raw);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1980 || date.getTime() > now + 86_400_000) return null;
  return date;
}

const acceptedContainers = [/wav/, /mp3/, /mov|mp4|m4a/, /ogg/, /flac/];

export async function probe(file: string): Promise<Probe> {
  const result = await run(
    'ffprobe',
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-select_streams', 'a', file],
    60_000,
  );
  if (result.code !== 0) throw new MediaError('invalid_audio', 'the file could not be read as audio');
  const info = JSON.parse(result.stdout) as {
    format?: { format_name?: string; duration?: string; tags?: Record<string, string> };
    streams?: { codec_name?: string; codec_type?: string; duration?: string; channels?: number }[];
  };
  const format = info.format?.format_name ?? '';
  if (!acceptedContainers.some((pattern) => pattern.test(format))) {
    throw new MediaError('unsupported_format', `container "${format}" is not WAV, MP3, MP4/M4A, OGG or FLAC`);
  }
  const stream = info.streams?.find((s) => s.codec_type === 'audio');
  if (!stream?.codec_name) throw new MediaError('no_audio_stream', 'the file has no audio stream');
  if (/ogg/.test(format) && !['vorbis', 'opus', 'flac'].includes(stream.codec_name)) {
    throw new MediaError('unsupported_format', `OGG with codec ${stream.codec_name} is not supported`);
  }
  const duration = Number(stream.duration ?? info.format?.duration);
  const channels = Number.isInteger(stream.channels) && (stream.channels ?? 0) > 0 ? (stream.channels as number) : 1;
  const tags = Object.fromEntries(Object.entries(info.format?.tags ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  return { format, audioCodec: stream.codec_name, durationSeconds: Number.isFinite(duration) ? duration : null, channels, createdAt: plausibleCreationTime(tags.creation_time) };
}

/**
 * A WAV whose data chunk claims more bytes than the file holds was cut short. Writers that could
 * not seek back write 0 or 0xFFFFFFFF there, which says nothing.
 */
export async function wavShortfall(file: string): Promise<number> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') return 0;
    let offset = 12;
    while (offset + 8 <= bytesRead) {
      const id = head.toString('latin1', offset, offset + 4);
      const length = head.readUInt32LE(offset + 4);
      if (id === 'data') {
        if (length === 0 || length === 0xffffffff) return 0;
        return Math.max(0, offset + 8 + length - size);
      }
      offset += 8 + length + (length % 2);
    }
    return 0;
  } finally {
    await handle.close();
  }
}

export const PREPARED_SAMPLE_RATE = 16_000;

export function tooLong(maxSeconds: number): MediaError {
  return new MediaError('audio_too_long', `the audio is longer than the limit of ${maxSeconds} seconds (HARK_MAX_AUDIO_SECONDS)`);
}

/** Prepared audio's length, refused when empty or over the limit (whether ffmpeg wrote it or not). */
export function checkPreparedLength(seconds: number, maxSeconds: number): number {
  if (seconds < 0.01) throw new MediaError('empty_audio', 'the file contains no audio samples');
  if (seconds > maxSeconds) throw tooLong(maxSeconds);
  return seconds;
}

/** Audio with more channels than this is transcribed mixed (call recorders write two). */
export const MAX_SEPARATE_CHANNELS = 8;

/**
 * ffmpeg's `-ac 1` downmixes only the channel layouts it knows (at most 8 channels); more are
 * mixed with equal weights by an explicit pan.
 */
export function mixToMono(channels: number): string[] {
  if (channels <= MAX_SEPARATE_CHANNELS) return ['-ac', '1'];
  const weight = (1 / channels).toFixed(6);
  return ['-af', `pan=mono|c0=${Array.from({ length: channels }, (_, c) => `${weight}*c${c}`).join('+')}`];
}

/**
 * Decodes `input` to 16 kHz mono s16le WAV at `output`, and channel i alone to `channelOutputs[i]`
 * in the same pass; returns the decoded duration. Each output stops just past `maxSeconds` whatever
 * the file's header claims (a small file of hours of silence), so an over-long file costs at most
 * that much disk before it is refused.
 */
export async function prepare(input: string, output: string, declaredSeconds: number | null, maxSeconds: number, channels: number, channelOutputs: readonly string[] = []): Promise<number> {
  const wav = (file: string) => ['-ar', String(PREPARED_SAMPLE_RATE), '-c:a', 'pcm_s16le', '-t', String(maxSeconds + 1), '-flags', '+bitexact', '-fflags', '+bitexact', '-f', 'wav', file];
  const result = await run(
    'ffmpeg',
    [
      '-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', input,
      '-vn', '-map', '0:a:0', ...mixToMono(channels), ...wav(output),
      ...channelOutputs.flatMap((file, channel) => ['-vn', '-map', '0:a:0', '-af', `pan=mono|c0=c${channel}`, ...wav(file)]),
    ],
    6 * 3600_000,
  );
  if (result.code !== 0) throw new MediaError('invalid_audio', 'the audio could not be decoded');
  const missing = await wavShortfall(input);
  if (missing > 0) throw new MediaError('truncated_audio', `the WAV file ends ${missing} bytes before its declared end`);
  const size = (await fs.stat(output)).size;
  const seconds = checkPreparedLength(Math.max(0, size - 44) / (2 * PREPARED_SAMPLE_RATE), maxSeconds);
  if (declaredSeconds !== null && seconds < declaredSeconds * 0.9 - 0.5) {
    throw new MediaError('truncated_audio', `the file ends early: ${seconds.toFixed(1)} s of a declared ${declaredSeconds.toFixed(1)} s decoded`);
  }
  return seconds;
}

