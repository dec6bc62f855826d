// Starts a real Hark (database, queue, workers, HTTP) per test, on PGlite or on PostgreSQL, each
// with its own data directory and, on PostgreSQL, its own schema; `+s3` keeps its audio in its own
// bucket of an S3-compatible server started by the tests.
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import type { Context } from '../../src/context.ts';
import { jobHandlers } from '../../src/wiring/job-handlers.ts';
import { Queue } from '../../src/platform/queue/queue.ts';
import { startRuntime, type Runtime } from '../../src/runtime.ts';
import { openapiMismatch } from './openapi-check.ts';
import { s3Env } from './s3.ts';
import { APIError, Hark as HarkClient } from '../../clients/typescript/src/index.ts';

export const POSTGRES_URL = process.env.HARK_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type Backend = 'pglite' | 'postgres' | 'pglite+s3' | 'postgres+s3';

let postgresReachable: Promise<boolean> | null = null;
/** Whether PostgreSQL answers; a busy machine gets several tries before CI calls it missing. */
function canReachPostgres(): Promise<boolean> {
  return (postgresReachable ??= (async () => {
    const tries = process.env.CI ? 5 : 2;
    for (let attempt = 1; attempt <= tries; attempt++) {
      const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5000 });
      try {
        await client.connect();
        await client.end();
        return true;
      } catch {
        await client.end().catch(() => undefined);
        if (attempt < tries) await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    if (process.env.CI) throw new Error(`CI needs PostgreSQL at ${POSTGRES_URL}`);
    return false;
  })());
}

/**
 * One backend, for a suite whose subject is audio, an engine or an HTTP shape rather than the
 * store: PostgreSQL when reachable (always in CI; it starts in a fifth of PGlite's CPU), else
 * PGlite; HARK_TEST_BACKEND still picks. PGlite hears real audio in the suites run on both and in
 * every suite of the embedded default (the web journeys, the command line, the clients).
 */
export async function oneBackend(): Promise<Backend[]> {
  const all = await backends();
  return all.includes('postgres') ? ['postgres'] : all.slice(0, 1);
}

/**
 * The backends to run a suite on: PGlite always, PostgreSQL when reachable (always in CI), and
 * with `s3` the multi-host layout too: PostgreSQL (PGlite when unreachable) with an S3 store.
 */
export async function backends(options: { s3?: boolean } = {}): Promise<Backend[]> {
  const postgres = await canReachPostgres();
  const all: Backend[] = postgres ? ['pglite', 'postgres'] : ['pglite'];
  if (options.s3) all.push(postgres ? 'postgres+s3' : 'pglite+s3');
  const only = process.env.HARK_TEST_BACKEND;
  return only ? all.filter((backend) => backend === only) : all;
}

export interface Hark {
  backend: Backend;
  config: Config;
  runtime: Runtime;
  app: FastifyInstance;
  /** Request with a JSON body or none; `key` adds the bearer header. */
  request(options: InjectOptions & { key?: string }): Promise<LightMyRequestResponse>;
  /**
   * The shipped TypeScript client (clients/typescript) acting with `key`, its requests served by
   * this app in process and checked against openapi.json like `request`'s; no retries.
   */
  client(key: string): HarkClient;
  restart(options?: { workers?: boolean; config?: Partial<Config> }): Promise<Hark>;
  stop(): Promise<void>;
  /** Stops and removes the data directory and schema. */
  destroy(): Promise<void>;
}

export interface HarkOptions {
  backend: Backend;
  env?: Record<string, string>;
  config?: Partial<Config>;
  workers?: boolean;
  beforeReady?: (app: FastifyInstance) => void;
  /** The process logger, for a test that reads what is logged (silent otherwise). */
  log?: Logger;
}

/**
 * A migrated embedded database, made once per checkout and version of the migrations and PGlite
 * (in node_modules/.cache, shared by the test processes) and copied for each test: PGlite's initdb
 * and the migrations take seconds of CPU in every process that made its own, a copy milliseconds.
 * Built in a folder of its own and renamed into place, so processes racing to make it never see
 * half of one.
 */
