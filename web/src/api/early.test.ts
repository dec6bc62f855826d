import { describe, expect, test } from 'vitest';
import { earlyAnswers, requestKey } from './early.ts';

const origin = 'http://hark.test';
const answer = (status: number) => Promise.resolve(new Response('{}', { status }));

describe('early answers', () => {
  test('a request matches whatever the order of its query parameters and whether its origin is written', () => {
    expect(requestKey('/api/v1/workspaces/ws-1/transcription-runs?recording_id=fl-1&limit=50', origin)).toBe(requestKey(`${origin}/api/v1/workspaces/ws-1/transcription-runs?limit=50&recording_id=fl-1`, origin));
    expect(requestKey('/a?x=1', origin)).not.toBe(requestKey('/a?x=2', origin));
    expect(requestKey('/a', origin)).not.toBe(requestKey('/b', origin));
  });

  test('each answer is taken once, while fresh', async () => {
    const early = earlyAnswers({ '/a?limit=50&id=1': answer(200), '/b': answer(200) }, origin);
    expect((await early.take(`${origin}/a?id=1&limit=50`, 100))?.status).toBe(200);
    expect(await early.take(`${origin}/a?id=1&limit=50`, 100)).toBeNull();
    // Taken after the first seconds, the app asks the server again.
    expect(await early.take(`${origin}/b`, 6_000)).toBeNull();
    expect(await early.take(`${origin}/c`, 100)).toBeNull();
  });

  test('an answer the early script decided not to ask for (nothing there) leaves the app to ask', async () => {
    const early = earlyAnswers({ '/transcript': Promise.resolve(null) }, origin);
    expect(await early.take(`${origin}/transcript`, 100)).toBeNull();
  });

  test('a refusal or a failure is not handed on: the app asks again', async () => {
    const early = earlyAnswers({ '/missing': answer(404), '/down': Promise.reject(new TypeError('network')) }, origin);
    expect(await early.take(`${origin}/missing`, 100)).toBeNull();
    expect(await early.take(`${origin}/down`, 100)).toBeNull();
  });
});
