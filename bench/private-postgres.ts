// A private PostgreSQL cluster from Debian's binaries, in a folder of its own, reachable only by a
// Unix socket there: the candidate embedded store that bench/scale.ts measures beside PGlite.
// Started as the `postgres` user when the bench runs as root (PostgreSQL refuses to run as root).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface PrivateCluster {
  url: string;
  /** Proportional set size of the postmaster and its children, in MB (shared memory counted once). */
  memoryMb(): number;
  stop(): Promise<void>;
}

function postgresBin(): string {
  const versions = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b)) : [];
  const version = versions.at(-1);
  if (!version) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql (apt-get install postgresql)');
  return path.join('/usr/lib/postgresql', version, 'bin');
}

function pss(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

export async function startPrivateCluster(): Promise<PrivateCluster> {
  const bin = postgresBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-private-pg-'));
  const data = path.join(dir, 'data');
  const root = process.getuid?.() === 0;
  const user = root ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) } : null;
  if (user) {
    fs.chmodSync(dir, 0o755);
    fs.chownSync(dir, user.uid, user.gid);
  }
  execFileSync(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'hark', '-E', 'UTF8', '--no-sync'], { ...(user ?? {}), stdio: 'ignore' });
  const postmaster = spawn(
    path.join(bin, 'postgres'),
    ['-D', data, '-k', dir, '-c', 'listen_addresses=', '-c', 'shared_buffers=16MB', '-c', 'max_connections=30', '-c', 'max_wal_size=256MB'],
    { ...(user ?? {}), stdio: 'ignore' },
  );
  const kill = () => postmaster.kill('SIGKILL');
  process.once('exit', kill);
  const socket = path.join(dir, '.s.PGSQL.5432');
  const deadline = Date.now() + 30_000;
  while (!fs.existsSync(socket)) {
    if (postmaster.exitCode !== null || Date.now() > deadline) throw new Error('the private PostgreSQL cluster did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `postgres://hark@/postgres?host=${encodeURIComponent(dir)}`,
    memoryMb: () => [postmaster.pid!, ...childrenOf(postmaster.pid!)].reduce((sum, pid) => sum + pss(pid), 0),
    stop: async () => {
      process.off('exit', kill);
      const exited = new Promise((resolve) => postmaster.once('exit', resolve));
      postmaster.kill('SIGINT'); // fast shutdown
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
