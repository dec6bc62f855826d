// Redaction of a transcript before it is stored: personal data of the scenario's kinds is replaced
// by [CREDIT_CARD] and the like in the text, the segments and the words, keeping times, and the
// times of what was redacted are returned for silencing the audio. Each channel is read as one
// stream, so a number said across two segments is found whole.
import type { SpeakerSegment, SpeakerWord } from '../../engines/transcription/types.ts';
import { detectPii, normalToken, piiMarker, type PiiKind, type PiiRange } from './pii.ts';
import { turnsText, type SpeakerTranscript } from '../../core/transcripts/speakers.ts';

export interface RedactedSpan {
  start: number;
  end: number;
  channel: number;
  kind: PiiKind;
}

interface TokenAt {
  piece: number;
  start: number;
  end: number;
}

/** Punctuation that stays outside a redacted token ("4111." keeps its full stop). */
const TRAILING = /[.,;:!?"')\]]+$/;
const TRAILING_INSIDE_PARENS = /[.,;:!?"'\]]+$/;
const LEADING = /^["'[]+/;

function tokenize(pieces: readonly string[]) {
  const raw: string[] = [];
  const at: TokenAt[] = [];
  pieces.forEach((piece, index) => {
    for (const match of piece.matchAll(/\S+/g)) {
      const lead = LEADING.exec(match[0])?.[0].length ?? 0;
      const core = match[0].slice(lead);
      const trail = (core.includes('(') ? TRAILING_INSIDE_PARENS : TRAILING).exec(core)?.[0].length ?? 0;
      raw.push(core.slice(0, core.length - trail));
      at.push({ piece: index, start: match.index + lead, end: match.index + match[0].length - trail });
    }
  });
  return { raw, tokens: raw.map(normalToken), at };
}

/** Each piece with the personal data in it (found across pieces) replaced by its marker. */
export function redactStrings(pieces: readonly string[], kinds: readonly PiiKind[]): { pieces: string[]; ranges: PiiRange[]; at: TokenAt[] } {
  const { raw, tokens, at } = tokenize(pieces);
  const ranges = kinds.length ? detectPii(tokens, raw, kinds) : [];
  const edits = new Map<number, { start: number; end: number; marker: string }[]>();
  for (const range of ranges) {
    const byPiece = new Map<number, { start: number; end: number }>();
    for (let i = range.from; i <= range.to; i++) {
      const token = at[i];
      if (!token) continue;
      const edit = byPiece.get(token.piece);
      byPiece.set(token.piece, edit ? { start: edit.start, end: token.end } : { start: token.start, end: token.end });
    }
    [...byPiece.entries()].forEach(([piece, edit], order) => {
      const list = edits.get(piece) ?? [];
      list.push({ ...edit, marker: order === 0 ? piiMarker(range.kind) : '' });
      edits.set(piece, list);
    });
  }
  const redacted = pieces.map((piece, index) => {
    let text = piece;
    for (const edit of (edits.get(index) ?? []).sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.marker + text.slice(edit.end);
    return edits.has(index) ? text.replace(/[ \t]{2,}/g, ' ').trim() : text;
  });
  return { pieces: redacted, ranges, at };
}

function redactChannelWords(words: readonly SpeakerWord[], kinds: readonly PiiKind[]): { words: SpeakerWord[]; spans: RedactedSpan[] } {
  const raw = words.map((w) => w.word.trim().replace(TRAILING, ''));
  const ranges = detectPii(raw.map(normalToken), raw, kinds);
  const out: SpeakerWord[] = [];
  const spans: RedactedSpan[] = [];
  let next = 0;
  const keep = (from: number, to: number) => {
    for (let i = from; i < to; i++) out.push(words[i] as SpeakerWord);
  };
  for (const range of ranges) {
    keep(next, range.from);
    const covered = words.slice(range.from, range.to + 1);
    const first = covered[0];
    const last = covered.at(-1);
    if (first && last) {
      // A written form (punctuated_word, from formatting or a correction) is replaced as well,
      // keeping the punctuation the last word ended with ("… 1111." → "[CREDIT_CARD].").
      const ending = /[.,?!;:]+$/.exec((last as { punctuated_word?: string }).punctuated_word ?? '')?.[0] ?? '';
      const written = 'punctuated_word' in first ? { punctuated_word: piiMarker(range.kind) + ending } : {};
      out.push({ ...first, end: last.end, word: piiMarker(range.kind), ...written, confidence: Math.min(...covered.map((w) => w.confidence)) });
      spans.push({ start: first.start, end: last.end, channel: first.channel, kind: range.kind });
    }
    next = range.to + 1;
  }
  keep(next, words.length);
  return { words: out, spans };
}

const channelsOf = (items: readonly { channel: number }[]) => [...new Set(items.map((item) => item.channel))].sort((a, b) => a - b);
const byTime = (a: { start: number; channel: number }, b: { start: number; channel: number }) => a.start - b.start || a.channel - b.channel;

/**
 * The transcript with personal data of `kinds` replaced, and the times of what was replaced (from
 * the words, or from the segments that changed when the engine gave no words).
 */
export function redactTranscript(transcript: SpeakerTranscript, kinds: readonly PiiKind[], severalSpeakers: boolean): { transcript: SpeakerTranscript; spans: RedactedSpan[] } {
  if (kinds.length === 0) return { transcript, spans: [] };
  const words: SpeakerWord[] = [];
  const segments: SpeakerSegment[] = [];
  const spans: RedactedSpan[] = [];
  for (const channel of channelsOf([...transcript.words, ...transcript.segments])) {
    const own = redactChannelWords(transcript.words.filter((w) => w.channel === channel), kinds);
    for (const word of own.words) words.push(word);
    for (const span of own.spans) spans.push(span);
    const channelSegments = transcript.segments.filter((s) => s.channel === channel);
    const { pieces, ranges, at } = redactStrings(channelSegments.map((s) => s.text), kinds);
    // Without words, a segment that held personal data is silenced whole, labelled with its kind.
    const kindIn = new Map<number, PiiKind>();
    for (const range of ranges) {
      for (let i = range.from; i <= range.to; i++) {
        const piece = at[i]?.piece;
        if (piece !== undefined && !kindIn.has(piece)) kindIn.set(piece, range.kind);
      }
    }
    channelSegments.forEach((segment, index) => {
      const text = pieces[index] ?? '';
      const kind = kindIn.get(index);
      if (kind && transcript.words.length === 0) spans.push({ start: segment.start, end: segment.end, channel, kind });
      if (text.trim() !== '') segments.push({ ...segment, text });
    });
  }
  segments.sort(byTime);
  words.sort(byTime);
  const text = severalSpeakers ? turnsText(segments) : (redactStrings([transcript.text], kinds).pieces[0] ?? '');
  return { transcript: { ...transcript, text, segments, words }, spans: spans.sort((a, b) => a.start - b.start) };
}
