// Blobs in a local folder (the embedded default, or a folder every host mounts). The scratch folder
// is inside it, so a commit is a rename on the same filesystem.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { checkKey, type BlobStore, type ByteRange } from './blobs.ts';
import { Scratch } from './scratch.ts';

export class FileBlobStore implements BlobStore {
  readonly kind = 'file';
  private readonly scratch: Scratch;

  constructor(readonly root: string) {
    this.scratch = new Scratch(path.join(root, '.tmp'));
  }

  init = () => this.scratch.init();
  close = () => this.scratch.close();
  get scratchFolder(): string {
    return this.scratch.folder;
  }
  ping = () => this.scratch.ping();
  tempPath = () => this.scratch.tempPath();
  removeTemp = (tempPath: string) => this.scratch.remove(tempPath);
  removeStaleTemps = (idleMs: number, now?: number) => this.scratch.removeStale(idleMs, now);

  private pathOf(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  async commit(tempPath: string, key: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(tempPath, target);
  }

  withLocalFile<T>(key: string, fn: (file: string) => Promise<T>): Promise<T> {
    return fn(this.pathOf(key));
  }

  async size(key: string): Promise<number | null> {
    const stat = await fs.stat(this.pathOf(key)).catch(() => null);
    return stat?.isFile() ? stat.size : null;
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const handle = await fs.open(this.pathOf(key), 'r');
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async list(folder: string): Promise<string[]> {
    const entries = await fs.readdir(this.pathOf(folder), { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      .sort();
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { recursive: true, force: true });
  }
}
