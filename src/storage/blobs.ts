// Audio blobs in a local folder. Keys are built from ids only: a client's filename never
// reaches a path. Writes go to a temp file first and are renamed into place.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import path from 'node:path';

export class BlobStore {
  readonly root: string;
  private readonly tmp: string;

  constructor(root: string) {
    this.root = root;
    this.tmp = path.join(root, '.tmp');
  }

  async init(): Promise<void> {
    await fs.mkdir(this.tmp, { recursive: true });
  }

  /** A fresh path in the store's temp folder (same filesystem, so commit is a rename). */
  tempPath(): string {
    return path.join(this.tmp, randomUUID());
  }

  pathOf(key: string): string {
    if (!/^[a-z0-9/._-]+$/i.test(key) || key.includes('..')) throw new Error(`invalid blob key ${key}`);
    return path.join(this.root, key);
  }

  async commit(tempPath: string, key: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(tempPath, target);
  }

  async exists(key: string): Promise<boolean> {
    return fs.access(this.pathOf(key)).then(
      () => true,
      () => false,
    );
  }

  /** The size in bytes of a stored blob, or null when it is not there. */
  async size(key: string): Promise<number | null> {
    const stat = await fs.stat(this.pathOf(key)).catch(() => null);
    return stat?.isFile() ? stat.size : null;
  }

  /** A blob's bytes from `start` to `end` inclusive (the whole blob without a range), streamed. */
  read(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
  }

  /** Removes a key or a whole folder of keys; missing is fine. */
  async remove(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { recursive: true, force: true });
  }

  async removeTemp(tempPath: string): Promise<void> {
    await fs.rm(tempPath, { force: true });
  }

  /**
   * Removes temp files nobody has written for `idleMs`: what a process killed mid-upload or
   * mid-preparation left behind (a live writer keeps its file's mtime fresh). Returns the count.
   */
  async removeStaleTemps(idleMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await fs.readdir(this.tmp).catch(() => [] as string[])) {
      const file = path.join(this.tmp, name);
      const stat = await fs.stat(file).catch(() => null);
      if (stat && now - stat.mtimeMs >= idleMs) {
        await fs.rm(file, { force: true, recursive: true });
        removed += 1;
      }
    }
    return removed;
  }

  async ping(): Promise<void> {
    await fs.access(this.tmp, fs.constants.W_OK);
  }
}

export const recordingKeys = (workspaceId: string, recordingId: string) => ({
  folder: `recordings/${workspaceId}/${recordingId}`,
  original: `recordings/${workspaceId}/${recordingId}/original`,
  prepared: `recordings/${workspaceId}/${recordingId}/prepared.wav`,
});
