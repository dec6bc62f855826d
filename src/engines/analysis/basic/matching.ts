// Matching a question's terms against units: per-term hits and strengths, weighted coverage, a
// rarity-aware ranking score, and whether the matched words are negated or asked about.
import { requests } from './requesting.ts';
import { FUNCTION_POS, NEGATORS } from './lexicon.ts';
import type { Query, Term } from './query.ts';
import type { Token, Unit } from './tokens.ts';

const EXACT_HIT = 1;
const STEM_HIT = 0.9;
const DERIVED_HIT = 0.85;
const SYNONYM_HIT = 0.8;
const CONCEPT_HIT = 0.9;

/** Derivational endings: "deliver" / "delivery", "adjust" / "adjuster", "approve" / "approval". */
const DERIVATIONS = ['al', 'ation', 'ion', 'ment', 'er', 'or', 'y', 'ery', 'ance', 'ence', 'age', 'able', 'ible', 'ing'];
const MIN_BASE = 5;

/** One lemma is the other plus a derivational ending (a final "e" of the base may drop). */
function derived(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < MIN_BASE || short === long) return false;
  const base = short.endsWith('e') ? short.slice(0, -1) : short;
  return long.startsWith(base) && DERIVATIONS.includes(long.slice(base.length));
}

/** Strength of a question term matching a token: exact lemma > stem > derivation, synonym, entity concept. */
function termMatch(q: Term, t: Token): number {
  if (t.type === 'punctuation') return 0;
  const functionWord = FUNCTION_POS.has(t.pos) && t.groups.length === 0;
  if (!functionWord && (q.lemma === t.lemma || q.lemma === t.normal || q.normal === t.normal)) return EXACT_HIT;
  if (!functionWord && q.stem.length >= 4 && q.stem === t.stem) return STEM_HIT;
  if (!functionWord && t.content && derived(q.lemma, t.lemma)) return DERIVED_HIT;
  for (const g of q.groups) if (t.groups.includes(g)) return SYNONYM_HIT;
  return q.concept !== null && t.ent === q.concept ? CONCEPT_HIT : 0;
}

export interface Match {
  unit: Unit;
  /** Matched token indices, by term index. */
  hits: Map<number, number[]>;
  /** Best match strength, by term index. */
  strength: Map<number, number>;
  /** Share of the question's term weight matched, 0..1. */
  coverage: number;
  /** Coverage with terms weighted by how few units they match; set by scoreMatches. */
  rarity: number;
}

const FIRST_PERSON = new Set(['i', 'we']);
/** Words that commit the speaker; "could" and "would" only wish ("i could refund it if…"). */
const COMMITTING = new Set(['will', 'shall', 'can']);
/** Acts a commitment to which offers nothing yet: "i can check if a refund is possible", "i will ask about a refund". */
const NOT_OFFERING = new Set(['check', 'ask', 'see', 'need', 'take', 'get', 'try', 'find', 'look', 'think', 'wish', 'want', 'wait', 'hold', 'transfer', 'confirm', 'verify']);
/** How many words after the commitment the thing asked about may come ("we will send you a new replacement"). */
const OFFER_REACH = 5;

/** The index of the last word of a commitment starting at `k` ("we will", "i'm going to", "let me", "i'd be happy to"), -1 when none starts there. */
function commitmentEnd(words: readonly (string | undefined)[], k: number): number {
  const [w0, w1, w2, w3, w4] = words.slice(k, k + 5);
  if (w0 === 'let' && (w1 === 'me' || w1 === 'us')) return k + 1;
  if (w0 === "i'm" || w0 === "we're") return w1 === 'going' && w2 === 'to' ? k + 2 : -1;
  if (w0 === undefined || !FIRST_PERSON.has(w0)) return -1;
  if (w1 !== undefined && COMMITTING.has(w1)) return k + 1;
  if ((w1 === 'am' || w1 === 'are') && w2 === 'going' && w3 === 'to') return k + 3;
  if (w1 === 'would' && w2 === 'be' && (w3 === 'happy' || w3 === 'glad') && w4 === 'to') return k + 4;
  return -1;
}

/**
 * Where the speaker commits to doing the thing asked about ("we will refund the full amount",
 * "let me send you a replacement"), the index of the word that commits; -1 when they do not. The
 * commitment must not be negated ("we can't", "we will not") nor asked ("can we…?"), its act must
 * be one that gives something ("i can check…" does not), and the thing asked about (`hits`, the
 * question's other words found in the unit) must follow within a few words.
 */
export function commitmentAt(u: Unit, hits: ReadonlySet<number>): number {
  const words = u.toks.map((t) => t.normal);
  for (let k = 0; k < words.length; k++) {
    const end = commitmentEnd(words, k);
    if (end < 0) continue;
    const commit = u.toks[end]!;
    if (commit.neg || commit.inq) continue;
    const after = u.toks.slice(end + 1, end + 1 + OFFER_REACH);
    const act = after.find((t) => t.type !== 'punctuation' && t.pos !== 'ADV');
    if (act === undefined || NEGATORS.has(act.normal) || after.some((t) => NEGATORS.has(t.normal) || t.neg) || NOT_OFFERING.has(act.lemma)) continue;
    for (let i = end + 1; i <= end + OFFER_REACH && i < u.toks.length; i++) if (hits.has(i)) return end;
  }
  return -1;
}

