// Extractive summary: up to three transcript sentences, chosen by TF-IDF centrality weighted
// towards informative sentences, so greetings and sign-offs do not win on frequency.
import { sentenceCase, truncate } from './format.ts';
import { FILLERS, POLITE } from './lexicon.ts';
import { isNumberToken } from './spoken-numbers.ts';
import { GREETING_GROUP } from './synonyms.ts';
import type { Token, Unit } from './tokens.ts';

function isPolite(t: Token): boolean {
  return POLITE.has(t.lemma) || POLITE.has(t.normal) || t.groups.includes(GREETING_GROUP);
}

/** Content lemmas and synonym-group keys; numbers are left out because they rarely recur verbatim. */
function summaryTerms(u: Unit): string[] {
  const out: string[] = [];
  for (const t of u.toks) {
    if (!t.content || isPolite(t) || isNumberToken(t) || t.ent === 'ID') continue;
    out.push(t.lemma);
    for (const g of t.groups) out.push(`#${g}`);
  }
  return out;
}

/** Share of a unit's meaningful words that are courtesy/boilerplate (greetings, thanks, sign-offs). */
function boilerplateRatio(u: Unit): number {
  let polite = 0;
  let other = 0;
  for (const t of u.toks) {
    if (t.type === 'punctuation' || FILLERS.has(t.normal)) continue;
    if (isPolite(t)) polite++;
    else if (t.content) other++;
  }
  return polite + other === 0 ? 1 : polite / (polite + other);
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    const o = b.get(k);
    if (o !== undefined) dot += v * o;
  }
  for (const v of b.values()) nb += v * v;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

const SUMMARY_MAX_SENTENCES = 3;
const SUMMARY_MAX_CHARS = 400;

/** Chosen sentences in transcript order; "" for an empty transcript. */
export function summarize(units: Unit[]): string {
  if (units.length === 0) return '';
  const bags = units.map(summaryTerms);
  const df = new Map<string, number>();
  for (const bag of bags) for (const term of new Set(bag)) df.set(term, (df.get(term) ?? 0) + 1);
  const N = units.length;
  const vecs = bags.map((bag) => {
    const v = new Map<string, number>();
    for (const term of bag) v.set(term, (v.get(term) ?? 0) + 1);
    for (const [term, tf] of v) v.set(term, (1 + Math.log(tf)) * (Math.log((N + 1) / ((df.get(term) ?? 0) + 1)) + 1));
    return v;
  });
  // Informativeness: enough content words and little courtesy boilerplate.
  const quality = units.map((u, i) => {
    const lemmas = (bags[i] ?? []).filter((t) => !t.startsWith('#')).length;
    return Math.min(1, lemmas / 4) * (1 - 0.8 * boilerplateRatio(u));
  });
  // Weighted degree centrality: sum_j cos(i, j) * w_j, similarity to informative
  // units counting more. With unit vectors this is u_i . (sum_j w_j u_j) - w_i,
  // so it is linear in the number of units rather than quadratic.
  const unitVecs = vecs.map((v) => {
    let norm = 0;
    for (const x of v.values()) norm += x * x;
    norm = Math.sqrt(norm);
    const u = new Map<string, number>();
    if (norm > 0) for (const [k, x] of v) u.set(k, x / norm);
    return u;
  });
  const weights = quality.map((q) => 0.25 + 0.75 * q);
  const centroid = new Map<string, number>();
  unitVecs.forEach((u, j) => {
    const wj = weights[j] ?? 0;
    for (const [k, x] of u) centroid.set(k, (centroid.get(k) ?? 0) + wj * x);
  });
  const scores = unitVecs.map((u, i) => {
    if (u.size === 0) return 0;
    let dot = 0;
    for (const [k, x] of u) dot += x * (centroid.get(k) ?? 0);
    const s = Math.max(0, dot - (weights[i] ?? 0));
    return (s + 0.01) * (0.2 + 0.8 * (quality[i] ?? 0));
  });
  const order = units.map((_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
  const chosen: number[] = [];
  let chars = 0;
  for (const i of order) {
    if (chosen.length >= SUMMARY_MAX_SENTENCES) break;
    const u = units[i];
    const v = vecs[i];
    if (u === undefined || v === undefined) continue;
    if ((scores[i] ?? 0) <= 0 && chosen.length > 0) break;
    // A near-duplicate of a chosen sentence adds nothing.
    if (chosen.some((c) => cosine(v, vecs[c] ?? new Map()) > 0.6)) continue;
    const len = sentenceCase(u.text).length + (chosen.length > 0 ? 1 : 0);
    if (chars + len > SUMMARY_MAX_CHARS) {
      if (chosen.length === 0) return truncate(sentenceCase(u.text), SUMMARY_MAX_CHARS);
      continue;
    }
    chosen.push(i);
    chars += len;
  }
  if (chosen.length === 0) {
    const first = units[0];
    return first === undefined ? '' : truncate(sentenceCase(first.text), SUMMARY_MAX_CHARS);
  }
  return chosen
    .sort((a, b) => a - b)
    .map((i) => sentenceCase(units[i]?.text ?? ''))
    .join(' ');
}
