// Blobs in an S3-compatible bucket (AWS S3, MinIO, Ceph…), shared by every API and worker host.
// Committed files are streamed up in multipart parts (never whole in memory); engines and ffmpeg
// read a scratch copy that is removed as soon as they finish.
import { createReadStream, createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BlobConfig } from '../../config.ts';
import { checkKey, type BlobStore, type ByteRange } from './blobs.ts';
import { Scratch } from './scratch.ts';

type S3Config = Extract<BlobConfig, { kind: 's3' }>;

const PART_BYTES = 8 * 1024 * 1024;

export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly scratch: Scratch;

  constructor(
    private readonly config: S3Config,
    scratchFolder: string,
  ) {
    this.scratch = new Scratch(scratchFolder);
    // The SDK warns on Node 20 about versions not yet published; Hark's lockfile pins the one it
    // ships, and a plain-text warning would break the JSON log.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.credentials ? { credentials: config.credentials } : {}),
      // Checksums only where S3 requires them: S3-compatible servers do not all accept the
      // aws-chunked trailing checksums newer SDKs send by default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 4,
    });
  }

  init = () => this.scratch.init();
  close = () => this.scratch.close();
  get scratchFolder(): string {
    return this.scratch.folder;
  }
  tempPath = () => this.scratch.tempPath();
  removeTemp = (tempPath: string) => this.scratch.remove(tempPath);
  removeStaleTemps = (idleMs: number, now?: number) => this.scratch.removeStale(idleMs, now);

  async ping(): Promise<void> {
    await this.scratch.ping();
    await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }));
  }

  private objectKey(key: string): string {
    return this.config.prefix + checkKey(key);
  }

  async commit(tempPath: string, key: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.config.bucket, Key: this.objectKey(key), Body: createReadStream(tempPath) },
      partSize: PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
    await this.scratch.remove(tempPath);
  }

  async withLocalFile<T>(key: string, fn: (file: string) => Promise<T>): Promise<T> {
    const copy = this.scratch.tempPath();
    try {
      await pipeline(await this.read(key), createWriteStream(copy));
      return await fn(copy);
    } finally {
      await this.scratch.remove(copy);
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const object = await this.client.send(
      new GetObjectCommand({
        Bucket: this.config.bucket,
        Key: this.objectKey(key),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    if (!(object.Body instanceof Readable)) throw new Error(`no body for blob ${key}`);
    return object.Body;
  }

  /** Object keys (with the prefix) under `folder/`. */
  private async objectsBelow(folder: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: `${this.objectKey(folder)}/`, ...(token ? { ContinuationToken: token } : {}) }),
      );
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async list(folder: string): Promise<string[]> {
    return (await this.objectsBelow(folder)).map((key) => key.slice(this.config.prefix.length)).sort();
  }

  async remove(key: string): Promise<void> {
    const keys = [this.objectKey(key), ...(await this.objectsBelow(key))];
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const result = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.config.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      const failed = (result.Errors ?? []).filter((error) => error.Code !== 'NoSuchKey');
      if (failed.length > 0) throw new Error(`could not delete ${failed.length} objects under ${key}: ${failed[0]?.Code ?? ''} ${failed[0]?.Message ?? ''}`);
    }
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);
}
