// The README's and docs/' commands as a newcomer runs them: every fenced block marked `bash
// runnable` is run as written with bash against a live Hark (its defaults: an upload is
// transcribed by itself).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { speech } from './helpers/audio.ts';
import { dropStore, testConfig } from './helpers/harness.ts';
import { spawnServer } from './helpers/process.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The fenced blocks of a Markdown file whose info string is `bash runnable`. */
export function runnableBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```bash runnable\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

test('the README\'s first call runs as written and prints the transcript as SRT', async () => {
  const pages = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => path.join('docs', name))];
  const blocks = pages.flatMap((page) => runnableBlocks(fs.readFileSync(path.join(root, page), 'utf8')));
  assert.ok(runnableBlocks(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).length >= 1, 'the README marks its first call runnable');
  const config = await testConfig('pglite');
  const server = await spawnServer(config, { HARK_AUTO_TRANSCRIBE: 'on' });
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-readme-'));
  try {
    fs.copyFileSync(speech('Thank you for calling. How can I help you today?'), path.join(folder, 'call.wav'));
    for (const block of blocks) {
      const run = spawnSync('bash', ['-euo', 'pipefail', '-c', block], { cwd: folder, env: { ...process.env, HARK: server.base }, encoding: 'utf8', timeout: 180_000 });
      assert.equal(run.status, 0, `${block}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`);
      assert.match(run.stdout, /^\{"id":"fl-[^\n]*"pipeline":\{/m, 'the upload\'s answer, the recording card, is printed');
      assert.match(run.stdout, /^preparing$/m, 'the upload\'s pipeline status is printed');
      assert.match(run.stdout, /^1\n00:00:00,\d{3} --> 00:00:0\d,\d{3}\n/m, 'an SRT cue');
      assert.match(run.stdout, /thank you for calling/i);
    }
  } finally {
    await server.kill();
    fs.rmSync(folder, { recursive: true, force: true });
    await dropStore(config);
  }
});
