// Scale bench: Hark on PostgreSQL with a million recordings, transcripts and analysis results.
// Prints each figure next to its goal and, for the card reads, next to a bare Fastify route
// serving the same card in the same run; query plans of the list queries; the CPU profile's top
// entries of the API process under the card load; and the embedded store's idle memory and card
// reads beside PostgreSQL's.
// Run: npx tsx bench/scale.ts [--recordings 1000000] [--reuse] [--skip-embedded | --embedded-only]
//   --reuse keeps a seeded bench schema of that size from an earlier run (seeding takes minutes).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import type { Context } from '../src/context.ts';
import type { Tables } from '../src/platform/db/tables.ts';
import { listRecordings } from '../src/core/recordings/recordings.ts';
import { analysisReport } from '../src/features/insights/reports.ts';
import { speech } from '../test/helpers/audio.ts';
import { spawnHark, type HarkProcess } from '../test/helpers/process.ts';
import { seed, type Template } from './scale-seed.ts';
import { usage } from './usage.ts';

usage('Usage: npx tsx bench/scale.ts [--recordings N] [--reuse] [--skip-embedded] [--embedded-only]\nHark on PostgreSQL with N recordings (1,000,000 by default): lists, search, reports, executions, card reads, the embedded stores.');

const { values: args } = parseArgs({
  options: { recordings: { type: 'string', default: '1000000' }, reuse: { type: 'boolean', default: false }, 'skip-embedded': { type: 'boolean', default: false }, 'embedded-only': { type: 'boolean', default: false } },
});
const TOTAL = Number(args.recordings);
const POSTGRES = process.env.HARK_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_scale';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-scale-'));
fs.chmodSync(work, 0o711); // a private PostgreSQL cluster below it runs as another user
const folder = (name: string) => {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};

const db = new pg.Client({ connectionString: POSTGRES });
await db.connect();
await db.query(`SET search_path TO ${SCHEMA}, public`);

interface Seeded extends Template {
  key: string;
  transcriptionScenarioId: string;
  analysisScenarioId: string;
  total: number;
}

const line = (label: string, figure: string, goal: string, ok: boolean | null) =>
  console.log(`${label.padEnd(46)} ${figure.padStart(16)}   goal ${goal.padEnd(10)} ${ok === null ? '' : ok ? 'met' : 'NOT MET'}`);

// ---------------------------------------------------------------- seeding

async function seeded(): Promise<Seeded | null> {
  const { rows } = await db.query<{ info: Seeded }>(`SELECT info FROM ${SCHEMA}.bench_seed LIMIT 1`).catch(() => ({ rows: [] as { info: Seeded }[] }));
  return rows[0]?.info.total === TOTAL ? rows[0].info : null;
}

