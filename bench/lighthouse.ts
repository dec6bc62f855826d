// Page speed: Lighthouse (mobile preset: a mid-range phone on slow 4G, CPU slowed 4×) in Debian's
// Chromium on the sign-in page, the recordings list and a transcribed recording, served by a
// `hark serve` process with the built web interface. Beside them, the same audit of a bare HTML
// page served by Node from the same machine: the floor these pages are measured against.
// Run: npx tsx bench/lighthouse.ts   (needs `npm run build --prefix web` and /usr/bin/chromium)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { usage } from './usage.ts';

usage('Usage: npx tsx bench/lighthouse.ts [--runs N] [--only PAGE] [--details] [--save DIR]\nLighthouse (mobile preset) in Debian\'s Chromium on sign-in, the recordings list and a recording, beside a bare page.\n--runs N audits each page N times (default 3) and prints the median run by performance, with the range; --only PAGE audits the floor and that page (sign-in, recordings, recording);\n--details prints where each page\'s main-thread time goes; --save DIR writes each page\'s full report (JSON) there. Needs npm run build --prefix web.');
const runsAt = process.argv.indexOf('--runs');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
const runs = runsAt >= 0 ? Math.max(1, Number(process.argv[runsAt + 1]) || 1) : 3;
const saveAt = process.argv.indexOf('--save');
const saveDir = saveAt >= 0 ? process.argv[saveAt + 1] : undefined;

