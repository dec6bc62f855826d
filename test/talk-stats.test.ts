// Pure logic: talk statistics from timed words of two speakers — talk time and ratio, pace, turns,
// silence, overlap and interruptions (a turn started while the other is speaking, not in a pause).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plausibleWordSeconds, talkStats } from '../src/core/transcripts/talk-stats.ts';

/** Words of one second each, back to back, from `from`. */
const said = (speaker: string, channel: number, from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ word: `spoken${i}`, start: from + i, end: from + i + 1, confidence: 1, speaker, channel }));

test('talk time, ratio, pace, turns and silence of two speakers who take turns', () => {
  const words = [...said('agent', 0, 0, 4), ...said('customer', 1, 5, 2), ...said('agent', 0, 10, 2)];
  const stats = talkStats([], words, 14);
  assert.deepEqual(stats.speakers.map((s) => [s.speaker, s.talk_seconds, s.talk_ratio, s.words, s.words_per_minute, s.turns, s.longest_turn_seconds]), [
    ['agent', 6, 0.75, 6, 60, 2, 4],
    ['customer', 2, 0.25, 2, 60, 1, 2],
  ]);
  assert.equal(stats.silence_seconds, 6);
  assert.equal(stats.overlap_seconds, 0);
  assert.equal(stats.interruptions, 0);
});

test('overlap is the time both speak; starting while the other speaks interrupts, starting in their pause does not', () => {
  // The customer cuts in at 2 s while the agent speaks until 4 s; later the agent pauses 1 s
  // (inside one turn) and the customer says something only in that pause.
  const words = [...said('agent', 0, 0, 4), ...said('customer', 1, 2, 3), ...said('agent', 0, 10, 2), ...said('agent', 0, 13, 2), { word: 'yes', start: 12.1, end: 12.9, confidence: 1, speaker: 'customer', channel: 1 }];
  const stats = talkStats([], words, 16);
  assert.equal(stats.overlap_seconds, 2);
  const customer = stats.speakers.find((s) => s.speaker === 'customer');
  assert.equal(customer?.interruptions, 1, 'the cut-in at 2 s only');
  assert.equal(stats.interruptions, 1);
  assert.equal(stats.speakers.find((s) => s.speaker === 'agent')?.interruptions, 0);
});

test('segments stand in for words when the engine gave none; an empty transcript is all silence', () => {
  const stats = talkStats([{ start: 1, end: 3, text: 'hello there you', channel: 0, speaker: 'channel_0' }], [], 5);
  assert.deepEqual(stats.speakers.map((s) => [s.talk_seconds, s.words]), [[2, 3]]);
  assert.equal(stats.silence_seconds, 3);
  assert.deepEqual(talkStats([], [], 7), { speakers: [], silence_seconds: 7, overlap_seconds: 0, interruptions: 0 });
});

test('a recognised word spanning seconds of silence counts only as long as a word can be said', () => {
  // The agent's "okay" runs 8 s over digital silence while the customer speaks from 3 s.
  const words = [...said('agent', 0, 0, 2), { word: 'okay', start: 2, end: 10, confidence: 0.4, speaker: 'agent', channel: 0 }, ...said('customer', 1, 4, 3)];
  const stats = talkStats([], words, 12);
  const agent = stats.speakers.find((s) => s.speaker === 'agent')!;
  assert.equal(agent.talk_seconds, 2 + plausibleWordSeconds('okay'));
  assert.equal(stats.overlap_seconds, 0, 'no phantom overlap');
  assert.equal(stats.interruptions, 0, 'no phantom interruption');
  assert.equal(agent.longest_turn_seconds, 2 + plausibleWordSeconds('okay'));
  const shares = stats.speakers.reduce((sum, s) => sum + s.talk_ratio, 0);
  assert.ok(Math.abs(shares - 1) < 0.01, `shares add up: ${shares}`);
});