async function freshSeed(): Promise<Seeded> {
  await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; DROP SCHEMA IF EXISTS ${SCHEMA}_boss CASCADE`);
  console.error(`seeding ${TOTAL.toLocaleString('en')} recordings: one transcribed and analysed for real, then cloned`);
  const hark = await spawnHark(['serve'], { DATABASE_URL: POSTGRES, HARK_DB_SCHEMA: SCHEMA, HARK_DATA_DIR: folder('seed') });
  const base = hark.base!;
  const account = (await post(base, '/api/v1/accounts', null, { email: 'scale@example.com', password: 'scale bench password', workspace_name: 'Scale' })) as { workspace_id: string; api_key: string };
  const P = `/api/v1/workspaces/${account.workspace_id}`;
  const form = new FormData();
  form.set('file', await fs.openAsBlob(speech('Hello, thank you for calling. I would like a refund for my last invoice, please.'), { type: 'audio/wav' }), 'call.wav');
  form.set('metadata', JSON.stringify({ agent: 'agent-0', team: 'team-0', queue: 'sales' }));
  const recording = (await (await fetch(`${base}${P}/recordings`, { method: 'POST', headers: { authorization: `Bearer ${account.api_key}` }, body: form })).json()) as { id: string };
  const transcription = (await post(base, `${P}/recordings/${recording.id}/transcription-runs`, account.api_key, {})) as { id: string; transcription_scenario_id: string };
  await until(base, `${P}/transcription-runs/${transcription.id}`, account.api_key);
  const scenario = (await post(base, `${P}/analysis-scenarios`, account.api_key, {
    name: 'Call review',
    questions: [
      { id: 'greeting', text: 'Did the agent greet the customer?', type: 'boolean' },
      { id: 'refund', text: 'Did the customer ask for a refund?', type: 'boolean' },
      { id: 'request', text: 'What did the customer ask for?', type: 'text' },
    ],
  })) as { id: string };
  const analysis = (await post(base, `${P}/recordings/${recording.id}/analysis-runs`, account.api_key, { analysis_scenario_id: scenario.id })) as { id: string };
  await until(base, `${P}/analysis-runs/${analysis.id}`, account.api_key);
  await hark.kill('SIGTERM');
  const info: Seeded = {
    workspaceId: account.workspace_id,
    recordingId: recording.id,
    transcriptionRunId: transcription.id,
    analysisRunId: analysis.id,
    key: account.api_key,
    transcriptionScenarioId: transcription.transcription_scenario_id,
    analysisScenarioId: scenario.id,
    total: TOTAL,
  };
  const started = performance.now();
  await seed(db, info, TOTAL);
  console.error(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await db.query(`CREATE TABLE ${SCHEMA}.bench_seed (info jsonb NOT NULL)`);
  await db.query(`INSERT INTO ${SCHEMA}.bench_seed VALUES ($1)`, [JSON.stringify(info)]);
  return info;
}

async function post(base: string, url: string, key: string | null, body: unknown): Promise<unknown> {
  const response = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function until(base: string, url: string, key: string): Promise<void> {
  for (;;) {
    const card = (await (await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string; error_message: string | null };
    if (card.status === 'completed') return;
    if (card.status === 'failed') throw new Error(`${url} failed: ${card.error_message}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// ---------------------------------------------------------------- measuring

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function latencies(base: string, key: string, urls: () => string, n = 200): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < n + 20; i++) {
    const started = performance.now();
    const response = await fetch(`${base}${urls()}`, { headers: { authorization: `Bearer ${key}` } });
    if (!response.ok) throw new Error(`${urls()}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
    if (i >= 20) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function load(url: string, headers: Record<string, string>, seconds = 10): Promise<number> {
  const result = await autocannon({ url, connections: 20, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** The SQL the service runs for a call, captured through Kysely's log, then EXPLAIN ANALYZE'd. */
async function plans(run: (ctx: Context) => Promise<unknown>): Promise<string[]> {
  const captured: CompiledQuery[] = [];
  const pool = new pg.Pool({ connectionString: POSTGRES, max: 1, options: `-c search_path=${SCHEMA},public` });
  const kysely = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }), log: (event) => void captured.push(event.query) });
  const ctx = { db: kysely, config: { databaseSchema: SCHEMA } } as unknown as Context;
  await run(ctx);
  const out: string[] = [];
  // In one transaction, with the settings the service made for its queries (SET LOCAL).
  const client = await pool.connect();
  await client.query('BEGIN');
  for (const query of captured) {
    if (/^\s*set /i.test(query.sql)) await client.query(query.sql, query.parameters as unknown[]);
    if (!/^\s*select/i.test(query.sql)) continue;
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`, query.parameters as unknown[]);
    out.push(rows.map((row) => row['QUERY PLAN']).join('\n'));
  }
  await client.query('COMMIT');
  client.release();
  await kysely.destroy();
  return out;
}

/** Proportional set size of every descendant of `pid` (shared memory counted once), in MB. */
function descendantsPssMb(pid: number): number {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // ended meanwhile
    }
  }
  let total = 0;
  const stack = [...(children.get(pid) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    stack.push(...(children.get(next) ?? []));
    try {
      total += Number(/^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${next}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** The top self-time entries of a V8 CPU profile. */
function topOfProfile(dir: string, count = 12): string[] {
  const file = fs.readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) return ['(no profile written)'];
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  for (const sample of profile.samples) {
    const frame = byId.get(sample)?.callFrame;
    if (!frame) continue;
    const where = frame.url ? `${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(src|bin)\//, '$1/')}:${frame.lineNumber + 1}` : '';
    const name = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    self.set(name, (self.get(name) ?? 0) + 1);
  }
  const idle = self.get('(idle)') ?? 0;
  self.delete('(idle)');
  const busy = profile.samples.length - idle;
  const entries = [...self].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name, n]) => `${((100 * n) / busy).toFixed(1).padStart(5)} %  ${name}`);
  return [`busy ${((100 * busy) / profile.samples.length).toFixed(0)} % of the samples`, ...entries];
}

/**
 * A bare Fastify route answering `card` as JSON, in its own process; and one reading the
 * recording's row by id from PostgreSQL first (the floor of one query per request).
 */
