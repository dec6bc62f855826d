// The command line as a new user meets it: --help everywhere (stdout, exit 0, nothing done),
// unknown options refused with usage, `openapi` without a database, settings that say when they
// do nothing, a .env file, and a shutdown that completes when the log pipe was closed.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig, unknownSettings } from '../src/config.ts';
import { progressBarText } from '../src/progress.ts';
import { testConfig } from './helpers/harness.ts';
import { freePort } from './helpers/process.ts';

const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '../bin/hark.js');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-cli-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs `hark args` in `cwd` with only the given settings (and PATH/HOME). */
function hark(args: string[], env: Record<string, string> = {}, cwd = scratch) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...env }, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the command line', () => {
  test('--help and -h on every command print its usage to stdout, exit 0 and do nothing else', () => {
    const dataDir = path.join(scratch, 'never-created');
    for (const args of [['--help'], ['-h'], ['serve', '--help'], ['worker', '--help'], ['migrate', '--help'], ['admin', '--help'], ['models', '-h'], ['openapi', '--help']]) {
      const run = hark(args, { HARK_DATA_DIR: dataDir });
      assert.equal(run.status, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stdout, /^usage: hark/, args.join(' '));
      assert.equal(run.stderr, '', args.join(' '));
    }
    assert.equal(fs.existsSync(dataDir), false, 'no data folder, no database');
  });

  test('unknown commands and options fail with the usage; a missing model file is named in a sentence', () => {
    const unknown = hark(['serve', '--bogus']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /Unknown option '--bogus'[\s\S]*usage: hark serve/);
    assert.equal(hark(['frobnicate']).status, 2);
    const dataDir = path.join(scratch, 'models-data');
    assert.match(hark(['models', 'list'], { HARK_DATA_DIR: dataDir }).stdout, /No models are registered .*hark models add NAME PATH/);
    const missing = hark(['models', 'add', 'tiny', '/nowhere/ggml-tiny.bin'], { HARK_DATA_DIR: dataDir });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /There is no file at \/nowhere\/ggml-tiny\.bin/);
    assert.doesNotMatch(missing.stderr, /ENOENT/);
    const folder = hark(['models', 'add', 'tiny', scratch], { HARK_DATA_DIR: dataDir });
    assert.equal(folder.status, 1);
    assert.match(folder.stderr, /is a folder, not a model file/);
    assert.doesNotMatch(folder.stderr, /EISDIR/);
    // A data folder that is a file is named in a sentence, not as a failed mkdir.
    const file = path.join(scratch, 'not-a-folder');
    fs.writeFileSync(file, '');
    const notFolder = hark(['migrate'], { HARK_DATA_DIR: file, HARK_EMBEDDED_DB: 'pglite' });
    assert.equal(notFolder.status, 1);
    assert.match(notFolder.stderr, /HARK_DATA_DIR is .*not-a-folder, which is a file: give a folder/);
    assert.doesNotMatch(notFolder.stderr, /ENOTDIR/);
    // Every command refuses what it does not take, with its usage and exit code 2.
    for (const [args, message, command] of [
      [['models', 'list', '--bogus'], /Unknown option '--bogus'/, 'models'],
      [['models'], /Name an action: add, list or pull/, 'models'],
      [['models', 'frob'], /Unknown action 'frob'/, 'models'],
      [['models', 'list', 'extra'], /Wrong arguments for 'list'/, 'models'],
      [['openapi', 'extra'], /Unexpected argument 'extra'/, 'openapi'],
      [['migrate', 'now'], /Unexpected argument 'now'/, 'migrate'],
      [['admin', 'set-plan', 'ws-1', 'pro', 'now'], /Unexpected argument 'now'/, 'admin'],
      [['admin'], /Name an action: create-workspace, create-key, set-plan/, 'admin'],
      [['admin', 'frob'], /Unknown action 'frob'/, 'admin'],
      [['admin', 'set-plan', 'ws-1'], /Wrong arguments for 'set-plan'/, 'admin'],
      [['serve', '--bogus'], /^Unknown option '--bogus'\.\n/, 'serve'],
    ] as const) {
      const run = hark([...args], { HARK_DATA_DIR: dataDir });
      assert.equal(run.status, 2, args.join(' '));
      assert.match(run.stderr, message, args.join(' '));
      assert.match(run.stderr, new RegExp(`usage: hark ${command}`), args.join(' '));
    }
  });

  test('migrate shows each file as it runs, then how many were applied; a second run says the database is up to date', () => {
    const env = { HARK_DATA_DIR: path.join(scratch, 'migrate-data'), HARK_EMBEDDED_DB: 'pglite', HARK_LOG_LEVEL: 'silent' };
    const files = fs.readdirSync(path.join(import.meta.dirname, '..', 'src', 'platform', 'db', 'migrations')).filter((f) => f.endsWith('.sql')).sort();
    const first = hark(['migrate'], env);
    assert.equal(first.status, 0, first.stderr);
    const steps = first.stderr.split('\n').filter((line) => line.startsWith('migrating '));
    assert.deepEqual(steps, files.map((file, i) => `migrating ${i + 1}/${files.length}: ${file.replace(/\.sql$/, '')}`));
    assert.match(first.stderr, new RegExp(`^${files.length} migrations applied in \\d+\\.\\d s$`, 'm'));
    const second = hark(['migrate'], env);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stderr, 'the database is up to date\n');
  });

  test('a download shows a bar of its bytes', () => {
    assert.equal(progressBarText(0, 200e6, 10), '[..........] 0.0% 0.0 MB');
    assert.equal(progressBarText(50e6, 200e6, 10), '[###.......] 25.0% 50.0 MB');
    assert.equal(progressBarText(250e6, 200e6, 10), '[##########] 100.0% 250.0 MB');
    assert.equal(progressBarText(5e6, 0, 10), '[..........] 0.0% 5.0 MB', 'no length given: the bytes alone');
  });

  test('openapi needs no database and prints only the document', () => {
    const dataDir = path.join(scratch, 'openapi-data');
    const run = hark(['openapi'], { HARK_DATA_DIR: dataDir, HARK_PROT: '1' });
    assert.equal(run.status, 0, run.stderr);
    const document = JSON.parse(run.stdout) as { openapi: string; paths: Record<string, unknown> };
    assert.equal(document.openapi, '3.1.0');
    assert.ok(Object.keys(document.paths).length > 50);
    assert.equal(fs.existsSync(dataDir), false);
    assert.match(run.stderr, /warning: HARK_PROT is not a Hark setting and does nothing: did you mean HARK_PORT\?/);
  });

  test('HARK_PORT is the port (PORT an alias); unknown HARK_ settings are named with the nearest one', () => {
    assert.equal(loadConfig({ HARK_PORT: '9100' }).port, 9100);
    assert.equal(loadConfig({ PORT: '9101' }).port, 9101);
    assert.equal(loadConfig({ HARK_PORT: '9102', PORT: '9103' }).port, 9102);
    assert.equal(loadConfig({}).port, 8080);
    assert.deepEqual(unknownSettings({ HARK_DATADIR: 'x', HARK_PORT: '1', HARK_WORKER_CONCURENCY: '2', OTHER: 'y' }), [
      { name: 'HARK_DATADIR', nearest: 'HARK_DATA_DIR' },
      { name: 'HARK_WORKER_CONCURENCY', nearest: 'HARK_WORKER_CONCURRENCY' },
    ]);
  });

  test('a .env file in the working directory is read; the environment wins over it', () => {
    const folder = fs.mkdtempSync(path.join(scratch, 'dotenv-'));
    fs.writeFileSync(path.join(folder, '.env'), `HARK_DATA_DIR=${path.join(folder, 'from-file')}\n`);
    assert.match(hark(['models', 'list'], {}, folder).stdout, new RegExp(`${path.join(folder, 'from-file', 'models')}`));
    assert.match(hark(['models', 'list'], { HARK_DATA_DIR: path.join(folder, 'from-env') }, folder).stdout, new RegExp(`${path.join(folder, 'from-env', 'models')}`));
  });

  test('serve whose log pipe was closed still stops on SIGTERM; a second signal exits at once', async () => {
    // The two cases side by side: each is a process of its own on a store of its own.
    const stop = async (signals: readonly NodeJS.Signals[]) => {
      const port = await freePort();
      // A copy of a migrated embedded store: starting needs no initdb.
      const { dataDir } = await testConfig('pglite');
      const child = spawn(process.execPath, [bin, 'serve'], {
        cwd: scratch,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', HARK_PORT: String(port), HARK_DATA_DIR: dataDir, HARK_EMBEDDED_DB: 'pglite', HARK_SHUTDOWN_GRACE_SECONDS: '60' },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      // A reader that goes away after the first line, as `hark serve | head -1` does.
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      child.stdout.destroy();
      for (let i = 0; i < 240 && !(await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)); i++) await new Promise((resolve) => setTimeout(resolve, 250));
      for (const signal of signals) child.kill(signal);
      const timeout = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000).unref());
      const code = await Promise.race([exited, timeout]);
      if (code === 'hung') child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
      assert.equal(code, signals.length === 1 ? 0 : 1, `after ${signals.join(' + ')}`);
    };
    await Promise.all([stop(['SIGTERM']), stop(['SIGTERM', 'SIGINT'])]);
  });
});