let pgliteTemplate: Promise<string> | null = null;
function templateDir(): Promise<string> {
  return (pgliteTemplate ??= (async () => {
    const root = path.join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'hark-test');
    const migrations = path.join(import.meta.dirname, '..', '..', 'src', 'platform', 'db', 'migrations');
    const hash = createHash('sha256');
    for (const file of (await fs.readdir(migrations)).sort()) hash.update(file).update(await fs.readFile(path.join(migrations, file)));
    hash.update(JSON.parse(await fs.readFile(path.join(import.meta.dirname, '..', '..', 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')).version as string);
    hash.update(await fs.readFile(path.join(import.meta.dirname, '..', '..', 'src', 'platform', 'queue', 'queue.ts')));
    const ready = path.join(root, `pglite-${hash.digest('hex').slice(0, 16)}`);
    if (fsSync.existsSync(ready)) return ready;
    await fs.mkdir(root, { recursive: true });
    // Templates of earlier migrations are of no more use.
    for (const old of await fs.readdir(root)) if (old.startsWith('pglite-')) await fs.rm(path.join(root, old), { recursive: true, force: true });
    const dir = await fs.mkdtemp(path.join(root, 'building-'));
    try {
      const config = loadConfig({ HARK_DATA_DIR: dir, HARK_EMBEDDED_DB: 'pglite' });
      const database = await openDatabase(config);
      await migrate(database);
      const queue = new Queue(database, config, () => {});
      await queue.start(jobHandlers({ config } as Context));
      await queue.stop();
      await database.close();
      await fs.rename(path.join(dir, 'pg'), ready).catch((error: NodeJS.ErrnoException) => {
        // Another process made it first: theirs is as good.
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
    return ready;
  })());
}

export async function testConfig(backend: Backend, env: Record<string, string> = {}, overrides: Partial<Config> = {}): Promise<Config> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'hark-test-'));
  if (backend.startsWith('pglite')) await fs.cp(await templateDir(), path.join(dataDir, 'pg'), { recursive: true });
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return loadConfig(
    {
      HARK_DATA_DIR: dataDir,
      HARK_LOG_LEVEL: process.env.HARK_TEST_LOG_LEVEL ?? 'silent',
      HARK_IMPORT_ALLOW_PRIVATE: '1',
      HARK_WORKER_CONCURRENCY: '2',
      // Tests start the runs they look at; the automatic default is tested where it is the subject.
      HARK_AUTO_TRANSCRIBE: 'off',
      ...(backend.startsWith('postgres') ? { DATABASE_URL: POSTGRES_URL, HARK_DB_SCHEMA: schema } : { HARK_EMBEDDED_DB: 'pglite' }),
      ...(backend.endsWith('+s3') ? await s3Env() : {}),
      ...env,
    },
    overrides,
  );
}

export async function startHark(options: HarkOptions): Promise<Hark> {
  const config = await testConfig(options.backend, options.env, options.config);
  return launch(options, config);
}

async function launch(options: HarkOptions, config: Config): Promise<Hark> {
  const runtime = await startRuntime(config, {
    http: true,
    workers: options.workers ?? true,
    ...(options.beforeReady ? { beforeReady: options.beforeReady } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const app = runtime.app as FastifyInstance;
  const hark: Hark = {
    backend: options.backend,
    config,
    runtime,
    app,
    request: async ({ key, headers, ...rest }) => {
      const response = await app.inject({ ...rest, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });
      checkAgainstDocument(rest.method ?? 'GET', String(rest.url ?? rest.path ?? '/'), response);
      return response;
    },
    client: (key) => new HarkClient({ baseUrl: 'http://hark.test', apiKey: key, maxRetries: 0, fetch: injectFetch(app) }),
    restart: async (next = {}) => {
      await runtime.close();
      return launch({ ...options, workers: next.workers ?? true }, { ...config, ...next.config });
    },
    stop: () => runtime.close(),
    destroy: async () => {
      await runtime.close();
      await dropStore(config);
    },
  };
  return hark;
}

/** A `fetch` that hands each request to the app in process (no socket), for the shipped client. */
function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const response = await app.inject({ method: request.method as 'GET', url: `${url.pathname}${url.search}`, headers: Object.fromEntries(request.headers), ...(payload ? { payload } : {}) });
    checkAgainstDocument(request.method, `${url.pathname}${url.search}`, response);
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) for (const item of [value].flat()) if (item !== undefined) headers.append(name, String(item));
    return new Response(response.statusCode === 204 || response.rawPayload.length === 0 ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers });
  };
}

/** Awaits a client call that must fail with this status and problem code; answers the error. */
export async function rejectsWith(call: Promise<unknown>, status: number, code: string): Promise<APIError> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    if (error.status !== status || error.code !== code) throw new Error(`expected ${status} ${code}, got ${error.status} ${error.code}: ${error.detail}`);
    return error;
  }
  throw new Error(`expected ${status} ${code}, but the call succeeded`);
}

