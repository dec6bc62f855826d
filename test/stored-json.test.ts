// Stored JSON is checked when read: a row that does not match its schema fails with the path.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readStored } from '../src/platform/db/stored-json.ts';
import { RetrySettings } from '../src/core/scenarios/scenario-card.ts';
import { transcriptParts } from '../src/core/transcripts/transcript.ts';

test('a matching value is returned as it is', () => {
  const value = { max_attempts: 3, backoff_seconds: 5 };
  assert.equal(readStored(RetrySettings, value, 'retry'), value);
});

test('a value that does not match names what and where', () => {
  assert.throws(() => readStored(RetrySettings, { max_attempts: '3', backoff_seconds: 5 }, 'scenario x retry'), /stored scenario x retry does not match its schema at \/max_attempts/);
});

test("a transcript's segments and words are checked, not cast", () => {
  const good = { id: 't1', segments: [{ start: 0, end: 1, text: 'hello' }], words: [{ start: 0, end: 1, word: 'hello', confidence: 0.9 }] };
  assert.deepEqual(transcriptParts(good).words[0]?.word, 'hello');
  assert.throws(() => transcriptParts({ ...good, words: [{ start: 0, end: 1, word: 'hello' }] }), /transcript t1 words .* at \/0\/confidence/);
});