async function bareFastify(card: unknown, recordingId: string): Promise<{ base: string; stop: () => void }> {
  const port = 19000 + Math.floor(Math.random() * 1000);
  const script = `const app = require('fastify')(); const card = ${JSON.stringify(JSON.stringify(card))};
    const pool = new (require('pg').Pool)({ connectionString: ${JSON.stringify(POSTGRES)}, max: 10, options: '-c search_path=${SCHEMA}' });
    app.get('/card', (req, reply) => reply.type('application/json').send(card));
    app.get('/card-db', async () => (await pool.query('SELECT * FROM recordings WHERE id = $1', [${JSON.stringify(recordingId)}])).rows[0]);
    app.listen({ port: ${port}, host: '127.0.0.1' }).then(() => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

// The embedded store's options side by side, each a fresh server with a small workspace: idle
// memory, card reads, start time, and jobs a second (an execution of 200 analysis runs drained
// by one worker process).
async function compareEmbedded(): Promise<void> {
  console.log('\nEmbedded store options, a fresh `hark serve` each (memory: the Hark process, plus its PostgreSQL processes for a private cluster):');
  console.log(`${'option'.padEnd(44)} ${'start'.padStart(7)} ${'idle memory'.padStart(12)} ${'card reads'.padStart(12)} ${'analysis jobs'.padStart(14)}`);
  const options: { name: string; env: () => Promise<{ env: Record<string, string>; extraMb: () => number; stop: () => Promise<void> }> }[] = [
    { name: 'HARK_EMBEDDED_DB=pglite', env: async () => ({ env: { HARK_DATA_DIR: folder('embedded'), HARK_EMBEDDED_DB: 'pglite' }, extraMb: () => 0, stop: async () => {} }) },
    {
      // Hark starts it as its child: its memory is that of Hark's descendants.
      name: 'private cluster (the default)',
      env: async () => ({ env: { HARK_DATA_DIR: folder('private'), HARK_EMBEDDED_DB: 'postgres' }, extraMb: () => 0, stop: async () => {} }),
    },
    {
      name: 'the shared PostgreSQL server (not counted)',
      env: async () => {
        const schema = `bench_small_${process.pid}`;
        return {
          env: { HARK_DATA_DIR: folder('server'), DATABASE_URL: POSTGRES, HARK_DB_SCHEMA: schema },
          extraMb: () => 0,
          stop: async () => void (await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`)),
        };
      },
    },
  ];
  for (const option of options) {
    const started = performance.now();
    const store = await option.env();
    const server: HarkProcess = await spawnHark(['serve'], { ...store.env, HARK_RATE_LIMIT_PER_MINUTE: '1000000', HARK_WORKER_CONCURRENCY: '2' });
    const startSeconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = rssMb(server.child.pid!) + descendantsPssMb(server.child.pid!) + store.extraMb();
    const account = (await post(server.base!, '/api/v1/accounts', null, { email: 'small@example.com', password: 'scale bench password', workspace_name: 'Small' })) as { workspace_id: string; api_key: string };
    const W = `/api/v1/workspaces/${account.workspace_id}`;
    const form = new FormData();
    form.set('file', await fs.openAsBlob(speech('Hello, thank you for calling. I would like a refund, please.'), { type: 'audio/wav' }), 'call.wav');
    const recording = (await (await fetch(`${server.base}${W}/recordings`, { method: 'POST', headers: { authorization: `Bearer ${account.api_key}` }, body: form })).json()) as { id: string };
    const transcription = (await post(server.base!, `${W}/recordings/${recording.id}/transcription-runs`, account.api_key, {})) as { id: string };
    await until(server.base!, `${W}/transcription-runs/${transcription.id}`, account.api_key);
    const rate = await load(`${server.base}${W}/recordings/${recording.id}`, { authorization: `Bearer ${account.api_key}` });
    // Jobs a second: 200 analysis runs of the one transcript (the basic engine takes milliseconds,
    // so this is the queue and the store), from the execution's acceptance to its last run.
    const scenarios = (await (await fetch(`${server.base}${W}/analysis-scenarios`, { headers: { authorization: `Bearer ${account.api_key}` } })).json()) as { data: { id: string }[] };
    const jobsStarted = performance.now();
    for (let i = 0; i < 200; i++) await post(server.base!, `${W}/recordings/${recording.id}/analysis-runs`, account.api_key, { analysis_scenario_id: scenarios.data[0]!.id });
    for (;;) {
      const page = (await (await fetch(`${server.base}${W}/analysis-runs?status=queued,running&limit=1`, { headers: { authorization: `Bearer ${account.api_key}` } })).json()) as { data: unknown[] };
      if (page.data.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const jobsPerSecond = 200 / ((performance.now() - jobsStarted) / 1000);
    console.log(`${option.name.padEnd(44)} ${`${startSeconds.toFixed(1)} s`.padStart(7)} ${`${idle.toFixed(0)} MB`.padStart(12)} ${`${rate.toFixed(0)}/s`.padStart(12)} ${`${jobsPerSecond.toFixed(0)}/s`.padStart(14)}`);
    await server.kill('SIGTERM');
    await store.stop();
  }
  console.log('goals for the embedded store: idle memory <= 250 MB, card reads >= 2,000/s');
}

// ---------------------------------------------------------------- run

if (args['embedded-only']) {
  await compareEmbedded();
  await db.end();
  process.exit(0);
}
const info = (args.reuse && (await seeded())) || (await freshSeed());
const P = `/api/v1/workspaces/${info.workspaceId}`;
const auth = { authorization: `Bearer ${info.key}` };
const { rows: counts } = await db.query<{ recordings: number; transcripts: number; results: number }>(
  `SELECT (SELECT count(*) FROM recordings)::int AS recordings, (SELECT count(*) FROM transcripts)::int AS transcripts, (SELECT count(*) FROM analysis_results)::int AS results`,
);
console.log(`\nPostgreSQL 127.0.0.1, schema ${SCHEMA}: ${counts[0]!.recordings.toLocaleString('en')} recordings, ${counts[0]!.transcripts.toLocaleString('en')} transcripts, ${counts[0]!.results.toLocaleString('en')} analysis results\n`);

const serverEnv = (name: string) => ({ DATABASE_URL: POSTGRES, HARK_DB_SCHEMA: SCHEMA, HARK_DATA_DIR: folder(name), HARK_RATE_LIMIT_PER_MINUTE: '1000000' });
const api = await spawnHark(['serve', '--no-workers'], serverEnv('api'));
const base = api.base!;

// Lists: first page, by metadata, by status and a week's range, and page 200 by cursor.
const aWeek = new Date(Date.now() - 180 * 86_400_000);
const range = { created_after: aWeek.toISOString(), created_before: new Date(aWeek.getTime() + 7 * 86_400_000).toISOString() };
const lists: [string, string, Parameters<typeof listRecordings>[2]][] = [
  ['list, first page', `${P}/recordings`, { limit: 50, offset: 0, metadata: {} }],
  ['list, metadata.agent=agent-7', `${P}/recordings?metadata.agent=agent-7`, { limit: 50, offset: 0, metadata: { agent: ['agent-7'] } }],
  ['list, status=failed and a week 6 months ago', `${P}/recordings?status=failed&created_after=${range.created_after}&created_before=${range.created_before}`, { limit: 50, offset: 0, status: 'failed', ...range, metadata: {} }],
];
const planLines: string[] = [];
for (const [label, url, options] of lists) {
  const { p50, p95 } = await latencies(base, info.key, () => url);
  line(`${label} (p50 ${p50.toFixed(1)} ms)`, `p95 ${p95.toFixed(1)} ms`, '< 50 ms', p95 < 50);
  const [plan] = await plans((ctx) => listRecordings(ctx, info.workspaceId, options));
  planLines.push(`-- ${label}\n${plan}`);
}
{
  // Walk 200 pages; the figure is the p95 of pages 150 to 200.
  let cursor: string | null = null;
  const times: number[] = [];
  for (let page = 1; page <= 200; page++) {
    const started = performance.now();
    const body = (await (await fetch(`${base}${P}/recordings${cursor ? `?cursor=${cursor}` : ''}`, { headers: auth })).json()) as { next_cursor: string | null };
    if (page >= 150) times.push(performance.now() - started);
    cursor = body.next_cursor;
  }
  times.sort((a, b) => a - b);
  line('list, pages 150-200 by cursor', `p95 ${percentile(times, 95).toFixed(1)} ms`, '< 50 ms', percentile(times, 95) < 50);
}

// A recording card under 20 connections, against a bare Fastify route serving the same card.
const cardId = (await db.query<{ id: string }>(`SELECT id FROM recordings WHERE workspace_id = $1 ORDER BY seq DESC OFFSET 5000 LIMIT 1`, [info.workspaceId])).rows[0]!.id;
const cardUrl = `${base}${P}/recordings/${cardId}`;
const card = await (await fetch(cardUrl, { headers: auth })).json();
const bare = await bareFastify(card, cardId);
const bareRate = await load(`${bare.base}/card`, {});
const bareDbRate = await load(`${bare.base}/card-db`, {});
bare.stop();
// The card load runs against its own API process, CPU-profiled for that load only.
const profileDir = folder('profile');
const profiled = await spawnHark(['serve', '--no-workers'], serverEnv('profiled'), { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] });
const profiledCard = `${profiled.base!}${P}/recordings/${cardId}`;
await load(profiledCard, auth, 2); // warm-up
const idleRss = rssMb(profiled.child.pid!);
const cardRate = await load(profiledCard, auth);
const loadedRss = rssMb(profiled.child.pid!);
await profiled.kill('SIGTERM');
line('recording card, 20 connections', `${cardRate.toFixed(0)} req/s`, '>= 5000/s', cardRate >= 5000);
line('  bare Fastify route, same card', `${bareRate.toFixed(0)} req/s`, '', null);
line('  bare Fastify route reading the row first', `${bareDbRate.toFixed(0)} req/s`, '', null);
console.log(`  ratio ${(cardRate / bareRate).toFixed(2)} of the bare route, ${(cardRate / bareDbRate).toFixed(2)} of the bare route with its query; API RSS ${idleRss.toFixed(0)} MB before the load, ${loadedRss.toFixed(0)} MB after`);
console.log('  CPU profile of the API process under the card load (self time, share of busy samples):');
for (const entry of topOfProfile(profileDir)) console.log(`    ${entry}`);

