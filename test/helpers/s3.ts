// An S3-compatible server (s3rver, in this test process) and a fresh bucket per Hark.
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

let server: Promise<{ endpoint: string; client: S3Client }> | null = null;

function s3Server(): Promise<{ endpoint: string; client: S3Client }> {
  return (server ??= (async () => {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'hark-s3-'));
    process.on('exit', () => fsSync.rmSync(directory, { recursive: true, force: true }));
    const instance = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
    const { port } = await instance.run();
    const endpoint = `http://127.0.0.1:${port}`;
    // The server lives as long as the test process; its socket must not keep the process alive.
    (instance as unknown as { httpServer?: { unref(): void } }).httpServer?.unref();
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
    return { endpoint, client };
  })());
}

/** The settings of a Hark that keeps its audio in a new bucket of the test S3 server. */
export async function s3Env(): Promise<Record<string, string>> {
  const { endpoint, client } = await s3Server();
  const bucket = `hark-${randomBytes(6).toString('hex')}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    HARK_BLOB_URL: `s3://${bucket}/audio`,
    HARK_S3_ENDPOINT: endpoint,
    HARK_S3_ACCESS_KEY_ID: credentials.accessKeyId,
    HARK_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  };
}
