// Runs `hark serve` as a child process, for tests that kill it.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/config.ts';

const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../bin/hark.js');

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** `options.node`: another Node binary to run it with (the newest LTS). */
export async function spawnServer(config: Config, env: Record<string, string> = {}, options: { node?: string } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(options.node ?? process.execPath, [bin, 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      HARK_DATA_DIR: config.dataDir,
      HARK_LOG_LEVEL: 'warn',
      HARK_IMPORT_ALLOW_PRIVATE: '1',
      HARK_AUTO_TRANSCRIBE: 'off',
      HARK_EMBEDDED_DB: config.embeddedDb,
      ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl, HARK_DB_SCHEMA: config.databaseSchema } : {}),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hark exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('hark did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base,
    child,
    kill: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

export interface HarkProcess {
  child: ChildProcess;
  /** The HTTP base URL of a process that serves. */
  base: string | null;
  /** What the process has written to stdout (its JSON log lines), the last megabyte of it. */
  output(): string;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<number | NodeJS.Signals>;
  kill(signal?: NodeJS.Signals): Promise<number | NodeJS.Signals>;
}

/**
 * Starts `hark <args>` with only `env` (plus PATH and HOME) and waits until it says it is serving
 * or that its workers started: its own data folder, nothing inherited from the test process.
 */
export async function spawnHark(args: string[], env: Record<string, string>, options: { nodeArgs?: string[] } = {}): Promise<HarkProcess> {
  const serves = args[0] === 'serve';
  const port = serves ? await freePort() : 0;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), bin, ...args], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      HARK_LOG_LEVEL: 'info',
      HARK_IMPORT_ALLOW_PRIVATE: '1',
      HARK_AUTO_TRANSCRIBE: 'off',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...(serves ? { PORT: String(port) } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Never outlives the test or bench that started it, even one that crashed.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  const exited = new Promise<number | NodeJS.Signals>((resolve) =>
    child.once('exit', (code, signal) => {
      process.off('exit', orphan);
      resolve(signal ?? code ?? 0);
    }),
  );
  // The last megabyte or so of its output, kept as chunks: a busy server logs two lines a request,
  // and copying one growing string per chunk cost the bench's load generator most of its time.
  const chunks: string[] = [];
  let kept = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    chunks.push(chunk.toString());
    kept += chunk.length;
    while (kept > 1_000_000 && chunks.length > 1) kept -= chunks.shift()!.length;
  });
  const buffered = () => chunks.join('');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hark ${args.join(' ')} did not start`)), 120_000);
    let started = false;
    child.stdout?.on('data', () => {
      // The line may straddle two chunks.
      if (!started && /"msg":"hark (is serving|worker started)"/.test(chunks.slice(-2).join(''))) {
        started = true;
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`hark ${args.join(' ')} exited with ${code}`));
    });
  });
  return {
    child,
    base: serves ? `http://127.0.0.1:${port}` : null,
    output: buffered,
    exited,
    kill: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
