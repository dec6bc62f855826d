// Waiting on a run without polling: a notice wakes the waiter at once, a lost one costs only the
// wait's own limit, and an abort ends the wait.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Context } from '../src/context.ts';
import type { Trx } from '../src/platform/db/database.ts';
import { announceSettled, heardSettled, waitForSettled } from '../src/core/settled.ts';

const embedded = { database: { kind: 'pglite' } } as unknown as Context;
const noTransaction = null as unknown as Trx;

test('a notice on the embedded store wakes the waiters of that id only', async () => {
  let woken = '';
  const run = waitForSettled(['trn-1', 'rec-1'], 60_000).then(() => (woken += 'run'));
  const other = waitForSettled(['trn-2'], 50).then(() => (woken += 'other'));
  await announceSettled(embedded, noTransaction, 'rec-1');
  await run;
  assert.equal(woken, 'run', 'woken by its recording, before the other wait ended');
  await other;
});

test('a LISTEN notice, a lost connection, a time limit and an abort each end a wait', async () => {
  await Promise.all([waitForSettled(['trn-3'], 60_000), Promise.resolve().then(() => heardSettled('trn-3'))]);
  await Promise.all([waitForSettled(['trn-4'], 60_000), Promise.resolve().then(() => heardSettled())]);
  await waitForSettled(['trn-5'], 10);
  const abort = new AbortController();
  await Promise.all([waitForSettled(['trn-6'], 60_000, abort.signal), Promise.resolve().then(() => abort.abort())]);
});
