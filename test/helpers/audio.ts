// Real audio made for tests: speech from flite, re-encoded by ffmpeg into each accepted format.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-audio-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

let counter = 0;
const next = (ext: string) => path.join(dir, `a${++counter}.${ext}`);

export function speech(text: string, voice: 'slt' | 'kal' = 'slt'): string {
  const out = next('wav');
  execFileSync('flite', ['-voice', voice, '-t', text, '-o', out]);
  return out;
}

export const encoders = {
  wav: ['-c:a', 'pcm_s16le'],
  mp3: ['-c:a', 'libmp3lame', '-b:a', '64k'],
  m4a: ['-c:a', 'aac', '-b:a', '64k'],
  ogg: ['-c:a', 'libvorbis'],
  opus: ['-c:a', 'libopus', '-b:a', '32k'],
  flac: ['-c:a', 'flac'],
} as const;

export function encode(input: string, format: keyof typeof encoders): string {
  const out = next(format === 'opus' ? 'ogg' : format);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', input, ...encoders[format], out]);
  return out;
}

export function tone(seconds: number): string {
  const out = next('wav');
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-ac', '1', '-ar', '16000', out]);
  return out;
}

export function durationOf(file: string): number {
  return Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).toString().trim());
}

export const mimeOf: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  flac: 'audio/flac',
};

/** A multipart/form-data body for app.inject. */
export function multipart(
  fields: Record<string, string>,
  /** contentType null: the part declares none (as Python's requests sends a file). */
  file?: { content: Buffer; filename: string; contentType: string | null; field?: string },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----hark${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\n${file.contentType === null ? '' : `Content-Type: ${file.contentType}\r\n`}\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * A call recorded on two channels, as call recorders write them: each utterance spoken by flite
 * on its channel (0 or 1) from its time in seconds, silence elsewhere; 16 kHz stereo WAV.
 */
export function stereoCall(utterances: { channel: 0 | 1; at: number; text: string; voice?: 'slt' | 'kal' }[], seconds: number): string {
  const out = next('wav');
  const inputs = utterances.flatMap((u) => ['-i', speech(u.text, u.voice)]);
  const channel = (c: 0 | 1) => {
    const own = utterances.map((u, i) => ({ ...u, i })).filter((u) => u.channel === c);
    const delayed = own.map((u) => `[${u.i}:a]aresample=16000,adelay=${Math.round(u.at * 1000)}:all=1[d${u.i}]`);
    const sources = own.map((u) => `[d${u.i}]`).join('');
    const mix = own.length > 1 ? `amix=inputs=${own.length}:normalize=0:duration=longest,` : '';
    return [...delayed, `${sources}${mix}apad=whole_dur=${seconds},atrim=0:${seconds},aformat=sample_fmts=s16:channel_layouts=mono[c${c}]`];
  };
  const graph = [...channel(0), ...channel(1), '[c0][c1]join=inputs=2:channel_layout=stereo[out]'].join(';');
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', ...inputs, '-filter_complex', graph, '-map', '[out]', '-ar', '16000', out]);
  return out;
}

/** `file` as a recorder writes it: its silences dithered a step either side of zero (by sox). */
export function dithered(file: string): string {
  const out = next('wav');
  execFileSync('sox', [file, out, 'vol', '0.999']);
  return out;
}

/** The loudest sample of `file` between `start` and `end` seconds, in dB (about -91 for silence). */
export function maxVolume(file: string, start: number, end: number): number {
  const result = spawnSync('ffmpeg', ['-nostdin', '-hide_banner', '-ss', String(start), '-t', String(end - start), '-i', file, '-af', 'volumedetect', '-f', 'null', '-'], { encoding: 'utf8' });
  const match = /max_volume: (-?[\d.]+|-inf) dB/.exec(result.stderr);
  if (!match) throw new Error(`no volume measured: ${result.stderr.slice(-300)}`);
  return match[1] === '-inf' ? -Infinity : Number(match[1]);
}
