// A whisper.cpp job whose progress stops moving is stopped and its run fails, instead of holding
// the worker for ever (a decode that never ended was seen once); a job that answers is returned.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineError } from '../src/engines/transcription/types.ts';
import { settle } from '../src/engines/transcription/whisper-cpp.ts';

const cancelled = () => new EngineError('cancelled', 'the run was cancelled', false);

test('a job with no progress for the stall time is stopped, and fails as transcription_failed', async () => {
  let stops = 0;
  const job = { stop: async () => void stops++, promise: new Promise<never>(() => {}) };
  const since = Date.now();
  await assert.rejects(settle(job, new AbortController().signal, cancelled, () => since, 0.2, true), (error: unknown) => error instanceof EngineError && error.code === 'transcription_failed' && /no progress for 0.2 s/.test(error.message));
  assert.equal(stops, 1, 'the native decode was told to stop');
});

test('a job whose progress keeps moving is waited for, and its result returned', async () => {
  const result = { language: 'en', result: 'hello', segments: [], isAborted: false };
  const job = { stop: async () => {}, promise: new Promise<typeof result>((resolve) => setTimeout(() => resolve(result), 400)) };
  assert.deepEqual(await settle(job, new AbortController().signal, cancelled, () => Date.now(), 0.2, true), result);
});

test('a cancel stops the job at once', async () => {
  const controller = new AbortController();
  const job = { stop: async () => {}, promise: new Promise<never>(() => {}) };
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(settle(job, controller.signal, cancelled, () => Date.now(), 60, true), (error: unknown) => error instanceof EngineError && error.code === 'cancelled');
});
