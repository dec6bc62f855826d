// Excerpts of a long call for a language model whose context cannot hold it all, as retrieval
// would choose them: the segments most relevant to the questions, in call order, within a budget
// of rendered characters. Each question (its wording and examples) ranks the segments by the words
// it shares with them, each weighted by how rare it is in the call, or by meaning (the sentence
// encoder's cosine), or both fused by reciprocal rank; the questions then take turns, each adding
// its next best segment and the one after it (where replies are), until the budget is spent.
// Measured by bench/excerpts.ts and not used by the engines: on held-out calls the excerpts held
// hardly more of the turns that answer than a plain cut, so long calls stay in parts that together
// show the model every turn (src/engines/analysis/prompt.ts).
import { formatSegment } from '../src/engines/analysis/prompt.ts';
import type { AnalysisInput, TranscriptSegment } from '../src/engines/analysis/types.ts';
import { cosineSimilarity } from '../src/engines/text/sentence-encoder.ts';

/** Reciprocal rank fusion's constant: ranks far down either list still count, a little. */
const FUSION_K = 60;

/** Words that say nothing of what a segment is about. */
const STOPWORDS = new Set(
  ("a an and are as at be been but by can could did do does for from had has have he her him his how i if in into is it its me my no not of on or our she so that the their them they this to us was we were what when where which who will with would you your " +
    "about any all am just yes okay ok oh um uh well there then than too very get got go going let like").split(' '),
);

/** A word's stem, roughly: "refunded", "refunds" and "refunding" meet at "refund". */
function stem(word: string): string {
  return word.replace(/(?:'s|ing|ed|es|s)$/, '') || word;
}

/** The content words of a text, as stems. */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9']+/g) ?? []).filter((word) => !STOPWORDS.has(word) && word.length > 1).map(stem);
}

/** A question as its ranking reads it: its wording and its examples. */
const questionText = (question: AnalysisInput['questions'][number]): string => [question.text, ...(question.examples ?? [])].join(' ');

/** Segment indexes from most to least relevant to `words`, by the rare words they share (none shared: not ranked). */
function byWords(words: string[], segmentWords: Set<string>[], idf: Map<string, number>): number[] {
  const wanted = [...new Set(words)];
  const scores = segmentWords.map((have) => wanted.reduce((sum, word) => sum + (have.has(word) ? (idf.get(word) ?? 0) : 0), 0));
  return scores.flatMap((score, i) => (score > 0 ? [i] : [])).sort((a, b) => scores[b]! - scores[a]! || a - b);
}

/** Rankings fused by reciprocal rank: a segment high in either comes early. */
function fuse(rankings: number[][]): number[] {
  const score = new Map<number, number>();
  for (const ranking of rankings) ranking.forEach((index, rank) => score.set(index, (score.get(index) ?? 0) + 1 / (FUSION_K + rank + 1)));
  return [...score.keys()].sort((a, b) => score.get(b)! - score.get(a)! || a - b);
}

export type Embed = (texts: string[]) => Promise<number[][]>;

export interface RankOptions {
  /** Which rankings decide: shared words, meaning, or both; meaning needs `embed` (without it, or when it fails, words rank). */
  rankers?: 'words' | 'meaning' | 'both';
  embed?: Embed | undefined;
}

/** For each question, the segments (their indexes) from most to least relevant. */
export async function rankSegments(segments: readonly TranscriptSegment[], questions: AnalysisInput['questions'], { embed, rankers = 'words' }: RankOptions = {}): Promise<number[][]> {
  const segmentWords = segments.map((segment) => new Set(contentWords(segment.text)));
  const documents = new Map<string, number>();
  for (const words of segmentWords) for (const word of words) documents.set(word, (documents.get(word) ?? 0) + 1);
  const idf = new Map([...documents].map(([word, n]) => [word, Math.log(1 + segments.length / n)]));
  let vectors: { segments: number[][]; questions: number[][] } | null = null;
  if (embed && rankers !== 'words') {
    try {
      const made = await embed([...segments.map((segment) => segment.text), ...questions.map(questionText)]);
      vectors = { segments: made.slice(0, segments.length), questions: made.slice(segments.length) };
    } catch {
      vectors = null;
    }
  }
  return questions.map((question, q) => {
    const rankings = rankers === 'meaning' && vectors ? [] : [byWords(contentWords(questionText(question)), segmentWords, idf)];
    if (vectors && rankers !== 'words') {
      const likeness = vectors.segments.map((vector) => cosineSimilarity(vectors!.questions[q]!, vector));
      rankings.push(likeness.map((_, i) => i).sort((a, b) => likeness[b]! - likeness[a]! || a - b));
    }
    return fuse(rankings);
  });
}

/**
 * The segments to send, in call order, rendering (one line each) to at most `maxChars`: the
 * questions take turns, each adding its next best segment and the segment after it. A call that
 * fits is sent whole.
 */
export async function excerptSegments(segments: readonly TranscriptSegment[], questions: AnalysisInput['questions'], maxChars: number, options: RankOptions = {}): Promise<TranscriptSegment[]> {
  const spoken = segments.filter((segment) => segment.text.trim() !== '');
  const size = (segment: TranscriptSegment): number => formatSegment(segment).length + 1;
  if (spoken.reduce((sum, segment) => sum + size(segment), 0) <= maxChars) return spoken;
  const rankings = await rankSegments(spoken, questions, options);
  const chosen = new Set<number>();
  let used = 0;
  const take = (index: number): boolean => {
    if (index >= spoken.length || chosen.has(index)) return true;
    const cost = size(spoken[index]!);
    if (used + cost > maxChars) return false;
    chosen.add(index);
    used += cost;
    return true;
  };
  const next = rankings.map(() => 0);
  let progress = true;
  while (progress) {
    progress = false;
    for (let q = 0; q < rankings.length; q++) {
      const ranking = rankings[q]!;
      while (next[q]! < ranking.length && chosen.has(ranking[next[q]!]!)) next[q]! += 1;
      if (next[q]! >= ranking.length) continue;
      const index = ranking[next[q]!]!;
      next[q]! += 1;
      progress = true;
      // A segment too long for what is left is passed over; a shorter one further down may fit.
      if (take(index)) take(index + 1);
    }
  }
  return [...chosen].sort((a, b) => a - b).map((index) => spoken[index]!);
}