/**
 * Every response through `Hark.request` must be what openapi.json says (status, content type,
 * body). HARK_OPENAPI_REPORT=<file> lists the mismatches there instead of failing.
 */
function checkAgainstDocument(method: string, url: string, response: LightMyRequestResponse): void {
  const mismatch = openapiMismatch(method, url, response.statusCode, response.headers['content-type'] as string | undefined, response.rawPayload.length > 0 ? response.body : '');
  if (!mismatch) return;
  if (process.env.HARK_OPENAPI_REPORT) fsSync.appendFileSync(process.env.HARK_OPENAPI_REPORT, `${mismatch}\n`);
  else throw new Error(`the response differs from openapi.json: ${mismatch}`);
}

export async function dropStore(config: Config): Promise<void> {
  await fs.rm(config.dataDir, { recursive: true, force: true });
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${config.databaseSchema} CASCADE`);
      await client.query(`DROP SCHEMA IF EXISTS ${config.databaseSchema}_boss CASCADE`);
    } finally {
      await client.end();
    }
  }
}

export interface Account {
  workspaceId: string;
  key: string;
  accountId: string;
  email: string;
}

let counter = 0;
export async function registerAccount(hark: Hark): Promise<Account> {
  counter += 1;
  const email = `user${counter}-${randomBytes(3).toString('hex')}@example.com`;
  const response = await hark.request({ method: 'POST', url: '/api/v1/accounts', payload: { email, password: 'correct horse battery', workspace_name: `Team ${counter}` } });
  if (response.statusCode !== 201) throw new Error(`registration failed: ${response.statusCode} ${response.body}`);
  const body = response.json<{ workspace_id: string; api_key: string; account_id: string }>();
  return { workspaceId: body.workspace_id, key: body.api_key, accountId: body.account_id, email };
}

/** Polls `check` until it returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function assertProblem(response: LightMyRequestResponse, status: number, code: string): Record<string, unknown> {
  if (response.statusCode !== status) throw new Error(`expected ${status} ${code}, got ${response.statusCode}: ${response.body}`);
  if (!String(response.headers['content-type']).startsWith('application/problem+json')) {
    throw new Error(`expected application/problem+json, got ${response.headers['content-type']}`);
  }
  const body = response.json<Record<string, unknown>>();
  if (body.code !== code) throw new Error(`expected code ${code}, got ${String(body.code)}: ${response.body}`);
  for (const field of ['type', 'title', 'status', 'detail', 'request_id']) {
    if (!(field in body)) throw new Error(`problem lacks ${field}: ${response.body}`);
  }
  return body;
}

/** The local scratch folder of a Hark's blob store (uploads being received, local copies). */
/** The running process's own scratch folder. */
export function scratchDir(hark: Hark): string {
  return hark.runtime.ctx.blobs.scratchFolder;
}

/** Whether a Hark's store holds `key`, whichever store it is. */
export async function hasBlob(hark: Hark, key: string): Promise<boolean> {
  return (await hark.runtime.ctx.blobs.size(key)) !== null;
}

/** The keys a Hark's store holds below `folder`. */
export function storedKeys(hark: Hark, folder: string): Promise<string[]> {
  return hark.runtime.ctx.blobs.list(folder);
}
