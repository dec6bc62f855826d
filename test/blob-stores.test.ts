// The blob interface: the folder store and the S3 store pass the same tests; and a store that
// cannot be reached refuses an upload with 503 storage_unavailable and leaves nothing behind.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadConfig } from '../src/config.ts';
import type { BlobStore } from '../src/platform/storage/blobs.ts';
import { openBlobStore } from '../src/platform/storage/open-blob-store.ts';
import { speech } from './helpers/audio.ts';
import { upload } from './helpers/api.ts';
import { assertProblem, registerAccount, scratchDir, startHark } from './helpers/harness.ts';
import { freePort } from './helpers/process.ts';
import { s3Env } from './helpers/s3.ts';

const folders: string[] = [];
after(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

async function store(env: Record<string, string>): Promise<BlobStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-blobs-'));
  folders.push(dataDir);
  const blobs = openBlobStore(loadConfig({ HARK_DATA_DIR: dataDir, ...env }));
  await blobs.init();
  return blobs;
}

async function put(blobs: BlobStore, key: string, bytes: Buffer): Promise<string> {
  const temp = blobs.tempPath();
  fs.writeFileSync(temp, bytes);
  await blobs.commit(temp, key);
  assert.equal(fs.existsSync(temp), false, 'the scratch file is gone after a commit');
  return key;
}

const text = async (stream: NodeJS.ReadableStream & { toArray(): Promise<Buffer[]> }) => Buffer.concat(await stream.toArray());

for (const [name, env] of [
  ['folder', async () => ({})],
  ['S3', s3Env],
] as const) {
  describe(`the ${name} blob store`, () => {
    test('commit, size, read with and without a range, local copy, list, remove', async () => {
      const blobs = await store(await env());
      await blobs.ping();
      // Larger than one multipart part on S3 (8 MiB), with marks at both ends.
      const big = Buffer.alloc(9 * 1024 * 1024 + 17, 0x61);
      big.write('HEAD', 0);
      big.write('TAIL', big.length - 4);
      await put(blobs, 'recordings/w1/r1/original', big);
      await put(blobs, 'recordings/w1/r1/prepared.wav', Buffer.from('RIFF....WAVE'));
      await put(blobs, 'recordings/w1/r2/original', Buffer.from('other'));

      assert.equal(await blobs.size('recordings/w1/r1/original'), big.length);
      assert.equal(await blobs.size('recordings/w1/r9/original'), null);
      assert.equal((await text(await blobs.read('recordings/w1/r1/original'))).equals(big), true);
      assert.equal((await text(await blobs.read('recordings/w1/r1/original', { start: big.length - 4, end: big.length - 1 }))).toString(), 'TAIL');
      assert.equal((await text(await blobs.read('recordings/w1/r1/original', { start: 0, end: 3 }))).toString(), 'HEAD');

      let local = '';
      const seen = await blobs.withLocalFile('recordings/w1/r1/prepared.wav', async (file) => {
        local = file;
        return fs.readFileSync(file, 'utf8');
      });
      assert.equal(seen, 'RIFF....WAVE');
      if (name === 'S3') assert.equal(fs.existsSync(local), false, 'the local copy of an object is removed after use');

      assert.deepEqual(await blobs.list('recordings/w1'), ['recordings/w1/r1/original', 'recordings/w1/r1/prepared.wav', 'recordings/w1/r2/original']);
      await blobs.remove('recordings/w1/r1');
      await blobs.remove('recordings/w1/r1'); // missing is fine
      assert.deepEqual(await blobs.list('recordings/w1'), ['recordings/w1/r2/original']);
      assert.equal(await blobs.size('recordings/w1/r1/original'), null);
    });

    test('keys built from anything but ids are refused; stale scratch files are swept', async () => {
      const blobs = await store(await env());
      await assert.rejects(blobs.size('../etc/passwd'), /invalid blob key/);
      await assert.rejects(blobs.size('/abs'), /invalid blob key/);
      const stale = blobs.tempPath();
      fs.writeFileSync(stale, 'left by a killed process');
      const fresh = blobs.tempPath();
      fs.writeFileSync(fresh, 'being written');
      fs.utimesSync(stale, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
      assert.equal(await blobs.removeStaleTemps(600_000), 1);
      assert.equal(fs.existsSync(stale), false);
      assert.equal(fs.existsSync(fresh), true);
    });
  });
}

test('an S3 store that cannot be reached: not ready, and an upload is refused with 503 leaving nothing behind', async () => {
  const port = await freePort();
  const env = { ...(await s3Env()), HARK_S3_ENDPOINT: `http://127.0.0.1:${port}` };
  const hark = await startHark({ backend: 'pglite', env });
  try {
    const ready = await hark.request({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json<{ checks: { storage: string } }>().checks.storage, 'unavailable');
    const account = await registerAccount(hark);
    assertProblem(await upload(hark, account, speech('nothing will be stored')), 503, 'storage_unavailable');
    const rows = await hark.runtime.ctx.db.selectFrom('recordings').select('id').execute();
    assert.equal(rows.length, 0, 'no row points at audio that was never stored');
    assert.deepEqual(fs.readdirSync(scratchDir(hark)), [], 'no scratch file is left');
  } finally {
    await hark.destroy();
  }
});
