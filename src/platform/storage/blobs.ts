// Where audio lives: one interface, two stores (a local folder, or an S3-compatible bucket that
// every host shares). Keys are built from ids only: a client's filename never reaches a key.
// Work that needs a file (receiving an upload, ffmpeg, the recognisers) happens in a local
// scratch folder; finished files are committed into the store and local copies removed after use.
import type { Readable } from 'node:stream';

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

export interface BlobStore {
  readonly kind: 'file' | 's3';
  /** Prepares the store and this process's scratch folder; returns how many dead processes' scratch folders of this host it removed. */
  init(): Promise<number>;
  /** Removes this process's scratch folder, once its work has stopped (a clean exit leaves none behind). */
  close(): Promise<void>;
  /** This process's own scratch folder (see scratch.ts). */
  readonly scratchFolder: string;
  /** Throws when the store cannot be written or reached. */
  ping(): Promise<void>;
  /** A fresh path in the local scratch folder. */
  tempPath(): string;
  removeTemp(tempPath: string): Promise<void>;
  /**
   * Removes scratch files nobody has written for `idleMs`: what a process killed mid-upload or
   * mid-preparation left behind (a live writer keeps its file's mtime fresh). Returns the count.
   */
  removeStaleTemps(idleMs: number, now?: number): Promise<number>;
  /** Moves a finished scratch file into the store under `key`; the scratch file is gone after. */
  commit(tempPath: string, key: string): Promise<void>;
  /** Runs `fn` on a local file holding the blob (the blob itself in a folder, a scratch copy of an object). */
  withLocalFile<T>(key: string, fn: (file: string) => Promise<T>): Promise<T>;
  /** The size in bytes of a stored blob, or null when it is not there. */
  size(key: string): Promise<number | null>;
  /** A blob's bytes (from `start` to `end` inclusive with a range), streamed. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** The keys below `folder` (`folder/…`), sorted. */
  list(folder: string): Promise<string[]>;
  /** Removes a key and every key below it (`folder/…`); missing is fine. */
  remove(key: string): Promise<void>;
}

export function checkKey(key: string): string {
  if (!/^[a-z0-9/._-]+$/i.test(key) || key.includes('..') || key.startsWith('/')) throw new Error(`invalid blob key ${key}`);
  return key;
}

export const recordingKeys = (workspaceId: string, recordingId: string) => ({
  folder: `recordings/${workspaceId}/${recordingId}`,
  original: `recordings/${workspaceId}/${recordingId}/original`,
  prepared: `recordings/${workspaceId}/${recordingId}/prepared.wav`,
  /** Channel `i` alone, prepared like the mix, for audio of several channels. */
  channel: (channel: number) => `recordings/${workspaceId}/${recordingId}/channel-${channel}.wav`,
  /** The prepared audio with redacted words silenced: what playback and downloads serve once it exists. */
  redacted: `recordings/${workspaceId}/${recordingId}/redacted.wav`,
  /** The waveform drawn from the prepared (or redacted) audio, kept once computed. */
  waveform: (variant: string) => `recordings/${workspaceId}/${recordingId}/waveform-${variant}.json`,
});
