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
  /** Said after a denial ("i can't refund it", "no refund"): the words are there, the act may not be. */
  denied: boolean;
}

/** Words that deny what follows them within a few words ("can't", "won't be able to"), as normalWords writes them. */
const DENYING = new Set(['not', 'never', 'cant', 'cannot', 'dont', 'doesnt', 'didnt', 'wont', 'wouldnt', 'couldnt', 'shouldnt', 'isnt', 'arent', 'wasnt', 'werent', 'unable', 'refuse', 'refused']);
/** How far back a denial reaches: "can't offer you a refund" (4), "no refund" (1, for "no" alone: "no, i can refund it" is not one). */
const DENIAL_REACH = 4;

/** Whether the words before `from` deny what is said from there. */
function deniedAt(tokens: readonly TimedToken[], from: number, phrase: readonly string[]): boolean {
  if (DENYING.has(phrase[0]!) || phrase[0] === 'no') return false;
  if (tokens[from - 1]?.word === 'no') return true;
  for (let k = from - 1; k >= Math.max(0, from - DENIAL_REACH); k--) if (DENYING.has(tokens[k]!.word)) return true;
  return false;
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
  const n = pattern.length;
  const m = tokens.length;
  if (n === 0 || m === 0) return null;
  const limit = allowedEdits(n);
  // A match has at least n − limit of the phrase's words: without that many present, no search.
  const present = new Set(tokens.map((t) => t.word));
  if (pattern.filter((word) => present.has(word)).length < n - limit) return null;
  // cost[j]: edits to match the phrase so far ending at token j; start[j]: where that match starts.
  let cost = new Int32Array(m + 1);
  let start = Int32Array.from({ length: m + 1 }, (_, j) => j);
  let nextCost = new Int32Array(m + 1);
  let nextStart = new Int32Array(m + 1);
  for (let i = 1; i <= n; i++) {
    nextCost[0] = i;
    nextStart[0] = 0;
    const word = pattern[i - 1];
    for (let j = 1; j <= m; j++) {
      // Substitute (or match), skip a phrase word, or take an extra spoken word; first best wins.
      let best = (cost[j - 1] as number) + (word === tokens[j - 1]?.word ? 0 : 1);
      let from = start[j - 1] as number;
      if ((cost[j] as number) + 1 < best) {
        best = (cost[j] as number) + 1;
        from = start[j] as number;
      }
      if ((nextCost[j - 1] as number) + 1 < best) {
        best = (nextCost[j - 1] as number) + 1;
        from = nextStart[j - 1] as number;
      }
      nextCost[j] = best;
      nextStart[j] = from;
    }
    [cost, nextCost] = [nextCost, cost];
    [start, nextStart] = [nextStart, start];
  }
  let found: PhraseMatch | null = null;
  for (let j = 1; j <= m; j++) {
    const edits = cost[j] as number;
    const from = start[j] as number;
    if (edits > limit || from >= j || (found && edits > found.edits)) continue;
    const first = tokens[from];
    const last = tokens[j - 1];
    if (!first || !last) continue;
    const denied = deniedAt(tokens, from, pattern);
    // Of equal matches the earliest, but one said plainly before one said after a denial.
    if (found && edits === found.edits && (denied || !found.denied)) continue;
    found = { phrase, text: tokens.slice(from, j).map((t) => t.word).join(' '), start: first.start, end: last.end, edits, denied };
  }
  return found;
}

/** Every phrase's best match, best first. */
export function matchPhrases(phrases: readonly string[], tokens: readonly TimedToken[]): PhraseMatch[] {
  return matchPhrasesIn(phrases, [tokens]);
}

/**
 * The phrases found in each of several runs of tokens (one per channel: a phrase is said by one
 * speaker, never made of two people's words said at once), best first.
 */
export function matchPhrasesIn(phrases: readonly string[], runs: readonly (readonly TimedToken[])[]): PhraseMatch[] {
  return runs
    .flatMap((tokens) => phrases.map((phrase) => matchPhrase(phrase, tokens)))
    .filter((match): match is PhraseMatch => match !== null)
    .sort((a, b) => a.edits / normalWords(a.phrase).length - b.edits / normalWords(b.phrase).length || a.start - b.start);
}

/** Timed words of a transcript as normalised tokens (a word the recogniser wrote as two, split). */
export function timedTokens(words: readonly TimedToken[]): TimedToken[] {
  return words.flatMap((w) => normalWords(w.word).map((word) => ({ word, start: w.start, end: w.end })));
}

/**
 * The words as the transcript shows them (formatting's `punctuated_word`: "$25.50", "555-247-8139"),
 * each token timed by its word; a word that shows nothing (inside a number) lengthens the one
 * before it. Null where the words carry no shown form (not formatted).
 */
export function shownTokens(words: readonly (TimedToken & { punctuated_word?: string })[]): TimedToken[] | null {
  if (!words.some((w) => w.punctuated_word !== undefined)) return null;
  const tokens: TimedToken[] = [];
  let last: TimedToken[] = [];
  for (const w of words) {
    if (w.punctuated_word === '') {
      for (const token of last) token.end = Math.max(token.end, w.end);
      continue;
    }
    last = normalWords(w.punctuated_word ?? w.word).map((word) => ({ word, start: w.start, end: w.end }));
    tokens.push(...last);
  }
  return tokens;
}
