// A call cut where its subject changes (TextTiling over sentence embeddings): each gap between two
// segments is scored by how alike the few segments before it are to the few after it; a gap much
// less alike than the hills on either side of it (its depth) starts a new chapter, if both sides
// are long enough to be chapters. Each chapter is titled by its own top key phrase. A call too
// short to have chapters is one, and is never embedded.
import { Type, type Static } from '@sinclair/typebox';
import { keyPhrases } from './key-phrases.ts';
import { round } from './round.ts';

export const ChapterSchema = Type.Object({
  start: Type.Number(),
  end: Type.Number(),
  title: Type.String({ description: "The chapter's top key phrase (its first words when it has none)" }),
  first_segment: Type.Integer({ minimum: 0, description: 'Index in `segments` of its first segment' }),
  last_segment: Type.Integer({ minimum: 0, description: 'Index in `segments` of its last segment' }),
});
export type Chapter = Static<typeof ChapterSchema>;

interface TimedText {
  text: string;
  start: number;
  end: number;
}

/** Segments on each side of a gap that are compared. */
const WINDOW = 4;
/** A chapter is at least this long, in segments and in seconds. */
const MIN_CHAPTER_SEGMENTS = 3;
const MIN_CHAPTER_SECONDS = 15;
/** A gap is a break when its depth is at least this (cosine similarity lost, summed over both sides)… */
const MIN_DEPTH = 0.12;

/** Whether a call is long enough to be cut at all (two chapters of the least length). */
export function mayHaveChapters(segments: readonly TimedText[]): boolean {
  const spoken = segments.filter((s) => s.text.trim() !== '');
  return spoken.length >= 2 * MIN_CHAPTER_SEGMENTS && (spoken.at(-1)?.end ?? 0) - (spoken[0]?.start ?? 0) >= 2 * MIN_CHAPTER_SECONDS;
}

function normalised(vector: readonly number[]): number[] {
  const length = Math.hypot(...vector) || 1;
  return vector.map((v) => v / length);
}

function meanOf(vectors: readonly (readonly number[])[]): number[] {
  const sum = new Array<number>(vectors[0]?.length ?? 0).fill(0);
  for (const vector of vectors) vector.forEach((v, i) => (sum[i]! += v));
  return normalised(sum);
}

const cosine = (a: readonly number[], b: readonly number[]) => a.reduce((sum, v, i) => sum + v * b[i]!, 0);

/**
 * Where new chapters start (indexes into the units), from each unit's embedding and times: the
 * deepest gaps first, each kept when it leaves every chapter long enough.
 */
export function chapterStarts(vectors: readonly (readonly number[])[], units: readonly { start: number; end: number }[]): number[] {
  const n = vectors.length;
  if (n < 2 * MIN_CHAPTER_SEGMENTS) return [];
  const unit = vectors.map(normalised);
  // Similarity across the gap after unit g (between g and g + 1).
  const similarity: number[] = [];
  for (let g = 0; g < n - 1; g++) similarity.push(cosine(meanOf(unit.slice(Math.max(0, g - WINDOW + 1), g + 1)), meanOf(unit.slice(g + 1, g + 1 + WINDOW))));
  const depth = similarity.map((value, g) => {
    let left = value;
    for (let j = g - 1; j >= 0 && similarity[j]! >= left; j--) left = similarity[j]!;
    let right = value;
    for (let j = g + 1; j < similarity.length && similarity[j]! >= right; j++) right = similarity[j]!;
    return left - value + (right - value);
  });
  const mean = depth.reduce((sum, d) => sum + d, 0) / depth.length;
  const spread = Math.sqrt(depth.reduce((sum, d) => sum + (d - mean) ** 2, 0) / depth.length);
  const cutoff = Math.max(MIN_DEPTH, mean + spread / 2);
  const gaps = depth.map((d, g) => ({ g, d })).filter(({ d }) => d >= cutoff).sort((a, b) => b.d - a.d);
  const starts: number[] = [];
  const longEnough = (from: number, to: number) => to - from + 1 >= MIN_CHAPTER_SEGMENTS && units[to]!.end - units[from]!.start >= MIN_CHAPTER_SECONDS;
  for (const { g } of gaps) {
    const start = g + 1;
    const bounds = [0, ...starts, n].sort((a, b) => a - b);
    const after = bounds.find((b) => b > start)!;
    const before = bounds.filter((b) => b < start).at(-1)!;
    if (longEnough(before, start - 1) && longEnough(start, after - 1)) starts.push(start);
  }
  return starts.sort((a, b) => a - b);
}

/** Chapters starting at the given spoken segments, each titled by its own text. */
function chaptersAt(segments: readonly TimedText[], starts: readonly number[]): Chapter[] {
  const spoken = segments.flatMap((segment, index) => (segment.text.trim() === '' ? [] : [{ ...segment, index }]));
  const bounds = [0, ...starts.filter((s) => s > 0 && s < spoken.length), spoken.length];
  return bounds.slice(0, -1).flatMap((from, i) => {
    const part = spoken.slice(from, bounds[i + 1]);
    const first = part[0];
    const last = part.at(-1);
    if (!first || !last) return [];
    const title = keyPhrases(part)[0]?.text ?? first.text.split(/\s+/).slice(0, 5).join(' ');
    return [{ start: round(first.start), end: round(last.end), title, first_segment: first.index, last_segment: last.index }];
  });
}

/** The call as one chapter ([] when nothing was said). */
export const wholeCall = (segments: readonly TimedText[]): Chapter[] => chaptersAt(segments, []);

/** The call's chapters from its segments; `embed` is asked only when the call may have several. */
export async function transcriptChapters(segments: readonly TimedText[], embed: (texts: string[]) => Promise<number[][]>): Promise<Chapter[]> {
  const spoken = segments.filter((segment) => segment.text.trim() !== '');
  if (!mayHaveChapters(spoken)) return wholeCall(segments);
  return chaptersAt(segments, chapterStarts(await embed(spoken.map((s) => s.text)), spoken));
}

/** A corrected version's chapters: where the previous version's started, titled from the new text. */
export function retitledChapters(previous: readonly Chapter[], segments: readonly TimedText[]): Chapter[] {
  const spokenIndex = segments.flatMap((segment, index) => (segment.text.trim() === '' ? [] : [index]));
  const starts = previous.map((chapter) => spokenIndex.findIndex((index) => index >= chapter.first_segment)).filter((start) => start > 0);
  return chaptersAt(segments, [...new Set(starts)]);
}
