// New ids are prefixed version 7 UUIDs: valid ids of their kind, ordered by creation time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isId, isUuid, newId, uuidV7 } from '../src/ids.ts';

test('a version 7 UUID carries its millisecond, its version and variant, and random bits', () => {
  const at = Date.UTC(2026, 10, 23, 12, 0, 0, 123);
  const id = uuidV7(at);
  assert.ok(isUuid(id), id);
  assert.equal(parseInt(id.replace(/-/g, '').slice(0, 12), 16), at);
  assert.equal(id[14], '7');
  assert.match(id[19]!, /[89ab]/);
  assert.notEqual(uuidV7(at), uuidV7(at), 'two ids of one millisecond differ');
});

test('ids made later sort later, and are ids of their kind', () => {
  const earlier = newId('transcriptionRun');
  const later = `trn-${uuidV7(Date.now() + 1)}`;
  assert.ok(isId('transcriptionRun', earlier) && isId('transcriptionRun', later));
  assert.ok(earlier < later);
  const many = Array.from({ length: 50 }, (_, i) => uuidV7(1_800_000_000_000 + i));
  assert.deepEqual([...many].sort(), many);
});
