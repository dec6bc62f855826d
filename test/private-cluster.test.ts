// The embedded store's private PostgreSQL cluster (HARK_EMBEDDED_DB=postgres): created under
// HARK_DATA_DIR/postgres at first start, reachable only by its socket, keeping its data across
// restarts, stopped with Hark, and adopted when a killed Hark left it running.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { embeddedStore } from '../src/platform/db/database.ts';
import { startPrivateCluster } from '../src/platform/db/private-cluster.ts';
import { startRuntime } from '../src/runtime.ts';
import { multipart, speech } from './helpers/audio.ts';
import { eventually } from './helpers/harness.ts';

const hasPostgres = fs.existsSync('/usr/lib/postgresql') && fs.readdirSync('/usr/lib/postgresql').length > 0;

describe('the private PostgreSQL cluster as the embedded store', { skip: hasPostgres ? false : 'needs PostgreSQL\'s server binaries' }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-private-'));
  const config = loadConfig({ HARK_DATA_DIR: dataDir, HARK_EMBEDDED_DB: 'postgres', HARK_LOG_LEVEL: 'silent', HARK_WORKER_CONCURRENCY: '1' });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test('created at first start, works end to end, keeps its data across a restart, and stops with Hark', async () => {
    let runtime = await startRuntime(config, { http: true, workers: true });
    assert.equal(runtime.ctx.database.kind, 'postgres');
    assert.ok(fs.existsSync(path.join(dataDir, 'postgres', 'data', 'PG_VERSION')));
    assert.equal(fs.existsSync(path.join(dataDir, 'pg')), false, 'no PGlite folder');
    const app = runtime.app!;
    const registered = await app.inject({ method: 'POST', url: '/api/v1/accounts', payload: { email: 'private@example.com', password: 'correct horse battery', workspace_name: 'Private' } });
    assert.equal(registered.statusCode, 201, registered.body);
    const account = registered.json<{ workspace_id: string; api_key: string }>();
    const body = multipart({}, { content: fs.readFileSync(speech('Hello from the private cluster.')), filename: 'a.wav', contentType: 'audio/wav' });
    const uploaded = await app.inject({ method: 'POST', url: `/api/v1/workspaces/${account.workspace_id}/recordings`, headers: { authorization: `Bearer ${account.api_key}`, ...body.headers }, payload: body.payload });
    assert.equal(uploaded.statusCode, 202, uploaded.body);
    const id = uploaded.json<{ id: string }>().id;
    const cardUrl = `/api/v1/workspaces/${account.workspace_id}/recordings/${id}`;
    await eventually(async () => (await app.inject({ method: 'GET', url: cardUrl, headers: { authorization: `Bearer ${account.api_key}` } })).json<{ status: string }>().status === 'completed', 60_000, 'the preparation');
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    await runtime.close();
    assert.throws(() => process.kill(pid, 0), 'the cluster stops with Hark');

    runtime = await startRuntime(config, { http: true, workers: false });
    const card = await runtime.app!.inject({ method: 'GET', url: cardUrl, headers: { authorization: `Bearer ${account.api_key}` } });
    assert.equal(card.json<{ status: string }>().status, 'completed', 'the data outlived the restart');
    await runtime.close();
  });

  test('a cluster left running by a killed Hark is adopted, not started twice', async () => {
    const leftover = await startPrivateCluster(dataDir); // as a Hark killed with SIGKILL leaves it
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const runtime = await startRuntime(config, { http: true, workers: false });
    assert.equal(Number(fs.readFileSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]), pid);
    await runtime.close();
    assert.throws(() => process.kill(pid, 0));
    await leftover.stop();
  });

  test('the default (auto) runs the private cluster for a new folder, keeps a PGlite folder on PGlite, and falls back to PGlite where the cluster cannot run', () => {
    const auto = (folder: string) => embeddedStore(loadConfig({ HARK_DATA_DIR: folder, HARK_LOG_LEVEL: 'silent' }));
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-auto-'));
    fs.chmodSync(fresh, 0o755);
    assert.deepEqual(auto(path.join(fresh, 'data')), { kind: 'postgres' });
    fs.mkdirSync(path.join(fresh, 'pglite', 'pg'), { recursive: true });
    fs.writeFileSync(path.join(fresh, 'pglite', 'pg', 'PG_VERSION'), '17\n');
    assert.equal(auto(path.join(fresh, 'pglite')).kind, 'pglite', 'a store PGlite holds stays on PGlite');
    assert.equal(embeddedStore(loadConfig({ HARK_DATA_DIR: path.join(fresh, 'pglite'), HARK_EMBEDDED_DB: 'postgres' })).kind, 'postgres', 'unless asked');
    if (process.getuid?.() === 0) {
      // Root runs PostgreSQL as the postgres user, which cannot pass a folder only root may enter.
      const closed = path.join(fresh, 'closed');
      fs.mkdirSync(closed, { mode: 0o700 });
      const store = auto(path.join(closed, 'data'));
      assert.equal(store.kind, 'pglite');
      assert.match(store.note ?? '', /the postgres user cannot reach .*closed/);
    }
    fs.rmSync(fresh, { recursive: true, force: true });
  });
});
