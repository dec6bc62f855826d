// The local scratch folder of a blob store: files being received or prepared, and local copies of
// stored objects while an engine reads them. Each process writes in a folder of its own, named by
// host, pid and the process's start time, so a process starting on a host removes at once what a
// dead process of that host left (a kill mid-upload, mid-preparation), in every mode, without
// touching the files of a process still running there or on another host sharing the folder.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isAlive } from './process-alive.ts';

/** A process's start time in clock ticks since boot (Linux), or null where /proc is not there. */
function startTicks(pid: number | 'self'): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22, counted after the command name, which may itself hold spaces and parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

const hostTag = () => os.hostname().replace(/[^A-Za-z0-9-]/g, '_');

/** `<host>.<pid>.<start>`: the start tells a pid reused after a restart (a container's pid 1) apart. */
export function instanceName(): string {
  return `${hostTag()}.${process.pid}.${startTicks('self') ?? `t${Date.now()}`}`;
}

const INSTANCE = /^(.+)\.(\d+)\.(t?\d+)$/;

/** Whether `name` is the folder of a process of this host that is no longer running. */
export function isDeadLocalInstance(name: string): boolean {
  const match = INSTANCE.exec(name);
  if (!match || match[1] !== hostTag()) return false;
  const started = startTicks(Number(match[2]));
  return started === null ? !match[3]!.startsWith('t') || !isAlive(Number(match[2])) : started !== match[3];
}


export class Scratch {
  /** This process's own folder, under `root`. */
  readonly folder: string;

  constructor(readonly root: string) {
    this.folder = path.join(root, instanceName());
  }

  /** Makes this process's folder and removes those of this host's dead processes; returns how many. */
  async init(): Promise<number> {
    await fs.mkdir(this.folder, { recursive: true });
    let removed = 0;
    for (const name of await fs.readdir(this.root)) {
      if (path.join(this.root, name) !== this.folder && isDeadLocalInstance(name)) {
        await fs.rm(path.join(this.root, name), { recursive: true, force: true });
        removed += 1;
      }
    }
    return removed;
  }

  /** Removes this process's folder and what is left in it (at a clean exit, its work done). */
  async close(): Promise<void> {
    await fs.rm(this.folder, { recursive: true, force: true });
  }

  async ping(): Promise<void> {
    await fs.access(this.folder, fs.constants.W_OK);
  }

  tempPath(): string {
    return path.join(this.folder, randomUUID());
  }

  async remove(file: string): Promise<void> {
    await fs.rm(file, { force: true });
  }

  /**
   * Removes files nobody has written for `idleMs`: loose ones, those inside any process's folder
   * (another host's, whose processes cannot be checked from here), and the folders of other
   * processes once empty and idle. This process's own folder stays.
   */
  async removeStale(idleMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    const idle = async (file: string) => {
      const stat = await fs.stat(file).catch(() => null);
      return stat !== null && now - stat.mtimeMs >= idleMs ? stat : null;
    };
    for (const name of await fs.readdir(this.root).catch(() => [] as string[])) {
      const entry = path.join(this.root, name);
      const stat = await fs.stat(entry).catch(() => null);
      if (!stat) continue;
      if (!stat.isDirectory()) {
        if (await idle(entry)) {
          await fs.rm(entry, { force: true });
          removed += 1;
        }
        continue;
      }
      for (const inner of await fs.readdir(entry).catch(() => [] as string[])) {
        const file = path.join(entry, inner);
        if (await idle(file)) {
          await fs.rm(file, { force: true, recursive: true });
          removed += 1;
        }
      }
      if (entry !== this.folder && (await fs.readdir(entry).catch(() => ['?'])).length === 0 && (await idle(entry))) await fs.rmdir(entry).catch(() => {});
    }
    return removed;
  }
}
