// Talk statistics of a transcript: how long each speaker talked, how fast, their longest turn, and
// the silence, overlap and interruptions between speakers. Pure: computed from timed words (or
// segments when the engine gave no words), clipped to where each channel has sound when that was
// measured, when the transcript is stored, and for older ones when read.
import { Type, type Static } from '@sinclair/typebox';
import type { SpeakerSegment, SpeakerWord } from '../../engines/transcription/types.ts';
import { clipToSpeech, type Span } from './voice-activity.ts';
import { round } from './round.ts';

/** Where each channel has sound (voice-activity.ts), by channel number. */
export type ChannelSpeech = Readonly<Record<number, readonly Span[]>>;
export const ChannelSpeechSchema = Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.Array(Type.Tuple([Type.Number(), Type.Number()])));

/** Pauses up to this long inside one speaker's speech count as talking. */
const SPEECH_GAP_SECONDS = 0.5;
/** A speaker's pause longer than this ends their turn. */
const TURN_GAP_SECONDS = 1.5;
/**
 * The longest a recognised word can plausibly be spoken: a fixed part and a part per letter. A
 * longer "word" spans silence the recogniser folded into it (8 s of digital silence seen as one
 * word); it counts from its start for this long only, so silence never counts as talk, overlap or
 * an interruption.
 */
export function plausibleWordSeconds(word: string): number {
  return 0.4 + 0.12 * [...word.replace(/[^\p{L}\p{N}]/gu, '')].length;
}

/** A turn starting at least this far into another speaker's speech (and before its end) interrupts it. */
const INTERRUPT_MARGIN_SECONDS = 0.2;

// The shape of the statistics (the transcript card's `stats`).
const SpeakerStatsSchema = Type.Object({
  speaker: Type.String(),
  channel: Type.Integer(),
  talk_seconds: Type.Number({ description: 'Time speaking (pauses under half a second included)' }),
  talk_ratio: Type.Number({ description: "This speaker's share of all talk, 0 to 1" }),
  words: Type.Integer(),
  words_per_minute: Type.Number({ description: 'Words per minute of talk' }),
  turns: Type.Integer({ description: 'Stretches of speech without a pause over 1.5 s' }),
  longest_turn_seconds: Type.Number(),
  interruptions: Type.Integer({ description: 'Turns of this speaker that started while another speaker was mid-turn' }),
});

export const TalkStatsSchema = Type.Object(
  {
    speakers: Type.Array(SpeakerStatsSchema),
    silence_seconds: Type.Number({ description: 'Time nobody speaks' }),
    overlap_seconds: Type.Number({ description: 'Time two speakers or more speak at once' }),
    interruptions: Type.Integer(),
  },
  { $id: 'TalkStats' },
);
export type TalkStats = Static<typeof TalkStatsSchema>;
export type SpeakerStats = Static<typeof SpeakerStatsSchema>;

type Interval = [start: number, end: number];

function mergeIntervals(intervals: readonly Interval[], gap: number): Interval[] {
  const sorted = [...intervals].filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
  const merged: Interval[] = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last && start - last[1] <= gap) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

const measure = (intervals: readonly Interval[]) => intervals.reduce((sum, [s, e]) => sum + (e - s), 0);

/** Time covered by at least two of the lists (each list already merged, so non-overlapping). */
function overlapOf(lists: readonly Interval[][]): number {
  const edges = lists.flatMap((list) => list.flatMap(([s, e]): [number, number][] => [[s, 1], [e, -1]])).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let active = 0;
  let since = 0;
  let total = 0;
  for (const [time, delta] of edges) {
    if (active >= 2) total += time - since;
    active += delta;
    since = time;
  }
  return total;
}

/**
 * The time a word or segment was spoken: its parts where its channel has sound; with no sound
 * measured under it (or none measured), its own times, a word's cut to a plausible length.
 */
function spokenParts(item: { start: number; end: number; channel: number }, sound: ChannelSpeech | undefined, plausibleEnd: number): Span[] {
  const spans = sound?.[item.channel];
  const inside = spans ? clipToSpeech(item.start, item.end, spans) : [];
  return inside.length > 0 ? inside : [[item.start, plausibleEnd]];
}

export function talkStats(segments: readonly SpeakerSegment[], words: readonly SpeakerWord[], durationSeconds: number | null, sound?: ChannelSpeech): TalkStats {
  const pieces = <T extends { start: number; end: number; channel: number; speaker: string }>(item: T, count: number, plausibleEnd: number) =>
    spokenParts(item, sound, plausibleEnd).map(([start, end], i) => ({ start, end, speaker: item.speaker, channel: item.channel, words: i === 0 ? count : 0 }));
  const timed: { start: number; end: number; speaker: string; channel: number; words: number }[] =
    words.length > 0
      ? words.flatMap((w) => pieces(w, 1, Math.min(w.end, w.start + plausibleWordSeconds(w.word))))
      : segments.flatMap((s) => pieces(s, s.text.split(/\s+/).filter(Boolean).length, s.end));
  const speakers = [...new Map(timed.map((t) => [t.speaker, t.channel])).entries()].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  const speech = new Map<string, Interval[]>();
  const turnsOf = new Map<string, Interval[]>();
  for (const [speaker] of speakers) {
    const own = timed.filter((t) => t.speaker === speaker).map((t): Interval => [t.start, t.end]);
    speech.set(speaker, mergeIntervals(own, SPEECH_GAP_SECONDS));
    turnsOf.set(speaker, mergeIntervals(own, TURN_GAP_SECONDS));
  }
  const allSpeech = mergeIntervals([...speech.values()].flat(), 0);
  const totalTalk = [...speech.values()].reduce((sum, list) => sum + measure(list), 0);
  const end = Math.max(durationSeconds ?? 0, ...allSpeech.map(([, e]) => e));

  let interruptions = 0;
  const perSpeaker = speakers.map(([speaker, channel]): SpeakerStats => {
    const talk = measure(speech.get(speaker) ?? []);
    const turns = turnsOf.get(speaker) ?? [];
    const count = timed.filter((t) => t.speaker === speaker).reduce((sum, t) => sum + t.words, 0);
    // Interrupting: starting a turn while another speaker is actually speaking (not in a pause).
    const others = speakers.filter(([other]) => other !== speaker).flatMap(([other]) => speech.get(other) ?? []);
    const interrupting = turns.filter(([start]) => others.some(([s, e]) => start - s >= INTERRUPT_MARGIN_SECONDS && e - start >= INTERRUPT_MARGIN_SECONDS)).length;
    interruptions += interrupting;
    return {
      speaker,
      channel,
      talk_seconds: round(talk),
      talk_ratio: totalTalk > 0 ? round(talk / totalTalk) : 0,
      words: count,
      words_per_minute: talk > 0 ? round((count * 60) / talk, 1) : 0,
      turns: turns.length,
      longest_turn_seconds: round(Math.max(0, ...turns.map(([s, e]) => e - s))),
      interruptions: interrupting,
    };
  });
  return {
    speakers: perSpeaker,
    silence_seconds: round(Math.max(0, end - measure(allSpeech))),
    overlap_seconds: round(overlapOf([...speech.values()])),
    interruptions,
  };
}
