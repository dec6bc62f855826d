// Pure logic: the growing wait of failed sign-ins, and the sampling of refusals in the log.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LogSampler, loggedUrl } from '../src/http/request-log.ts';
import { growingWait } from '../src/features/access/sign-in-guard.ts';

test('a few failures are free, then each further one doubles the wait, up to 15 minutes', () => {
  assert.deepEqual([0, 1, 2].map((n) => growingWait(n, 3, 0)), [0, 0, 0]);
  assert.deepEqual([3, 4, 5, 6].map((n) => growingWait(n, 3, 0)), [10, 20, 40, 80]);
  assert.equal(growingWait(30, 3, 0), 900);
});

test('the wait runs from the last failure', () => {
  assert.equal(growingWait(4, 3, 5), 15);
  assert.equal(growingWait(4, 3, 20), 0);
  assert.equal(growingWait(4, 3, 19.2), 1, 'rounded up: never 0 while time is left');
});

test('refusals are logged a few a second, each line counting those left out before it', () => {
  const sampler = new LogSampler(2);
  const at = 1_000_000;
  assert.deepEqual([sampler.admit(at), sampler.admit(at + 1), sampler.admit(at + 2), sampler.admit(at + 3)], [{ skipped: 0 }, { skipped: 0 }, null, null]);
  assert.deepEqual(sampler.admit(at + 1000), { skipped: 2 });
  assert.deepEqual(sampler.admit(at + 1001), { skipped: 0 });
});

test('an invitation token never reaches the log: the API and the web page write [token]', () => {
  assert.equal(loggedUrl('/api/v1/invitations/NaujtyOmK3b_abcdefghijklmnop'), '/api/v1/invitations/[token]');
  assert.equal(loggedUrl('/api/v1/invitations/NaujtyOmK3b_abcdefghijklmnop/accept'), '/api/v1/invitations/[token]/accept');
  assert.equal(loggedUrl('/invite/NaujtyOmK3b_abcdefghijklmnop?x=1'), '/invite/[token]?x=1');
  assert.equal(loggedUrl('/api/v1/workspaces/ws-1/invitations/inv-1'), '/api/v1/workspaces/ws-1/invitations/inv-1', 'an invitation id is no secret');
});
