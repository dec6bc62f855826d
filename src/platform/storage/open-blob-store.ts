// The blob store a configuration names.
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { BlobStore } from './blobs.ts';
import { FileBlobStore } from './file-blobs.ts';
import { S3BlobStore } from './s3-blobs.ts';

export function openBlobStore(config: Config): BlobStore {
  return config.blobs.kind === 'file' ? new FileBlobStore(config.blobs.root) : new S3BlobStore(config.blobs, path.join(config.dataDir, 'tmp'));
}
