// Real read speech with references: Debian's pocketsphinx-testdata librivox recordings.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';

export function librivox(): { file: string; reference: string }[] {
  const lines = fs.readFileSync(path.join(LIBRIVOX, 'transcription'), 'utf8').trim().split('\n');
  return lines.map((line) => {
    const match = /^(.*)\(([^)]+)\)\s*$/.exec(line);
    if (!match?.[1] || !match[2]) throw new Error(`bad transcription line ${line}`);
    return { file: path.join(LIBRIVOX, `${match[2]}.wav`), reference: match[1].replace(/<\/?s>/g, '').trim() };
  });
}

/** All librivox utterances joined with a second of silence between them, and the joined reference. */
export function librivoxJoined(): { file: string; reference: string } {
  const items = librivox();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-librivox-'));
  process.on('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
  const out = path.join(folder, 'joined.wav');
  const inputs = items.flatMap((item) => ['-i', item.file]);
  const filter = `${items.map((_, i) => `[${i}:a]apad=pad_dur=1[a${i}]`).join(';')};${items.map((_, i) => `[a${i}]`).join('')}concat=n=${items.length}:v=0:a=1[out]`;
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', ...inputs, '-filter_complex', filter, '-map', '[out]', '-ac', '1', '-ar', '16000', out]);
  return { file: out, reference: items.map((i) => i.reference).join(' ') };
}