const CHROMIUM = process.env.HARK_TEST_CHROMIUM ?? '/usr/bin/chromium';
if (!fs.existsSync(path.join('web', 'dist', 'index.html'))) throw new Error('build the web interface first: npm run build --prefix web');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-lighthouse-'));
const port = 18000 + Math.floor(Math.random() * 1000);
const server = spawn(process.execPath, ['bin/hark.js', 'serve'], {
  env: { ...process.env, HARK_PORT: String(port), HARK_DATA_DIR: path.join(dir, 'data'), HARK_LOG_LEVEL: 'warn', HARK_AUTO_TRANSCRIBE: 'on' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
// However this ends (a failure before the audits too), the server stops and its folder goes.
process.on('exit', () => {
  server.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});
const base = `http://127.0.0.1:${port}`;
for (;;) {
  try {
    if ((await fetch(`${base}/readyz`)).ok) break;
  } catch {
    // not listening yet
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}

// An account, a recording transcribed on upload, and a session cookie for the pages behind sign-in.
const email = 'bench@example.com';
const password = 'bench bench bench';
const account = (await (await fetch(`${base}/api/v1/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password, workspace_name: 'Bench' }) })).json()) as { workspace_id: string; api_key: string };
const P = `${base}/api/v1/workspaces/${account.workspace_id}`;
const auth = { authorization: `Bearer ${account.api_key}` };
const { execFileSync } = await import('node:child_process');
const wav = path.join(dir, 'call.wav');
execFileSync('flite', ['-voice', 'slt', '-t', 'Thank you for calling. My parcel never arrived, and I would like a refund please. I am sorry, I will send another one today.', '-o', wav]);
const form = new FormData();
form.append('file', new Blob([fs.readFileSync(wav)], { type: 'audio/wav' }), 'call.wav');
form.append('metadata', JSON.stringify({ agent: 'ana', queue: 'billing' }));
const recording = (await (await fetch(`${P}/recordings`, { method: 'POST', headers: auth, body: form })).json()) as { id: string };
for (let i = 0; ; i++) {
  const transcript = await fetch(`${P}/recordings/${recording.id}/transcript`, { headers: auth });
  if (transcript.ok) break;
  if (i > 600) throw new Error('the recording was not transcribed');
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const signIn = await fetch(`${base}/api/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
const cookies = signIn.headers.getSetCookie().map((line) => {
  const [pair] = line.split(';');
  const at = pair!.indexOf('=');
  return { name: pair!.slice(0, at), value: pair!.slice(at + 1), url: base };
});

// The floor: a bare page with one heading and one paragraph, from Node's own HTTP server.
const bare = http.createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bare</title><meta name="description" content="A bare page"></head><body><h1>Bare</h1><p>A page with nothing to load.</p></body></html>'));
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`;

const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage'] });
// The signed-in pages need the session's cookies in the browser itself (the page reads its
// signed-in marker from document.cookie): they are set once, and Lighthouse is told to keep
// them; the HTTP cache is emptied before each audit instead, so every page loads cold.
const driver = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
const context = driver.contexts()[0]!;
await context.addCookies(cookies);
const cdp = await context.newCDPSession(context.pages()[0] ?? (await context.newPage()));
interface Scores {
  page: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  bytes: number;
}
/** Where a page's time goes (`--details`): main-thread work by script and category, long tasks, the LCP element and its phases. */
function details(page: string, audits: Record<string, { details?: unknown; displayValue?: string }>) {
  type Items = { items?: Record<string, unknown>[] };
  const items = (id: string) => ((audits[id]?.details as Items | undefined)?.items ?? []);
  console.log(`\n== ${page}`);
  for (const row of items('mainthread-work-breakdown')) console.log(`  main thread ${String(row.groupLabel).padEnd(28)} ${Number(row.duration).toFixed(0)} ms`);
  for (const row of items('bootup-time').slice(0, 6)) console.log(`  script ${String(row.url).replace(/^https?:\/\/[^/]+/, '').padEnd(48)} ${Number(row.total).toFixed(0)} ms (evaluate ${Number(row.scripting).toFixed(0)}, parse ${Number(row.scriptParseCompile).toFixed(0)})`);
  for (const row of items('long-tasks').slice(0, 8)) console.log(`  long task at ${Number(row.startTime).toFixed(0)} ms: ${Number(row.duration).toFixed(0)} ms ${String(row.url).replace(/^https?:\/\/[^/]+/, '')}`);
  for (const row of items('layout-shifts')) {
    const node = (row as { node?: { snippet?: string; selector?: string } }).node;
    console.log(`  layout shift ${Number((row as { score?: number }).score).toFixed(3)}: ${node?.selector ?? ''} ${node?.snippet?.slice(0, 100) ?? ''}`);
  }
  for (const row of items('largest-contentful-paint-element')) {
    const node = (row as { node?: { snippet?: string } }).node;
    if (node?.snippet) console.log(`  LCP element ${node.snippet.slice(0, 120)}`);
    for (const phase of ((row as { items?: { phase: string; timing: number }[] }).items ?? [])) if (phase.phase) console.log(`  LCP ${phase.phase}: ${phase.timing.toFixed(0)} ms`);
  }
}
async function audit(page: string, url: string): Promise<Scores> {
  await cdp.send('Network.clearBrowserCache');
  const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'], disableStorageReset: true });
  if (new URL(result?.lhr.finalDisplayedUrl ?? url).pathname !== new URL(url).pathname) throw new Error(`${url} ended at ${result?.lhr.finalDisplayedUrl}: not signed in?`);
  if (!result) throw new Error(`no result for ${url}`);
  const { categories, audits } = result.lhr;
  if (process.argv.includes('--details')) details(page, audits);
  if (saveDir) {
    fs.mkdirSync(saveDir, { recursive: true });
    fs.writeFileSync(path.join(saveDir, `${page.replace(/\W+/g, '-')}.json`), JSON.stringify(result.lhr));
  }
  const metric = (id: string) => Number(audits[id]?.numericValue ?? NaN);
  return {
    page,
    performance: Math.round((categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
    bestPractices: Math.round((categories['best-practices']?.score ?? 0) * 100),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    bytes: metric('total-byte-weight'),
  };
}

/** A page audited `runs` times, the pages taking turns (a noisy moment of the shared machine falls on one run of each, not on every run of one page): the median run by performance, with the range. */
const pages: [string, string][] = [
  ['bare page (floor)', bareUrl],
  ['sign-in', `${base}/sign-in`],
  ['recordings', `${base}/w/${account.workspace_id}/recordings`],
  ['a recording', `${base}/w/${account.workspace_id}/recordings/${recording.id}`],
];
if (only) pages.splice(1, pages.length, ...pages.slice(1).filter(([page]) => page.endsWith(only)));
const audited = new Map<string, Scores[]>(pages.map(([page]) => [page, []]));
const rows: (Scores & { range: string })[] = [];
try {
  for (let run = 0; run < runs; run++) for (const [page, url] of pages) audited.get(page)!.push(await audit(page, url));
  for (const [page] of pages) {
    const scores = audited.get(page)!.sort((a, b) => a.performance - b.performance);
    rows.push({ ...scores[Math.floor((scores.length - 1) / 2)]!, range: `${scores[0]!.performance}–${scores.at(-1)!.performance}` });
  }
} finally {
  await driver.close().catch(() => {});
  await chrome.kill();
  bare.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(dir, { recursive: true, force: true });
}

const floor = rows[0]!;
console.log(`Lighthouse, mobile preset, Debian Chromium, median of ${runs} run${runs === 1 ? '' : 's'} (goal: performance ≥ 90, accessibility and best practices 100)`);
console.log('page               perf    range  a11y  best   FCP ms   LCP ms  LCP/floor  TBT ms   CLS    KB');
for (const r of rows) {
  console.log(
    `${r.page.padEnd(18)} ${String(r.performance).padStart(4)} ${r.range.padStart(8)}  ${String(r.accessibility).padStart(4)}  ${String(r.bestPractices).padStart(4)}  ${r.fcp.toFixed(0).padStart(7)}  ${r.lcp.toFixed(0).padStart(7)}  ${(r.lcp / floor.lcp).toFixed(1).padStart(8)}×  ${r.tbt.toFixed(0).padStart(6)}  ${r.cls.toFixed(3)}  ${(r.bytes / 1024).toFixed(0).padStart(5)}`,
  );
}
