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

export async function spawnServer(config: Config, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      HARK_DATA_DIR: config.dataDir,
      HARK_LOG_LEVEL: 'warn',
      HARK_IMPORT_ALLOW_PRIVATE: '1',
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
