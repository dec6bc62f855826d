// Pure logic: list cursors are read back only as this API wrote them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCursor, decodeTimeCursor, encodeCursor, encodeTimeCursor, offsetPage, offsetStart } from '../src/core/cursor.ts';

const refused = (read: () => unknown, why: RegExp) => assert.throws(read, (error: Error & { code?: string }) => error.code === 'validation_failed' && why.test(error.message));

test('a cursor reads back as written, for its own list only', () => {
  assert.equal(decodeCursor(encodeCursor(42, 'runs:analysis'), 'runs:analysis'), 42);
  refused(() => decodeCursor(encodeCursor(42, 'runs:analysis'), 'search'), /another list \(runs:analysis\)/);
  const time = encodeTimeCursor('1795985180335915', 7);
  assert.deepEqual(decodeTimeCursor(time), { micros: '1795985180335915', seq: 7 });
  refused(() => decodeTimeCursor(time, 'recorded_at'), /not a cursor this API returned/);
  const next = offsetPage([1, 2, 3], 2, 0, 'keys').next_cursor!;
  assert.equal(offsetStart({ limit: 2, offset: 0, cursor: next }, 'keys'), 2);
});

test('an edited cursor is refused: one character more, or the same fields written otherwise', () => {
  const cursor = encodeCursor(42, 'runs:analysis');
  // base64url decoding skips what it cannot place (a lone trailing character, a padding sign): read leniently, these were the same cursor.
  for (const edited of [`${cursor}A`, `${cursor}=`, Buffer.from('{ "s": 42, "l": "runs:analysis" }').toString('base64url'), Buffer.from('[42]').toString('base64url'), 'not-a-cursor', '']) {
    refused(() => decodeCursor(edited, 'runs:analysis'), /not a cursor this API returned/);
  }
  refused(() => decodeTimeCursor(`${encodeTimeCursor('1', 1)}A`), /not a cursor this API returned/);
});
