// The configuration schema: defaults, conversion of environment strings, and every problem listed
// at once in words an operator can act on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';
import { everyMinutes } from '../src/runtime.ts';

test('defaults and converted values', () => {
  const config = loadConfig({ PORT: '9000', HARK_IMPORT_ALLOW_PRIVATE: 'true', HARK_RETENTION_DEFAULT_DAYS: '', HARK_REGISTRATION: 'closed' });
  assert.equal(config.port, 9000);
  assert.equal(config.importAllowPrivate, true, 'the older name still allows');
  assert.equal(loadConfig({ HARK_ALLOW_PRIVATE_ADDRESSES: '1' }).importAllowPrivate, true);
  assert.equal(loadConfig({}).importAllowPrivate, false);
  assert.equal(config.registration, 'closed');
  assert.deepEqual(config.retention, { minDays: 1, maxDays: 3650, defaultDays: 7 });
  assert.equal(config.maxAudioSeconds, 4 * 3600);
  assert.equal(config.databaseUrl, null);
});

test('every bad value is reported at once', () => {
  assert.throws(
    () => loadConfig({ PORT: 'x', HARK_REGISTRATION: 'maybe', DATABASE_URL: 'mysql://db', HARK_WORKER_CONCURRENCY: '0' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 4, error.message);
      assert.match(error.message, /PORT must be an integer between 0 and 65535 \(got "x"\)/);
      assert.match(error.message, /HARK_REGISTRATION must be one of open, closed/);
      assert.match(error.message, /DATABASE_URL/);
      assert.match(error.message, /HARK_WORKER_CONCURRENCY must be an integer between 1 and 256/);
      return true;
    },
  );
  assert.throws(() => loadConfig({ HARK_RETENTION_MIN_DAYS: '10', HARK_RETENTION_DEFAULT_DAYS: '5' }), /HARK_RETENTION_MIN_DAYS <= HARK_RETENTION_DEFAULT_DAYS/);
});

test('sweep schedules as cron expressions', () => {
  assert.equal(everyMinutes(1), '* * * * *');
  assert.equal(everyMinutes(15), '*/15 * * * *');
  assert.equal(everyMinutes(60), '0 */1 * * *');
  assert.equal(everyMinutes(1440), '0 0 * * *');
});

test('the blob store: a folder by default, or an S3 bucket with its settings', () => {
  assert.deepEqual(loadConfig({ HARK_DATA_DIR: '/srv/hark' }).blobs, { kind: 'file', root: '/srv/hark/blobs' });
  assert.deepEqual(loadConfig({ HARK_BLOB_URL: 'file:///var/audio' }).blobs, { kind: 'file', root: '/var/audio' });
  assert.deepEqual(loadConfig({ HARK_BLOB_URL: 's3://hark-audio/prod/eu/', HARK_S3_ENDPOINT: 'http://minio:9000', HARK_S3_ACCESS_KEY_ID: 'a', HARK_S3_SECRET_ACCESS_KEY: 'b' }).blobs, {
    kind: 's3',
    bucket: 'hark-audio',
    prefix: 'prod/eu/',
    endpoint: 'http://minio:9000',
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
  });
  const aws = loadConfig({ HARK_BLOB_URL: 's3://hark-audio', HARK_S3_REGION: 'eu-west-1' }).blobs;
  assert.deepEqual(aws, { kind: 's3', bucket: 'hark-audio', prefix: '', endpoint: null, region: 'eu-west-1', forcePathStyle: false, credentials: null });
  assert.throws(() => loadConfig({ HARK_BLOB_URL: 's3://A_Bad_Bucket' }), /valid bucket name/);
  assert.throws(() => loadConfig({ HARK_BLOB_URL: 's3://hark-audio', HARK_S3_ACCESS_KEY_ID: 'only-one' }), /go together/);
  assert.throws(() => loadConfig({ HARK_BLOB_URL: 'ftp://x' }), /HARK_BLOB_URL/);
});
