// The local scratch folder of a blob store: files being received or prepared, and local copies of
// stored objects while an engine reads them.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export class Scratch {
  constructor(readonly folder: string) {}

  async init(): Promise<void> {
    await fs.mkdir(this.folder, { recursive: true });
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

  async removeStale(idleMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await fs.readdir(this.folder).catch(() => [] as string[])) {
      const file = path.join(this.folder, name);
      const stat = await fs.stat(file).catch(() => null);
      if (stat && now - stat.mtimeMs >= idleMs) {
        await fs.rm(file, { force: true, recursive: true });
        removed += 1;
      }
    }
    return removed;
  }
}
