// A category's `similar_to` condition, measured: does a call sentence reach the threshold exactly
// when it means the rule's sentence? Two sets of rules, each with call sentences that mean it and
// sentences that do not (some on the same topic: the opposite, the other party, a question about
// it): dev (bench/similar-dev.json, where the threshold sweep is read) and held-out
// (bench/similar-holdout.json, written by someone who never saw the matcher, before it ran on
// them). Sentences are embedded as a transcript's segments are, and stored packed (int8) before
// they are compared, as categories compare them. Beside it two trivial matchers: every sentence,
// and a sentence holding at least half of the rule's words (stop words aside).
// Run: npx tsx bench/similar-to.ts
import fs from 'node:fs';
import { packVectors, unpackVectors } from '../src/core/transcripts/segment-vectors.ts';
import { cosineSimilarity } from '../src/engines/text/sentence-encoder.ts';
import { embedSentences } from '../src/engines/text/sentence-encoder.ts';
import { SIMILAR_THRESHOLD } from '../src/features/categories/category-rule.ts';
import { count, f1, type Counts } from './flite.ts';
import { usage } from './usage.ts';

usage(`Usage: npx tsx bench/similar-to.ts
Precision, recall and F1 of similar_to conditions (sentence embeddings against a threshold) on dev and held-out
rule/sentence pairs, a threshold sweep on dev, beside matching every sentence and matching half the rule's words.`);

interface Rule {
  text: string;
  matches: string[];
  non_matches: string[];
}
interface Pair {
  rule: string;
  sentence: string;
  means: boolean;
  similarity: number;
}

const STOP = new Set(['the', 'a', 'an', 'to', 'of', 'for', 'their', 'his', 'her', 'is', 'are', 'about', 'and', 'or', 'on', 'in', 'with', 'that', 'this', 'it']);
const words = (text: string) => text.toLowerCase().match(/[a-z']+/g) ?? [];

async function pairs(file: string): Promise<Pair[]> {
  const { rules } = JSON.parse(fs.readFileSync(new URL(file, import.meta.url), 'utf8')) as { rules: Rule[] };
  const out: Pair[] = [];
  for (const rule of rules) {
    const sentences = [...rule.matches, ...rule.non_matches];
    const [target, ...vectors] = await embedSentences([rule.text, ...sentences]);
    const stored = unpackVectors(packVectors(vectors));
    sentences.forEach((sentence, i) => out.push({ rule: rule.text, sentence, means: i < rule.matches.length, similarity: cosineSimilarity(stored[i]!, target!) }));
  }
  return out;
}

function score(set: Pair[], matches: (pair: Pair) => boolean): ReturnType<typeof f1> {
  const counts: Counts = { tp: 0, fp: 0, fn: 0 };
  for (const pair of set) count(counts, pair.means, matches(pair));
  return f1(counts);
}

const halfTheWords = (pair: Pair) => {
  const rule = words(pair.rule).filter((w) => !STOP.has(w));
  const said = new Set(words(pair.sentence));
  return rule.filter((w) => said.has(w)).length * 2 >= rule.length;
};
const prf = (x: ReturnType<typeof f1>) => `${x.precision.toFixed(2)} / ${x.recall.toFixed(2)} / ${x.f1.toFixed(2)}`;

const sets = { dev: await pairs('./similar-dev.json'), 'held-out': await pairs('./similar-holdout.json') };

console.log('Threshold swept on dev only: threshold → precision / recall / F1');
for (let threshold = 0.3; threshold <= 0.801; threshold += 0.05) {
  const mark = Math.abs(threshold - SIMILAR_THRESHOLD) < 1e-9 ? ' (the default)' : '';
  console.log(`  ${threshold.toFixed(2)}  ${prf(score(sets.dev, (p) => p.similarity >= threshold))}${mark}`);
}

console.log(`\nset        pairs  means  matcher                         precision / recall / F1`);
for (const [name, set] of Object.entries(sets)) {
  const rows: [string, ReturnType<typeof f1>][] = [
    ['every sentence', score(set, () => true)],
    ['half the rule\'s words', score(set, halfTheWords)],
    [`similar_to at ${SIMILAR_THRESHOLD}`, score(set, (p) => p.similarity >= SIMILAR_THRESHOLD)],
  ];
  for (const [matcher, result] of rows) console.log(`${name.padEnd(10)} ${String(set.length).padEnd(6)} ${String(set.filter((p) => p.means).length).padEnd(6)} ${matcher.padEnd(31)} ${prf(result)}`);
  const hard = set.filter((p) => !p.means).sort((a, b) => b.similarity - a.similarity).slice(0, 3);
  if (name === 'dev') for (const p of hard) console.log(`${' '.repeat(11)}closest sentence that does not mean its rule: ${p.similarity.toFixed(2)} "${p.sentence}" for "${p.rule}"`);
}
process.exit(0);
