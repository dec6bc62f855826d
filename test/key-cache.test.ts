// The process's cache of API keys found by their secret: a key is read once per 30 seconds, and a
// lookup under way when the cache is emptied (a revocation, a role changed) answers its own
// request but does not put what it read back into the cache.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Context } from '../src/context.ts';
import { findKeyBySecret, forgetCachedKeys, type KeyHolder } from '../src/features/access/api-keys.ts';

const SECRET = 'hark_a-secret-of-the-right-shape';

/** A database that answers the key lookup with what the test releases, and counts the lookups. */
function fakeDatabase() {
  const pending: ((row: KeyHolder) => void)[] = [];
  const chain: Record<string, unknown> = {};
  for (const step of ['selectFrom', 'leftJoin', 'select', 'where', 'updateTable', 'set']) chain[step] = () => chain;
  chain.executeTakeFirst = () => new Promise<KeyHolder>((resolve) => pending.push(resolve));
  chain.execute = () => Promise.resolve([]);
  const ctx = { db: chain, log: { warn: () => undefined } } as unknown as Context;
  return { ctx, pending, lookups: () => pending.length };
}

const holder = (role: KeyHolder['creator_role']): KeyHolder => ({
  id: 'key_1',
  workspace_id: 'ws_1',
  name: 'a key',
  key_prefix: 'hark_a-se',
  scopes: ['recordings:read', 'recordings:write'],
  expires_at: null,
  last_used_at: null,
  created_at: new Date(),
  created_by: 'acc_1',
  creator_role: role,
});

test('a key found once is answered from the cache', async () => {
  const { ctx, pending, lookups } = fakeDatabase();
  const first = findKeyBySecret(ctx, SECRET);
  pending[0]!(holder('member'));
  assert.equal((await first)?.creator_role, 'member');
  assert.equal((await findKeyBySecret(ctx, SECRET))?.creator_role, 'member');
  assert.equal(lookups(), 1, 'the second request asked the database again');
});

test('a lookup under way when the cache is emptied does not put the old role back', async () => {
  const { ctx, pending, lookups } = fakeDatabase();
  const before = findKeyBySecret(ctx, SECRET);
  // The creator is demoted while the lookup is under way: the change empties the cache.
  forgetCachedKeys(ctx);
  pending[0]!(holder('member'));
  assert.equal((await before)?.creator_role, 'member', 'the request under way is answered with what it read');
  const after = findKeyBySecret(ctx, SECRET);
  assert.equal(lookups(), 2, 'the next request reads the key again instead of the role read before the change');
  pending[1]!(holder('viewer'));
  assert.equal((await after)?.creator_role, 'viewer');
  assert.equal((await findKeyBySecret(ctx, SECRET))?.creator_role, 'viewer');
  assert.equal(lookups(), 2);
});

test('emptying the cache makes the next request read the key again', async () => {
  const { ctx, pending, lookups } = fakeDatabase();
  const first = findKeyBySecret(ctx, SECRET);
  pending[0]!(holder('owner'));
  await first;
  forgetCachedKeys(ctx);
  const second = findKeyBySecret(ctx, SECRET);
  assert.equal(lookups(), 2);
  pending[1]!(holder('viewer'));
  assert.equal((await second)?.creator_role, 'viewer');
});
