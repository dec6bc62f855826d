// Each client installed from its folder by the commands of its README's Install section, run as
// written (path/to/hark is this checkout), then five lines of the programmer's own code print a
// recording's transcript from a live Hark.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { speech } from './helpers/audio.ts';
import { registerAccount, startHark, type Hark } from './helpers/harness.ts';

const run = promisify(execFile);
const root = path.join(import.meta.dirname, '..');
const clients = path.join(root, 'clients');

describe('each client installs from its folder and prints a transcript in five lines', () => {
  let hark: Hark;
  let env: NodeJS.ProcessEnv;
  let work: string;
  let audio: string;
  before(async () => {
    hark = await startHark({ backend: 'pglite' });
    await hark.app.listen({ host: '127.0.0.1', port: 0 });
    const account = await registerAccount(hark);
    env = { ...process.env, HARK_URL: `http://127.0.0.1:${(hark.app.server.address() as AddressInfo).port}`, HARK_API_KEY: account.key, COMPOSER_ALLOW_SUPERUSER: '1', COMPOSER_NO_INTERACTION: '1' };
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'hark-installs-'));
    audio = speech('Thank you for calling, goodbye.');
  });
  after(async () => {
    await hark.destroy();
    await fs.rm(work, { recursive: true, force: true });
  });

  const expectTranscript = (stdout: string) => assert.match(stdout.trim(), /^.*thank you.*$/i);

  /** The commands of a client README's Install section (its sh block), run one after another in `dir`. */
  async function installAsDocumented(client: string, dir: string) {
    const readme = await fs.readFile(path.join(clients, client, 'README.md'), 'utf8');
    const install = readme.slice(readme.indexOf('## Install'));
    const block = /```sh\n([\s\S]*?)```/.exec(install);
    assert.ok(block, `${client}/README.md has an Install section with an sh block`);
    const commands = block[1]!.replaceAll('path/to/hark', root).split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter(Boolean);
    for (const command of commands) await run('bash', ['-euo', 'pipefail', '-c', command], { cwd: dir, env });
  }

  test('Python: pip install of the folder (no network)', async () => {
    const dir = path.join(work, 'python');
    await fs.mkdir(dir);
    // Debian's Python, with its setuptools and wheel, so the build needs no download.
    await installAsDocumented('python', dir);
    await fs.writeFile(path.join(dir, 'main.py'), 'import sys\nfrom hark import Hark\n\nhark = Hark()\nprint(hark.transcribe(sys.argv[1])["text"])\n');
    expectTranscript((await run(path.join(dir, '.venv/bin/python'), ['main.py', audio], { cwd: dir, env })).stdout);
  });

  test('Go: the module from the folder (a replace, no network)', async () => {
    const dir = path.join(work, 'go');
    await fs.mkdir(dir);
    // The programmer's own module, then the README's commands.
    await run('go', ['mod', 'init', 'example.com/mine'], { cwd: dir, env });
    await installAsDocumented('go', dir);
    await fs.writeFile(
      path.join(dir, 'main.go'),
      'package main\n\nimport (\n\t"context"\n\t"fmt"\n\t"os"\n\n\thark "github.com/hark-audio/hark-go"\n)\n\nfunc main() {\n\ttranscript, err := hark.New("", "").Transcribe(context.Background(), os.Args[1])\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\tfmt.Println(transcript.Text)\n}\n',
    );
    expectTranscript((await run('go', ['run', '.', audio], { cwd: dir, env })).stdout);
  });

  test('PHP: composer require of the folder (a path repository, no network)', async () => {
    const dir = path.join(work, 'php');
    await fs.mkdir(dir);
    // The programmer's own (empty) project, then the README's commands.
    await fs.writeFile(path.join(dir, 'composer.json'), '{}\n');
    await installAsDocumented('php', dir);
    await fs.writeFile(path.join(dir, 'main.php'), "<?php\nrequire 'vendor/autoload.php';\n\n$hark = new Hark\\Client();\necho $hark->transcribe($argv[1])['text'], \"\\n\";\n");
    expectTranscript((await run('php', ['main.php', audio], { cwd: dir, env })).stdout);
  });

  test('TypeScript: npm install of the folder, built once', async () => {
    const dir = path.join(work, 'node');
    await fs.mkdir(dir);
    await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'mine', private: true, type: 'module' }));
    await installAsDocumented('typescript', dir);
    await fs.writeFile(path.join(dir, 'main.js'), "import { Hark } from '@hark/client';\n\nconst hark = new Hark();\nconst transcript = await hark.transcribe(process.argv[2]);\nconsole.log(transcript.text);\n");
    expectTranscript((await run(process.execPath, ['main.js', audio], { cwd: dir, env })).stdout);
  });
});
