// Speakers by channel: which channels of a recording are transcribed on their own, what each
// channel's speaker is called, and how the channels' transcripts merge into one in time order.
import type { SpeakerSegment, SpeakerWord, TranscriptionResult } from '../../engines/transcription/types.ts';
import { MAX_SEPARATE_CHANNELS } from '../../platform/media/ffmpeg.ts';

export type ChannelMode = 'auto' | 'separate' | 'mix';

/** How many channels to transcribe on their own: 0 means the prepared mix. */
export function separateChannels(mode: ChannelMode, recordingChannels: number | null): number {
  // Recordings prepared before channels were split have no channel files: they are transcribed mixed.
  const channels = recordingChannels ?? 1;
  if (mode === 'mix' || channels < 2 || channels > MAX_SEPARATE_CHANNELS) return 0;
  return channels;
}

/**
 * Each channel's label: the recording's own labels (the metadata field the scenario names, an
 * object by channel number or an array in channel order), then the scenario's, then "channel_<n>".
 */
export function speakerLabels(
  count: number,
  scenarioLabels: Readonly<Record<string, string>>,
  labelsField: string | null,
  metadata: unknown,
): string[] {
  const own = labelsField ? labelsFrom(fieldOf(metadata, labelsField)) : {};
  return Array.from({ length: Math.max(1, count) }, (_, channel) => own[channel] ?? scenarioLabels[String(channel)] ?? `channel_${channel}`);
}

function fieldOf(metadata: unknown, field: string): unknown {
  let value: unknown = metadata;
  for (const part of field.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function labelsFrom(value: unknown): Record<number, string> {
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((label, index) => [String(index), label])
    : value !== null && typeof value === 'object'
      ? Object.entries(value)
      : [];
  const labels: Record<number, string> = {};
  for (const [key, label] of entries) {
    if (/^[0-7]$/.test(key) && typeof label === 'string' && label.trim() !== '') labels[Number(key)] = label.trim().slice(0, 64);
  }
  return labels;
}

export interface SpeakerTranscript {
  language: string;
  text: string;
  segments: SpeakerSegment[];
  words: SpeakerWord[];
}

/**
 * One transcript from the transcripts of each channel (index = channel): every segment and word
 * takes its channel and speaker, and all are merged in time order. With one speaker the engine's
 * own text is kept; with several, the text is their turns, each prefixed with its speaker.
 */
export function mergeChannels(results: readonly TranscriptionResult[], labels: readonly string[]): SpeakerTranscript {
  const tag = <T extends object>(item: T, channel: number) => ({ ...item, channel, speaker: labels[channel] ?? `channel_${channel}` });
  const byTime = (a: { start: number; channel: number }, b: { start: number; channel: number }) => a.start - b.start || a.channel - b.channel;
  const segments = results.flatMap((result, channel) => result.segments.map((segment) => tag(segment, channel))).sort(byTime);
  const words = results.flatMap((result, channel) => result.words.map((word) => tag(word, channel))).sort(byTime);
  const first = results[0];
  const text = results.length === 1 && first ? first.text : turnsText(segments);
  return { language: mostCommonLanguage(results), text, segments, words };
}

/** Whether a transcript has more than one speaker (then text and exports name them). */
export function severalSpeakers(segments: readonly { speaker?: string | undefined }[]): boolean {
  return new Set(segments.map((s) => s.speaker)).size > 1;
}

/** Consecutive segments of one speaker, joined. */
export function turns(segments: readonly SpeakerSegment[]): SpeakerSegment[] {
  const merged: SpeakerSegment[] = [];
  for (const segment of segments) {
    const last = merged.at(-1);
    if (last && last.speaker === segment.speaker && last.channel === segment.channel) {
      merged[merged.length - 1] = { ...last, end: Math.max(last.end, segment.end), text: `${last.text.trim()} ${segment.text.trim()}`.trim() };
    } else merged.push({ ...segment, text: segment.text.trim() });
  }
  return merged.filter((turn) => turn.text !== '');
}

/** "agent: …" a line per turn. */
export function turnsText(segments: readonly SpeakerSegment[]): string {
  return turns(segments)
    .map((turn) => `${turn.speaker}: ${turn.text}`)
    .join('\n');
}

function mostCommonLanguage(results: readonly TranscriptionResult[]): string {
  const counts = new Map<string, number>();
  for (const result of results) counts.set(result.language, (counts.get(result.language) ?? 0) + result.words.length + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'en';
}
