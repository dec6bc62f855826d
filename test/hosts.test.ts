// Hark as several hosts sharing only PostgreSQL and an S3 bucket: one API process
// (`serve --no-workers`) and two `worker` processes, each with its own empty data folder. Work is
// spread and done once; a worker killed mid-run has its run finished by the other; SIGTERM is
// graceful on both roles; the rate limit and the sign-in throttle hold across two API processes.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { speech } from './helpers/audio.ts';
import { backends, eventually, POSTGRES_URL } from './helpers/harness.ts';
import { freePort, spawnHark, type HarkProcess } from './helpers/process.ts';
import { s3Env } from './helpers/s3.ts';
import { librivoxJoined } from './helpers/speech-corpus.ts';

const onPostgres = (await backends()).includes('postgres');

interface RunRow {
  id: string;
  status: string;
  attempts: number;
  worker: string | null;
}

describe('one API host and two worker hosts on PostgreSQL and S3', { skip: onPostgres ? false : 'needs PostgreSQL' }, () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const folders: string[] = [];
  const processes: HarkProcess[] = [];
  let shared: Record<string, string>;
  let db: pg.Client;
  let api: HarkProcess;
  let workers: HarkProcess[];
  /** Each worker's /metrics, on a port of its own (a worker serves no API). */
  let workerMetrics: string[];
  let P: string;
  let key: string;

  const folder = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-host-'));
    folders.push(dir);
    return dir;
  };
  const start = async (args: string[], env: Record<string, string> = {}) => {
    const started = await spawnHark(args, { ...shared, HARK_DATA_DIR: folder(), ...env });
    processes.push(started);
    return started;
  };
  const call = async (method: string, url: string, body?: unknown, base = api.base) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const uploadFile = async (file: string): Promise<string> => {
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(file)], { type: 'audio/wav' }), path.basename(file));
    const response = await fetch(`${api.base}${P}/recordings`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    assert.equal(response.status, 202, await response.clone().text());
    return ((await response.json()) as { id: string }).id;
  };
  const startRun = async (recordingId: string): Promise<string> => {
    const run = await call('POST', `${P}/recordings/${recordingId}/transcription-runs`);
    assert.equal(run.status, 202, JSON.stringify(run.body));
    return run.body.id as string;
  };
  const runRow = async (id: string): Promise<RunRow> => {
    const { rows } = await db.query<RunRow>(`SELECT id, status, attempts, worker FROM ${schema}.transcription_runs WHERE id = $1`, [id]);
    return rows[0]!;
  };
  const pidOf = (row: RunRow) => Number(row.worker?.split('/').pop());

  before(async () => {
    shared = {
      DATABASE_URL: POSTGRES_URL,
      HARK_DB_SCHEMA: schema,
      ...(await s3Env()),
      HARK_WORKER_CONCURRENCY: '1',
      HARK_STALE_RUN_SECONDS: '5',
      HARK_SHUTDOWN_GRACE_SECONDS: '2',
    };
    db = new pg.Client({ connectionString: POSTGRES_URL });
    await db.connect();
    api = await start(['serve', '--no-workers']);
    const metricsPorts = [await freePort(), await freePort()];
    workerMetrics = metricsPorts.map((port) => `http://127.0.0.1:${port}/metrics`);
    workers = [];
    for (const port of metricsPorts) workers.push(await start(['worker'], { HARK_METRICS_PORT: String(port), HARK_METRICS_TOKEN: 'scrape-workers' }));
    const registered = await fetch(`${api.base}/api/v1/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `hosts-${schema}@example.com`, password: 'correct horse battery', workspace_name: 'Hosts' }),
    });
    const account = (await registered.json()) as { workspace_id: string; api_key: string };
    P = `/api/v1/workspaces/${account.workspace_id}`;
    key = account.api_key;
  });

  after(async () => {
    await Promise.all(processes.map((started) => started.kill('SIGKILL')));
    await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db.query(`DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
    await db.end();
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('20 recordings: both workers work, every run completes once, nothing is kept on an API host', async () => {
    const sentences = Array.from({ length: 20 }, (_, i) => `Call number ${i + 1}. The customer asked about the invoice and the delivery date.`);
    const recordings = await Promise.all(sentences.map((sentence) => uploadFile(speech(sentence))));
    const runs: string[] = [];
    for (const recording of recordings) runs.push(await startRun(recording));
    await eventually(
      async () => {
        const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.transcription_runs WHERE status IN ('completed', 'failed')`);
        return rows[0]!.n === runs.length;
      },
      300_000,
      'every run to finish',
    );
    const rows = await Promise.all(runs.map(runRow));
    assert.deepEqual(rows.map((row) => row.status), runs.map(() => 'completed'));
    assert.deepEqual(rows.map((row) => row.attempts), runs.map(() => 1), 'no run was claimed twice');
    const byWorker = new Map<number, number>();
    for (const row of rows) byWorker.set(pidOf(row), (byWorker.get(pidOf(row)) ?? 0) + 1);
    assert.deepEqual([...byWorker.keys()].sort(), workers.map((worker) => worker.child.pid).sort(), `runs per worker: ${JSON.stringify([...byWorker])}`);
    const { rows: transcripts } = await db.query<{ run: string; n: number; text: string }>(
      `SELECT transcription_run_id AS run, count(*)::int AS n, max(text) AS text FROM ${schema}.transcripts GROUP BY 1`,
    );
    assert.equal(transcripts.length, runs.length);
    for (const transcript of transcripts) {
      assert.equal(transcript.n, 1, 'one transcript per run');
      assert.match(transcript.text, /customer|invoice|delivery/i);
    }
    // Each worker is scraped on its own metrics port (the token asked for): together they count
    // the 20 runs, each the runs it did, and each logged its runs by id.
    for (const [i, worker] of workers.entries()) {
      assert.equal((await fetch(workerMetrics[i]!)).status, 401);
      const text = await (await fetch(workerMetrics[i]!, { headers: { authorization: 'Bearer scrape-workers' } })).text();
      const done = Number(/^hark_run_duration_seconds_count\{kind="transcription",engine="pocketsphinx"\} (\d+)$/m.exec(text)?.[1]);
      assert.equal(done, byWorker.get(worker.child.pid!), `worker ${i + 1}'s metrics`);
      for (const row of rows.filter((r) => pidOf(r) === worker.child.pid)) {
        // The line of the last run may still be on its way from the worker's stdout.
        for (const msg of ['run started', 'run completed']) {
          const line = new RegExp(`"runId":"${row.id}"[^\n]*"msg":"${msg}"`);
          await eventually(async () => line.test(worker.output()), 10_000, `${row.id}: ${msg}`);
        }
      }
    }
    // The API host received the uploads but keeps nothing: the audio is in the bucket.
    const apiFolder = folders[0]!;
    assert.equal(fs.existsSync(path.join(apiFolder, 'blobs')), false);
    assert.deepEqual(filesUnder(path.join(apiFolder, 'tmp')), []);
    for (const dir of folders.slice(1, 3)) assert.deepEqual(filesUnder(path.join(dir, 'tmp')), [], 'a worker keeps no copy after use');
  });

  test('a worker killed with SIGKILL mid-run: the other finishes the run', async () => {
    const runId = await startRun(await uploadFile(librivoxJoined().file));
    const running = await eventually(async () => {
      const row = await runRow(runId);
      return row.status === 'running' && row.worker ? row : null;
    }, 120_000, 'the run to start');
    const victim = workers.find((worker) => worker.child.pid === pidOf(running))!;
    const survivor = workers.find((worker) => worker !== victim)!;
    assert.equal(await victim.kill('SIGKILL'), 'SIGKILL');
    const done = await eventually(async () => {
      const row = await runRow(runId);
      return row.status === 'completed' ? row : null;
    }, 240_000, 'the other worker to finish the run');
    assert.equal(pidOf(done), survivor.child.pid);
    assert.equal(done.attempts, 2);
    workers = [survivor, await start(['worker'])];
  });

  test('SIGTERM: a worker gives its running run back after its grace and exits; the other finishes it', async () => {
    const runId = await startRun(await uploadFile(librivoxJoined().file));
    const running = await eventually(async () => {
      const row = await runRow(runId);
      return row.status === 'running' && row.worker ? row : null;
    }, 120_000, 'the run to start');
    const leaving = workers.find((worker) => worker.child.pid === pidOf(running))!;
    const staying = workers.find((worker) => worker !== leaving)!;
    const stoppedAt = Date.now();
    assert.equal(await leaving.kill('SIGTERM'), 0, 'a clean exit');
    assert.ok(Date.now() - stoppedAt < 20_000, `the worker took ${Date.now() - stoppedAt} ms to stop`);
    const done = await eventually(async () => {
      const row = await runRow(runId);
      return row.status === 'completed' ? row : null;
    }, 240_000, 'the other worker to finish the run');
    assert.equal(pidOf(done), staying.child.pid);
    assert.equal(done.attempts, 1, 'a run given back is not a failed attempt');
    workers = [staying];
  });

  test('SIGTERM: a worker lets a run finish within its grace, then exits', async () => {
    // The one worker left: a long grace; the other stops first (nothing running, it exits at once).
    const patient = await start(['worker'], { HARK_SHUTDOWN_GRACE_SECONDS: '300' });
    for (const worker of workers) assert.equal(await worker.kill('SIGTERM'), 0);
    workers = [patient];
    const runId = await startRun(await uploadFile(librivoxJoined().file));
    await eventually(async () => (await runRow(runId)).status === 'running' || null, 120_000, 'the run to start');
    assert.equal(await patient.kill('SIGTERM'), 0, 'a clean exit');
    const done = await runRow(runId);
    assert.equal(done.status, 'completed', 'finished before the worker exited');
    assert.equal(pidOf(done), patient.child.pid);
    assert.equal(done.attempts, 1);
    assert.match(patient.output(), /"msg":"shutting down: finishing requests in flight and running work"/);
  });

  test('SIGTERM: the API finishes a request in flight, then refuses new connections and exits', async () => {
    const wav = fs.readFileSync(speech('This upload is still arriving when the server is told to stop.'));
    const boundary = 'hark-sigterm';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="late.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(`${api.base}${P}/recordings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + wav.length + tail.length) },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
      request.write(head);
      request.write(wav.subarray(0, 1000));
      setTimeout(() => {
        void api.kill('SIGTERM');
        setTimeout(() => {
          request.write(wav.subarray(1000));
          request.end(tail);
        }, 1000);
      }, 300);
    });
    const finished = await answer;
    assert.equal(finished.status, 202, finished.body);
    assert.equal(await api.exited, 0);
    await assert.rejects(fetch(`${api.base}/healthz`), 'no new connections after shutdown');
  });

  test('periodic work ran once per cluster: one stale-run sweep a minute, whatever the worker count', async () => {
    // Every worker above scheduled the sweep (every minute); over these minutes of two or three
    // workers, each minute's tick made one job, not one per worker. A tick handled late (a busy
    // machine) may land in the next minute, so the jobs are counted against the minutes they span.
    const { rows } = await db.query<{ created: Date }>(`SELECT created_on AS created FROM ${schema}_boss.job WHERE name = 'recover-runs' ORDER BY 1`);
    assert.ok(rows.length >= 1, 'the sweep ran');
    const minutes = Math.ceil((rows.at(-1)!.created.getTime() - rows[0]!.created.getTime()) / 60_000);
    assert.ok(rows.length <= minutes + 1, `${rows.length} sweeps over ${minutes} minutes: ${JSON.stringify(rows.map((row) => row.created))}`);
  });
});

