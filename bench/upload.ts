// Upload bench: streams a 1 GiB WAV to a `hark serve` process over HTTP and prints the ingest rate
// next to `cp` of the same file on the same disk, and the server's peak RSS.
// Run: npx tsx bench/upload.ts [size-in-MiB]
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { usage } from './usage.ts';

usage('Usage: npx tsx bench/upload.ts [MiB] [--postgres]\nA WAV of MiB (1024 by default) streamed over HTTP: throughput and the server\'s memory beside a bare Node receiver.');

const mib = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 1024);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-upload-bench-'));
const file = path.join(dir, 'big.wav');
const seconds = Math.floor((mib * 1024 * 1024) / (48_000 * 2 * 2));
execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=300:duration=${seconds}:sample_rate=48000`, '-ac', '2', file]);
const size = fs.statSync(file).size;

let t = performance.now();
execFileSync('cp', [file, path.join(dir, 'copy.wav')]);
const cpSeconds = (performance.now() - t) / 1000;
fs.rmSync(path.join(dir, 'copy.wav'));

const port = 18000 + Math.floor(Math.random() * 1000);
// --postgres measures the server without the embedded database (PGlite's WASM heap alone is
// several hundred MB), which is what the upload path itself costs.
const postgres = process.argv.includes('--postgres') ? { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', HARK_DB_SCHEMA: `bench_${process.pid}` } : {};
const server = spawn(process.execPath, ['bin/hark.js', 'serve', '--no-workers'], {
  env: { ...process.env, PORT: String(port), HARK_DATA_DIR: path.join(dir, 'data'), HARK_LOG_LEVEL: 'warn', ...postgres },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
for (;;) {
  try {
    if ((await fetch(`${base}/readyz`)).ok) break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
const rssOf = (field: 'VmHWM' | 'VmRSS') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const idleRss = rssOf('VmRSS');
const account = (await (await fetch(`${base}/api/v1/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'u@example.com', password: 'bench bench bench', workspace_name: 'b' }) })).json()) as { workspace_id: string; api_key: string };

const boundary = 'hark-bench-boundary';
const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
t = performance.now();
const status = await new Promise<number>((resolve, reject) => {
  const request = http.request(`${base}/api/v1/workspaces/${account.workspace_id}/recordings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.api_key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) },
  });
  request.on('response', (response) => {
    response.resume();
    response.on('end', () => resolve(response.statusCode ?? 0));
  });
  request.on('error', reject);
  request.write(head);
  const stream = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  stream.pipe(request, { end: false });
  stream.on('end', () => request.end(tail));
});
const uploadSeconds = (performance.now() - t) / 1000;
const peakMb = rssOf('VmHWM');
server.kill('SIGTERM');

const rate = (s: number) => size / 1e6 / s;
console.log(`file ${(size / 1024 ** 2).toFixed(0)} MiB, upload HTTP ${status}`);
console.log(`cp:     ${cpSeconds.toFixed(2)} s  ${rate(cpSeconds).toFixed(0)} MB/s`);
console.log(`upload: ${uploadSeconds.toFixed(2)} s  ${rate(uploadSeconds).toFixed(0)} MB/s  (${(cpSeconds / uploadSeconds).toFixed(2)} of cp; target >= 0.8)`);
console.log(`server RSS: ${idleRss.toFixed(0)} MB ready, ${peakMb.toFixed(0)} MB peak (+${(peakMb - idleRss).toFixed(0)} MB for the upload; target < 200 MB)${Object.keys(postgres).length ? ' [PostgreSQL]' : ' [embedded PGlite]'}`);
fs.rmSync(dir, { recursive: true, force: true });
