// A transaction the server rolls back for a conflict (a deadlock, a serialization failure) is run
// again; any other failure, or the last attempt's, is the caller's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTransactionConflict, withConflictRetry } from '../src/platform/db/outage.ts';

const failure = (code: string) => Object.assign(new Error(code === '40P01' ? 'deadlock detected' : 'failed'), { code });

test('a deadlock or serialization failure is run again, until it goes through', async () => {
  const codes = ['40P01', '40001'];
  let calls = 0;
  const result = await withConflictRetry(async () => {
    const code = codes[calls++];
    if (code) throw failure(code);
    return 'stored';
  });
  assert.equal(result, 'stored');
  assert.equal(calls, 3);
});

test('other failures are not run again; conflicts stop after the attempts given', async () => {
  let calls = 0;
  await assert.rejects(withConflictRetry(async () => { calls++; throw failure('23505'); }), /failed/);
  assert.equal(calls, 1, 'a unique violation is the statement\'s fault');
  calls = 0;
  await assert.rejects(withConflictRetry(async () => { calls++; throw failure('40P01'); }, 2), /deadlock/);
  assert.equal(calls, 2);
  assert.equal(isTransactionConflict(new Error('no code')), false);
  assert.equal(isTransactionConflict(null), false);
});
