// The embedded store's default (HARK_EMBEDDED_DB=auto or postgres): a private PostgreSQL cluster
// from Debian's binaries under HARK_DATA_DIR/postgres, reachable only through a Unix socket in that
// folder (no TCP port), started with Hark and stopped with it. Measured beside PGlite in
// bench/scale.ts: a quarter of PGlite's memory and several times its request rate.
// PostgreSQL refuses to run as root: started by root, it runs as the `postgres` user, which must
// be able to reach HARK_DATA_DIR (Hark adds traverse permission to that folder itself).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export interface PrivateCluster {
  url: string;
  stop(): Promise<void>;
}

function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'postgres'))) : [];
  const version = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!version) throw new Error(`HARK_EMBEDDED_DB=postgres needs PostgreSQL's server binaries under ${root} (apt-get install postgresql)`);
  return path.join(root, version, 'bin');
}

function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  try {
    return { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) };
  } catch {
    throw new Error('HARK_EMBEDDED_DB=postgres started as root needs the `postgres` user (Debian\'s postgresql package creates it)');
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Whether a live pid is a PostgreSQL server (a stale pid file may name a process reusing its pid). */
function isPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]?.endsWith('postgres') ?? false;
  } catch {
    return true; // no /proc to ask: trust the pid file, as PostgreSQL itself does
  }
}

async function waitUntil(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`the private PostgreSQL cluster ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every folder above HARK_DATA_DIR must let the `postgres` user through, or initdb fails obscurely. */
function checkReachable(folder: string, user: { uid: number; gid: number }): void {
  for (let current = folder; ; current = path.dirname(current)) {
    const stat = fs.statSync(current);
    const through = stat.uid === user.uid ? stat.mode & 0o100 : stat.gid === user.gid ? stat.mode & 0o010 : stat.mode & 0o001;
    if (!through) throw new Error(`the postgres user cannot reach ${current}; allow it through (chmod o+x ${current}) or put HARK_DATA_DIR elsewhere`);
    if (current === path.dirname(current)) return;
  }
}

/** Why the private cluster cannot run for `dataDir` here, or null when it can. */
export function privateClusterProblem(dataDir: string): string | null {
  try {
    postgresBin();
    const user = runAs();
    const resolved = path.resolve(dataDir);
    if (user) checkReachable(fs.existsSync(resolved) ? path.dirname(resolved) : nearestExisting(resolved), user);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

function nearestExisting(folder: string): string {
  let current = folder;
  while (!fs.existsSync(current) && current !== path.dirname(current)) current = path.dirname(current);
  return current;
}

export async function startPrivateCluster(dataDir: string): Promise<PrivateCluster> {
  const bin = postgresBin();
  const user = runAs();
  const dir = path.join(dataDir, 'postgres');
  const data = path.join(dir, 'data');
  fs.mkdirSync(dir, { recursive: true });
  if (user) {
    fs.chmodSync(dataDir, fs.statSync(dataDir).mode | 0o011);
    fs.chownSync(dir, user.uid, user.gid);
    checkReachable(path.dirname(path.resolve(dataDir)), user);
  }
  const options = { ...(user ?? {}), stdio: 'ignore' as const };
  if (!fs.existsSync(path.join(data, 'PG_VERSION'))) {
    execFileSync(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'hark', '-E', 'UTF8', '--no-instructions'], options);
  }
  const url = `postgres://hark@/postgres?host=${encodeURIComponent(dir)}`;
  const ready = async () => {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch {
      return false;
    }
  };

  // A cluster left running by a Hark that was killed is adopted, not started twice.
  const pidFile = path.join(data, 'postmaster.pid');
  const leftover = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]) : 0;
  let child: ChildProcess | null = null;
  let pid = leftover && alive(leftover) && isPostgres(leftover) ? leftover : 0;
  if (!pid) {
    const log = fs.openSync(path.join(dir, 'server.log'), 'a');
    if (user) fs.fchownSync(log, user.uid, user.gid);
    child = spawn(
      path.join(bin, 'postgres'),
      ['-D', data, '-k', dir, '-c', 'listen_addresses=', '-c', 'shared_buffers=16MB', '-c', 'max_connections=40', '-c', 'max_wal_size=256MB'],
      { ...(user ?? {}), stdio: ['ignore', log, log] },
    );
    fs.closeSync(log);
    pid = child.pid ?? 0;
  }
  await waitUntil(async () => {
    if (child && child.exitCode !== null) throw new Error(`the private PostgreSQL cluster exited (see ${path.join(dir, 'server.log')})`);
    return ready();
  }, 60_000, 'did not start');

  return {
    url,
    stop: async () => {
      if (!alive(pid)) return;
      process.kill(pid, 'SIGINT'); // fast shutdown: open sessions end, the data is consistent
      await waitUntil(() => !alive(pid) || (child !== null && child.exitCode !== null), 60_000, 'did not stop');
    },
  };
}