// The analysis report over every result, grouped by agent and week.
{
  const url = `${P}/reports/analysis?analysis_scenario_id=${info.analysisScenarioId}&group_by=metadata.agent&group_by=created_at:week`;
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const response = await fetch(`${base}${url}`, { headers: auth });
    if (!response.ok) throw new Error(`report: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { groups: unknown[] };
    times.push(performance.now() - started);
    if (i === 0) console.log(`  report: ${body.groups.length.toLocaleString('en')} groups (agent × week)`);
  }
  const best = Math.min(...times);
  line(`analysis report by agent and week (${counts[0]!.results.toLocaleString('en')})`, `${(best / 1000).toFixed(2)} s`, '< 1 s', best < 1000);
  console.log(`  the three requests: ${times.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')} (the first reads the facts from disk or the OS's cache)`);
  const reportPlans = await plans((ctx) => analysisReport(ctx, info.workspaceId, info.analysisScenarioId, ['metadata.agent', 'created_at:week'], { metadata: {} }));
  planLines.push(...reportPlans.map((plan, i) => `-- analysis report, query ${i + 1}\n${plan}`));
}

// An execution over 10,000 recordings: accepted, its runs queued with one job each. Twice: the
// first is the API process's first (cold plans and caches), the goal is judged on it.
{
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM recordings WHERE workspace_id = $1 AND status = 'completed' ORDER BY seq DESC LIMIT 10000`, [info.workspaceId]);
  const times: number[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const started = performance.now();
    const response = await fetch(`${base}${P}/transcription-scenarios/${info.transcriptionScenarioId}/executions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ recording_ids: rows.map((row) => row.id), idempotency_key: `bench-${Date.now()}-${attempt}` }),
    });
    times.push((performance.now() - started) / 1000);
    if (response.status !== 202) throw new Error(`execution: ${response.status} ${await response.text()}`);
    const execution = (await response.json()) as { id: string };
    const runs = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM transcription_runs WHERE execution_id = $1 AND status = 'queued'`, [execution.id])).rows[0]!.n;
    const jobs = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${SCHEMA}_boss.job WHERE name = 'transcribe' AND state = 'created'`)).rows[0]!.n;
    if (attempt === 0) line('execution over 10,000 recordings accepted', `${times[0]!.toFixed(2)} s`, '< 2 s', times[0]! < 2);
    else console.log(`  a second execution of the same size: ${times[1]!.toFixed(2)} s`);
    console.log(`  ${runs.toLocaleString('en')} runs queued, ${jobs.toLocaleString('en')} transcribe jobs waiting`);
    // Leave the bench schema as it was: no workers will ever take these.
    await db.query(`DELETE FROM ${SCHEMA}_boss.job WHERE name = 'transcribe' AND state = 'created'`);
    await db.query(`DELETE FROM transcription_runs WHERE execution_id = $1`, [execution.id]);
    await db.query(`DELETE FROM executions WHERE id = $1`, [execution.id]);
  }
}

// Search over 100,000 transcripts of varied text (a workspace of their own, made once per schema):
// a rare word, a common one, and a two-word phrase.
{
  const { rows: existing } = await db.query<{ info: { workspaceId: string; key: string } }>(`SELECT info FROM bench_search LIMIT 1`).catch(() => ({ rows: [] as { info: { workspaceId: string; key: string } }[] }));
  let search = existing[0]?.info;
  if (!search) {
    const account = (await post(base, '/api/v1/accounts', null, { email: 'search@example.com', password: 'scale bench password', workspace_name: 'Search' })) as { workspace_id: string; api_key: string };
    search = { workspaceId: account.workspace_id, key: account.api_key };
    console.error('seeding 100,000 transcripts of varied text for search…');
    await db.query(
      `WITH vocabulary AS (SELECT ARRAY['refund','invoice','delivery','parcel','warranty','password','account','upgrade','cancel','discount',
         'broken','engineer','appointment','balance','payment','contract','router','signal','address','manager'] AS w),
       made AS (
         SELECT g, 'fl-' || gen_random_uuid() AS recording_id, 'trn-' || gen_random_uuid() AS run_id, gen_random_uuid()::text AS transcript_id,
           'hello thank you for calling my ' || w[1 + g % 20] || ' is about the ' || w[1 + (g / 20) % 20] || ' and the ' || w[1 + (g / 400) % 20] || ' ticket t' || (g % 400) || ' please' AS text,
           now() - (100000 - g) * interval '5 minutes' AS at
         FROM generate_series(1, 100000) g, vocabulary),
       recs AS (INSERT INTO recordings (id, workspace_id, status, filename, size_bytes, duration_seconds, metadata, metadata_json, retention_days, expires_at, source, created_at, updated_at)
         SELECT recording_id, $1, 'completed', 'call.wav', 1000, 6, jsonb_build_object('agent', 'agent-' || g % 50), json_build_object('agent', 'agent-' || g % 50)::text, 30, now() + interval '30 days', 'upload', at, at FROM made RETURNING id),
       runs AS (INSERT INTO transcription_runs (id, workspace_id, recording_id, transcription_scenario_id, transcript_id, status, attempts, engine, model, scenario, progress, created_at, updated_at)
         SELECT run_id, $1, recording_id, 'sct-bench', transcript_id, 'completed', 1, 'pocketsphinx', 'en-us', '{}'::jsonb, 1, at, at FROM made WHERE EXISTS (SELECT 1 FROM recs) RETURNING id)
       INSERT INTO transcripts (id, workspace_id, transcription_run_id, recording_id, language, duration_seconds, text, segments, words, created_at)
         SELECT transcript_id, $1, run_id, recording_id, 'en', 6, text, jsonb_build_array(jsonb_build_object('start', 0.5, 'end', 5.5, 'text', text)), '[]'::jsonb, at
         FROM made WHERE EXISTS (SELECT 1 FROM runs)`,
      [search.workspaceId],
    );
    // VACUUM too: it moves the rows just written from the search index's pending list into the
    // index proper, as autovacuum does a while after a bulk insert (until then every search reads
    // the whole list: a rare word's index scan took 21 ms before, 0.4 ms after).
    await db.query('VACUUM ANALYZE transcripts');
    await db.query(`CREATE TABLE IF NOT EXISTS bench_search (info jsonb NOT NULL)`);
    await db.query(`INSERT INTO bench_search VALUES ($1)`, [JSON.stringify(search)]);
  }
  const S = `/api/v1/workspaces/${search.workspaceId}/search`;
  for (const [label, q] of [
    ['a rare word (1 in 400)', 't123'],
    ['a common word (about 1 in 7)', 'refund'],
    ['an exact phrase (1 in 10)', '"the warranty"'],
  ] as const) {
    const { p50, p95 } = await latencies(base, search.key, () => `${S}?q=${encodeURIComponent(q)}`, 100);
    line(`search over 100,000 transcripts, ${label} (p50 ${p50.toFixed(1)} ms)`, `p95 ${p95.toFixed(1)} ms`, '< 100 ms', p95 < 100);
  }
}

await api.kill('SIGTERM');

if (!args['skip-embedded']) await compareEmbedded();

console.log('\nQuery plans (EXPLAIN ANALYZE of the SQL the services run):');
for (const plan of planLines) console.log(`\n${plan}`);
await db.end();
fs.rmSync(work, { recursive: true, force: true });
