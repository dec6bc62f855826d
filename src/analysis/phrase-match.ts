// Phrase rules: whether any of a question's phrases was said, found in the transcript's timed
// words without a model. Words are compared lower-cased without punctuation, and a phrase matches
// a stretch of words within one word-level edit per four words (a recognition slip: "this call is
// recorded" heard as "this call his recorded"). Deterministic, whichever engine the scenario uses.

export interface TimedToken {
  word: string;
  start: number;
  end: number;
}

export interface PhraseMatch {
  phrase: string;
  /** The words as the transcript has them, and their times. */
  text: string;
  start: number;
  end: number;
  /** Word edits between the phrase and what was said. */
  edits: number;
}

export const normalWords = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Slips tolerated in a phrase of `n` words. */
export const allowedEdits = (n: number) => Math.floor(n / 4);

/**
 * The best match of `phrase` in `tokens` (approximate substring matching over words: fewest edits,
 * then earliest), or null when every stretch needs more edits than allowed.
 */
export function matchPhrase(phrase: string, tokens: readonly TimedToken[]): PhraseMatch | null {
  const pattern = normalWords(phrase);
  const words = tokens.map((t) => t.word);
  const n = pattern.length;
  if (n === 0 || words.length === 0) return null;
  const limit = allowedEdits(n);
  // cost[i][j]: edits to match pattern[0..i) ending at word j; start[i][j]: where that match starts.
  let cost = new Array<number>(words.length + 1).fill(0);
  let start = Array.from({ length: words.length + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const nextCost = new Array<number>(words.length + 1);
    const nextStart = new Array<number>(words.length + 1);
    nextCost[0] = i;
    nextStart[0] = 0;
    for (let j = 1; j <= words.length; j++) {
      const same = pattern[i - 1] === words[j - 1] ? 0 : 1;
      const options: [number, number][] = [
        [(cost[j - 1] ?? 0) + same, start[j - 1] ?? 0],
        [(cost[j] ?? 0) + 1, start[j] ?? 0],
        [(nextCost[j - 1] ?? 0) + 1, nextStart[j - 1] ?? 0],
      ];
      const best = options.reduce((a, b) => (b[0] < a[0] ? b : a));
      nextCost[j] = best[0];
      nextStart[j] = best[1];
    }
    cost = nextCost;
    start = nextStart;
  }
  let found: PhraseMatch | null = null;
  for (let j = 1; j <= words.length; j++) {
    const edits = cost[j] ?? Infinity;
    const from = start[j] ?? 0;
    if (edits > limit || from >= j) continue;
    if (found && edits >= found.edits) continue;
    const matched = tokens.slice(from, j);
    const first = matched[0];
    const last = matched.at(-1);
    if (!first || !last) continue;
    found = { phrase, text: matched.map((t) => t.word).join(' '), start: first.start, end: last.end, edits };
  }
  return found;
}

/** Every phrase's best match, best first. */
export function matchPhrases(phrases: readonly string[], tokens: readonly TimedToken[]): PhraseMatch[] {
  return phrases
    .map((phrase) => matchPhrase(phrase, tokens))
    .filter((match): match is PhraseMatch => match !== null)
    .sort((a, b) => a.edits / normalWords(a.phrase).length - b.edits / normalWords(b.phrase).length || a.start - b.start);
}

/** Timed words of a transcript as normalised tokens (a word the recogniser wrote as two, split). */
export function timedTokens(words: readonly TimedToken[]): TimedToken[] {
  return words.flatMap((w) => normalWords(w.word).map((word) => ({ word, start: w.start, end: w.end })));
}
