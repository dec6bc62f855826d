// Transcript exports: plain text, SubRip (srt) and WebVTT. A transcript of several speakers names
// them: each line of text is a turn ("agent: …"), each cue starts with its speaker.
import type { Segment, SpeakerWord } from '../../engines/transcription/types.ts';
import { subtitleCues } from './subtitle-cues.ts';
import { severalSpeakers, turns } from '../../core/transcripts/speakers.ts';

type ExportSegment = Segment & { speaker?: string; channel?: number };

export const exportFormats = ['json', 'txt', 'srt', 'vtt'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const exportContentTypes: Record<Exclude<ExportFormat, 'json'>, string> = {
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
};

function clock(seconds: number, separator: ',' | '.'): string {
  const total = Math.max(0, Math.round(seconds * 1000));
  const ms = total % 1000;
  const s = Math.floor(total / 1000) % 60;
  const m = Math.floor(total / 60_000) % 60;
  const h = Math.floor(total / 3_600_000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms, 3)}`;
}

const named = severalSpeakers;
const line = (segment: ExportSegment, withSpeaker: boolean) => (withSpeaker ? `${segment.speaker}: ${segment.text.trim()}` : segment.text.trim());

export function toText(segments: readonly ExportSegment[]): string {
  const withSpeaker = named(segments);
  const lines = withSpeaker ? turns(segments.map((s) => ({ ...s, speaker: s.speaker ?? '', channel: s.channel ?? 0 }))) : segments;
  return lines.map((s) => line(s, withSpeaker)).filter((text) => text !== '' && !/^[^:]+: $/.test(text)).join('\n') + '\n';
}

/**
 * A cue's text on one line, never read as a cue's timing ("-->" becomes "->"): a correction typed
 * with line breaks or an arrow cannot end a cue early or start one of its own.
 */
const cueText = (text: string): string => text.replace(/\s+/g, ' ').replaceAll('-->', '->').trim();
/** WebVTT cue text also escapes what would be read as markup (`<b>`) or an entity (`&amp;`). */
const vttText = (text: string): string => cueText(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export function toSrt(segments: readonly ExportSegment[]): string {
  const withSpeaker = named(segments);
  return segments.map((s, i) => `${i + 1}\n${clock(s.start, ',')} --> ${clock(s.end, ',')}\n${cueText(line(s, withSpeaker))}\n`).join('\n');
}

export function toVtt(segments: readonly ExportSegment[]): string {
  const withSpeaker = named(segments);
  return `WEBVTT\n\n${segments.map((s) => `${clock(s.start, '.')} --> ${clock(s.end, '.')}\n${vttText(line(s, withSpeaker))}\n`).join('\n')}`;
}

/** The export of a transcript; subtitles (SRT, VTT) are cut into cues a reader can follow (subtitle-cues.ts). */
export function exportTranscript(format: Exclude<ExportFormat, 'json'>, segments: readonly ExportSegment[], words: readonly SpeakerWord[] = []): string {
  return format === 'txt' ? toText(segments) : format === 'srt' ? toSrt(subtitleCues(segments, words)) : toVtt(subtitleCues(segments, words));
}
