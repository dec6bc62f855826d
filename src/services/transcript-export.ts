// Transcript exports: plain text, SubRip (srt) and WebVTT.
import type { Segment } from '../engines/transcription/types.ts';

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

export function toText(segments: readonly Segment[]): string {
  return segments.map((s) => s.text.trim()).filter(Boolean).join('\n') + '\n';
}

export function toSrt(segments: readonly Segment[]): string {
  return segments.map((s, i) => `${i + 1}\n${clock(s.start, ',')} --> ${clock(s.end, ',')}\n${s.text.trim()}\n`).join('\n');
}

export function toVtt(segments: readonly Segment[]): string {
  return `WEBVTT\n\n${segments.map((s) => `${clock(s.start, '.')} --> ${clock(s.end, '.')}\n${s.text.trim()}\n`).join('\n')}`;
}

export function exportTranscript(format: Exclude<ExportFormat, 'json'>, segments: readonly Segment[]): string {
  return format === 'txt' ? toText(segments) : format === 'srt' ? toSrt(segments) : toVtt(segments);
}
