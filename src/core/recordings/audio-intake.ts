// Streams incoming audio (an upload part or a download) into a temp file of the blob store,
// counting bytes against the limit and recognising the container from the first bytes.
// Nothing is held in memory beyond one chunk; on any failure the temp file is removed.
import fs from 'node:fs';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../errors.ts';
import { sniffFormat, SNIFF_BYTES, type AudioFormat } from '../../platform/media/sniff.ts';
import type { BlobStore } from '../../platform/storage/blobs.ts';

export interface ReceivedAudio {
  tempPath: string;
  sizeBytes: number;
  format: AudioFormat;
}

class Gate extends Transform {
  size = 0;
  private head = Buffer.alloc(0);
  format: AudioFormat | null = null;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(new AppError('payload_too_large', `the file is larger than the limit of ${this.maxBytes} bytes`));
      return;
    }
    if (this.format === null && this.head.length < SNIFF_BYTES) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, SNIFF_BYTES - this.head.length)]);
      if (this.head.length >= SNIFF_BYTES) {
        this.format = sniffFormat(this.head);
        if (this.format === null) {
          callback(unsupported());
          return;
        }
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.format === null) this.format = sniffFormat(this.head);
    if (this.size === 0) callback(new AppError('validation_failed', 'the file is empty', [{ path: 'file', message: 'is empty' }]));
    else if (this.format === null) callback(unsupported());
    else callback();
  }
}

const unsupported = () =>
  new AppError('unsupported_media_type', 'the content is not WAV, MP3, MP4/M4A, OGG (Vorbis or Opus) or FLAC audio');

export async function receiveAudio(blobs: BlobStore, source: Readable, maxBytes: number): Promise<ReceivedAudio> {
  const tempPath = blobs.tempPath();
  const gate = new Gate(maxBytes);
  // The file exists before the first byte is checked: a write stream that opened it lazily could
  // create it after a quick refusal had already removed it, leaving it behind.
  const handle = await fs.promises.open(tempPath, 'wx');
  try {
    await pipeline(source, gate, handle.createWriteStream());
  } catch (error) {
    await handle.close().catch(() => {});
    await blobs.removeTemp(tempPath);
    throw error;
  }
  return { tempPath, sizeBytes: gate.size, format: gate.format as AudioFormat };
}
