// Transcript to units: segments are the primary units; punctuated segments are split further by
// wink with times interpolated by character offset, and very long unpunctuated segments are chunked.
import type { AnalysisInput, TranscriptSegment } from '../types.ts';
import { refineEntities } from './entities.ts';
import { round3 } from './format.ts';
import { markInterrogative } from './interrogative.ts';
import { markIrrealis } from './irrealis.ts';
import { markNegation } from './negation.ts';
import { assignGroups } from './synonyms.ts';
import { type Entity, isContent, readSpan, type Token, type Unit } from './tokens.ts';
import type { Wink } from './wink.ts';

// A recogniser segment can run for minutes without punctuation: chunk it so evidence stays short
// and its times stay meaningful.
const MAX_UNIT_TOKENS = 60;
const CHUNK_TOKENS = 35;

function finishUnit(text: string, toks: Token[], ents: Entity[], start: number, end: number, idx: number): Unit {
  for (const t of toks) t.content = isContent(t);
  assignGroups(toks);
  markNegation(toks);
  markInterrogative(toks);
  markIrrealis(toks);
  refineEntities(toks, ents);
  for (const e of ents) for (let k = e.from; k <= e.to; k++) {
    const t = toks[k];
    if (t !== undefined) t.ent = e.type;
  }
  return { idx, text, start: round3(start), end: round3(end), toks, ents, hasInq: toks.some((t) => t.inq) };
}

export function buildUnits(w: Wink, segments: TranscriptSegment[]): Unit[] {
  const units: Unit[] = [];
  for (const seg of segments) {
    const text = typeof seg.text === 'string' ? seg.text.trim() : '';
    if (text === '') continue;
    const segStart = Number.isFinite(seg.start) ? seg.start : 0;
    const segEnd = Number.isFinite(seg.end) && seg.end >= segStart ? seg.end : segStart;
    const span = readSpan(w, text);
    const total = Math.max(1, span.toks.length > 0 ? (span.toks[span.toks.length - 1]?.end ?? text.length) : text.length);
    const timeAt = (offset: number): number => segStart + ((segEnd - segStart) * offset) / total;

    const pieces: [number, number][] = [];
    for (const [a, b] of span.sentences) {
      const len = b - a + 1;
      if (len > MAX_UNIT_TOKENS) {
        const chunks = Math.ceil(len / CHUNK_TOKENS);
        const size = Math.ceil(len / chunks);
        for (let s = a; s <= b; s += size) pieces.push([s, Math.min(b, s + size - 1)]);
      } else {
        pieces.push([a, b]);
      }
    }
    for (const [a, b] of pieces) {
      const first = span.toks[a];
      const last = span.toks[b];
      if (first === undefined || last === undefined) continue;
      const base = first.start;
      const toks = span.toks.slice(a, b + 1).map((t) => ({ ...t, groups: [], start: t.start - base, end: t.end - base }));
      if (!toks.some((t) => t.type !== 'punctuation')) continue;
      const ents = span.ents
        .filter((e) => e.from >= a && e.to <= b)
        .map((e) => ({ type: e.type, from: e.from - a, to: e.to - a }));
      const unitText = text.slice(first.start, last.end);
      units.push(finishUnit(unitText, toks, ents, timeAt(first.start), timeAt(last.end), units.length));
    }
  }
  return units;
}

/** The segments with text, or the whole text as one untimed segment when there are none. */
export function segmentsOf(input: AnalysisInput): TranscriptSegment[] {
  const transcript = input?.transcript;
  const segs = Array.isArray(transcript?.segments) ? transcript.segments.filter((s) => typeof s?.text === 'string' && s.text.trim() !== '') : [];
  if (segs.length > 0) return segs;
  const text = typeof transcript?.text === 'string' ? transcript.text.trim() : '';
  return text === '' ? [] : [{ start: 0, end: 0, text }];
}