export function matchUnit(q: Query, u: Unit): Match {
  const hits = new Map<number, number[]>();
  const strength = new Map<number, number>();
  q.terms.forEach((term, ti) => {
    const idx: number[] = [];
    let best = 0;
    u.toks.forEach((t, k) => {
      const s = termMatch(term, t);
      if (s > 0) {
        idx.push(k);
        best = Math.max(best, s);
      }
    });
    if (idx.length > 0) {
      hits.set(ti, idx);
      strength.set(ti, best);
    }
  });
  // "did the agent offer a refund?" is met by "we will refund the full amount": an unmatched
  // offering verb is met, as a synonym is, by the speaker committing to something in the unit.
  const offering = q.terms.findIndex((term, ti) => term.offering && !hits.has(ti));
  if (offering >= 0) {
    const at = commitmentAt(u, new Set([...hits.values()].flat()));
    if (at >= 0) {
      hits.set(offering, [at]);
      strength.set(offering, SYNONYM_HIT);
    }
  }
  // "did the customer ask for a refund?" is met by "just send my money back": an unmatched asking
  // verb is met by the unit asking for something, in a question, a wish or an order.
  const asking = q.terms.findIndex((term, ti) => term.asking && !hits.has(ti));
  if (asking >= 0 && hits.size > 0 && requests(u)) {
    hits.set(asking, []);
    strength.set(asking, SYNONYM_HIT);
  }
  let w = 0;
  for (const [ti, s] of strength) w += (q.terms[ti]?.weight ?? 0) * s;
  return { unit: u, hits, strength, coverage: q.totalWeight > 0 ? Math.min(1, w / q.totalWeight) : 0, rarity: 0 };
}

/** Coverage of a question and its reply taken together. */
export function unionCoverage(q: Query, a: Match, b: Match): number {
  const keys = new Set([...a.hits.keys(), ...b.hits.keys()]);
  let w = 0;
  for (const ti of keys) w += (q.terms[ti]?.weight ?? 0) * Math.max(a.strength.get(ti) ?? 0, b.strength.get(ti) ?? 0);
  return q.totalWeight > 0 ? Math.min(1, w / q.totalWeight) : 0;
}

/** Coverage of the question without some of its terms (by index). */
export function coverageWithout(q: Query, m: Match, skip: number[]): number {
  let w = 0;
  let total = 0;
  q.terms.forEach((t, ti) => {
    if (skip.includes(ti)) return;
    total += t.weight;
    w += t.weight * (m.strength.get(ti) ?? 0);
  });
  return total > 0 ? Math.min(1, w / total) : 0;
}

/** Sets `rarity`: a term found in few units says more about where the answer is. */
export function scoreMatches(q: Query, matches: Match[]): void {
  const N = matches.length;
  const df = q.terms.map((_, ti) => matches.filter((m) => m.hits.has(ti)).length);
  const idf = df.map((d) => Math.log(1 + (N + 1) / (d + 0.5)));
  const denom = q.terms.reduce((s, t, ti) => s + t.weight * (idf[ti] ?? 1), 0);
  for (const m of matches) {
    let s = 0;
    for (const [ti, st] of m.strength) s += (q.terms[ti]?.weight ?? 0) * st * (idf[ti] ?? 1);
    m.rarity = denom > 0 ? s / denom : 0;
  }
}

/** The heavy terms matched (all matched terms when none is heavy): they decide negation and asking. */
function strongTermIndices(q: Query, m: Match): number[] {
  const all = [...m.hits.keys()];
  const strong = all.filter((ti) => (q.terms[ti]?.weight ?? 0) >= 0.9);
  return strong.length > 0 ? strong : all;
}

/**
 * Some heavy term occurs only inside negation scopes (and not in a question). A scope whose
 * negator the question itself names ("did the customer stop the payment") does not count.
 */
export function isNegatedMatch(q: Query, m: Match): boolean {
  const named = new Set([...m.hits.values()].flat());
  const negated = (k: number): boolean => {
    const t = m.unit.toks[k];
    return t !== undefined && t.neg && !t.inq && !named.has(t.negBy);
  };
  for (const ti of strongTermIndices(q, m)) {
    const idx = m.hits.get(ti) ?? [];
    if (idx.length > 0 && idx.every(negated)) return true;
  }
  return false;
}

/** Every occurrence of the heavy terms is in a clause of what could or would happen ("you could upgrade"). */
export function isIrrealisMatch(q: Query, m: Match): boolean {
  const idx = strongTermIndices(q, m).flatMap((ti) => m.hits.get(ti) ?? []);
  return idx.length > 0 && idx.every((k) => m.unit.toks[k]?.irr === true);
}

/** Most occurrences of the heavy terms are inside a question: the unit asks rather than states. */
export function isInterrogativeMatch(q: Query, m: Match): boolean {
  let inq = 0;
  let all = 0;
  for (const ti of strongTermIndices(q, m)) {
    for (const k of m.hits.get(ti) ?? []) {
      all++;
      if (m.unit.toks[k]?.inq === true) inq++;
    }
  }
  return all > 0 && inq * 2 > all;
}