describe('the rate limit across two API processes', { skip: onPostgres ? false : 'needs PostgreSQL' }, () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const folders: string[] = [];
  let apis: HarkProcess[] = [];

  after(async () => {
    await Promise.all(apis.map((started) => started.kill('SIGKILL')));
    const db = new pg.Client({ connectionString: POSTGRES_URL });
    await db.connect();
    await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db.query(`DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
    await db.end();
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('one key sending to both processes gets about the limit, not twice it', async () => {
    const env = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-host-'));
      folders.push(dir);
      return { DATABASE_URL: POSTGRES_URL, HARK_DB_SCHEMA: schema, HARK_DATA_DIR: dir, HARK_RATE_LIMIT_PER_MINUTE: '20' };
    };
    apis = [await spawnHark(['serve', '--no-workers'], env())];
    apis.push(await spawnHark(['serve', '--no-workers'], env()));
    const registered = await fetch(`${apis[0]!.base}/api/v1/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `limit-${schema}@example.com`, password: 'correct horse battery', workspace_name: 'Limits' }),
    });
    const account = (await registered.json()) as { workspace_id: string; api_key: string };
    const statuses: number[][] = [[], []];
    for (let i = 0; i < 40; i++) {
      const which = i % 2;
      const response = await fetch(`${apis[which]!.base}/api/v1/workspaces/${account.workspace_id}/recordings`, { headers: { authorization: `Bearer ${account.api_key}` } });
      statuses[which]!.push(response.status);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    const allowed = statuses.flat().filter((status) => status === 200).length;
    // Alone, each process would allow 20 (40 in all). Shared, the total is the limit plus at most
    // what the other process counted since its last sync (a fraction of a second).
    assert.ok(allowed >= 20 && allowed <= 24, `allowed ${allowed} of 40: ${JSON.stringify(statuses)}`);
    assert.ok(statuses.every((mine) => mine.includes(429)), 'both processes refuse');
  });

  test('failed sign-ins counted by one API process throttle the account at the other', async () => {
    const [first, second] = apis as [HarkProcess, HarkProcess];
    const email = `throttle-${schema}@example.com`;
    const registered = await fetch(`${first.base}/api/v1/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery', workspace_name: 'Throttle' }),
    });
    assert.equal(registered.status, 201);
    const signIn = (api: HarkProcess, password: string) =>
      fetch(`${api.base}/api/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    // Three wrong passwords in all, two at one process and one at the other: each alone stays under three.
    for (const [i, api] of [first, second, first].entries()) assert.equal((await signIn(api, `wrong ${i}`)).status, 401);
    for (const api of [first, second]) {
      const refused = await signIn(api, 'correct horse battery');
      assert.equal(refused.status, 429, await refused.text());
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
    }
  });

  test('a key revoked through one API process is refused by the other at once', async () => {
    const [first, second] = apis as [HarkProcess, HarkProcess];
    const registered = await fetch(`${first.base}/api/v1/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `revoke-${schema}@example.com`, password: 'correct horse battery', workspace_name: 'Revoke' }),
    });
    const account = (await registered.json()) as { workspace_id: string; api_key: string };
    const keys = `/api/v1/workspaces/${account.workspace_id}/api-keys`;
    const created = await fetch(`${first.base}${keys}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'to revoke', scopes: ['recordings:read'] }),
    });
    const doomed = (await created.json()) as { id: string; key: string };
    const use = () => fetch(`${second.base}/api/v1/workspaces/${account.workspace_id}/recordings`, { headers: { authorization: `Bearer ${doomed.key}` } });
    assert.equal((await use()).status, 200, 'known (and now cached) by the second process');
    const revoked = await fetch(`${first.base}${keys}/${doomed.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${account.api_key}` } });
    assert.equal(revoked.status, 204);
    await eventually(async () => (await use()).status === 401, 2000, 'the second process to refuse the revoked key');
  });
});

/** The files in a scratch folder, whichever process's folder inside it holds them. */
function filesUnder(folder: string): string[] {
  return (fs.readdirSync(folder, { recursive: true }) as string[]).filter((name) => fs.statSync(path.join(folder, name)).isFile());
}
