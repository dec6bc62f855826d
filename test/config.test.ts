// The configuration schema: defaults, conversion of environment strings, and every problem listed
// at once in words an operator can act on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';
import { everyMinutes } from '../src/runtime.ts';

test('defaults and converted values', () => {
  const config = loadConfig({ PORT: '9000', HARK_IMPORT_ALLOW_PRIVATE: 'true', HARK_RETENTION_DEFAULT_DAYS: '', HARK_REGISTRATION: 'closed' });
  assert.equal(config.port, 9000);
  assert.equal(config.importAllowPrivate, true);
  assert.equal(config.registration, 'closed');
  assert.deepEqual(config.retention, { minDays: 1, maxDays: 30, defaultDays: 7 });
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
