// Tokens, entities and units (timed sentences), and reading text into them with wink in one pass.
import type { Detail } from 'wink-nlp';
import { FILLERS, FUNCTION_POS, NEGATORS, WH_WORDS } from './lexicon.ts';
import type { Wink } from './wink.ts';

export interface Token {
  value: string;
  normal: string;
  lemma: string;
  stem: string;
  pos: string;
  stop: boolean;
  type: string;
  /** Character offsets within the unit's text. */
  start: number;
  end: number;
  /** Worth matching: not a filler, function word or light verb. */
  content: boolean;
  /** Synonym groups (see synonyms.ts). */
  groups: number[];
  /** Inside a negation scope. */
  neg: boolean;
  /** Index of the negator whose scope the token is in, -1 when none. */
  negBy: number;
  /** Inside an interrogative clause. */
  inq: boolean;
  /** Inside a clause of what could, would or usually happens (irrealis.ts). */
  irr: boolean;
  /** Type of the entity covering the token. */
  ent: string | null;
}

/** A typed run of tokens, `from` and `to` inclusive. */
export interface Entity {
  type: string;
  from: number;
  to: number;
}

/** A sentence, or a chunk of a long unpunctuated segment, with its times in seconds. */
export interface Unit {
  /** Position in the transcript: units[idx + 1] is the reply to this unit. */
  idx: number;
  text: string;
  start: number;
  end: number;
  toks: Token[];
  ents: Entity[];
  /** Contains an interrogative clause. */
  hasInq: boolean;
}

/** A text read by wink: tokens, sentence spans (token indices) and wink's entities. */
export interface DocSpan {
  text: string;
  toks: Token[];
  sentences: [number, number][];
  ents: Entity[];
}

function isDetail(x: unknown): x is Detail {
  return typeof x === 'object' && x !== null && 'type' in x && 'value' in x;
}

function isSpan(x: unknown): x is [number, number] {
  return Array.isArray(x) && x.length >= 2 && typeof x[0] === 'number' && typeof x[1] === 'number';
}

function strings(xs: readonly unknown[]): string[] {
  return xs.map((x) => (typeof x === 'string' ? x : String(x)));
}

const stemCache = new Map<string, string>();
const STEM_CACHE_MAX = 50_000;

const PRONOUN_CONTRACTION = /^(i|you|we|they|he|she|it|that|there|what|who)'(m|re|s|ll|d|ve)$/;

/** Tokenises once with wink; `content`, `groups`, `neg`, `inq`, `irr` and `ent` are left for later stages. */
export function readSpan(w: Wink, text: string): DocSpan {
  const { nlp } = w;
  const its = nlp.its;
  const doc = nlp.readDoc(text);
  const tokens = doc.tokens();
  const values = tokens.out();
  const normals = strings(tokens.out(its.normal));
  const lemmas = strings(tokens.out(w.lemma));
  // its.stem (Porter) is by far the slowest wink accessor: cache stems per word.
  const stems = values.map((v, i) => {
    // Keyed by the value, not the normal form: that is what wink stems.
    const key = v.toLowerCase();
    const cached = stemCache.get(key);
    if (cached !== undefined) return cached;
    const out = tokens.itemAt(i).out(w.stem);
    const stem = typeof out === 'string' ? out.toLowerCase() : key;
    if (stemCache.size >= STEM_CACHE_MAX) stemCache.clear();
    stemCache.set(key, stem);
    return stem;
  });
  const poses = strings(tokens.out(its.pos));
  const stops = tokens.out(its.stopWordFlag).map((x) => x === true);
  const types = strings(tokens.out(its.type));
  const spaces = strings(tokens.out(its.precedingSpaces));

  const toks: Token[] = [];
  let offset = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] ?? '';
    offset += (spaces[i] ?? '').length;
    const normal = (normals[i] ?? value).toLowerCase();
    let lemma = (lemmas[i] ?? normal).toLowerCase();
    let pos = poses[i] ?? 'X';
    let stop = stops[i] ?? false;
    // wink does not split lower-case "i'm" (and similar) and tags it PROPN.
    if (PRONOUN_CONTRACTION.test(normal)) {
      pos = 'PRON';
      stop = true;
      lemma = normal;
    }
    toks.push({
      value,
      normal,
      lemma,
      stem: (stems[i] ?? normal).toLowerCase(),
      pos,
      stop,
      type: types[i] ?? 'word',
      start: offset,
      end: offset + value.length,
      content: false,
      groups: [],
      neg: false,
      negBy: -1,
      inq: false,
      irr: false,
      ent: null,
    });
    offset += value.length;
  }

  const sentences: [number, number][] = [];
  for (const s of doc.sentences().out(its.span)) if (isSpan(s)) sentences.push([s[0], s[1]]);
  if (sentences.length === 0 && toks.length > 0) sentences.push([0, toks.length - 1]);

  const ents: Entity[] = [];
  const details = doc.entities().out(its.detail);
  const spans = doc.entities().out(its.span);
  for (let i = 0; i < details.length; i++) {
    const d = details[i];
    const s = spans[i];
    if (isDetail(d) && isSpan(s)) ents.push({ type: d.type, from: s[0], to: s[1] });
  }
  return { text, toks, sentences, ents };
}

const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'NUM', 'ADV', 'INTJ', 'X']);
/** Words that carry almost no meaning on their own. */
const LIGHT = new Set([
  'be', 'have', 'do', 'get', 'go', 'make', 'take', 'let', 'come', 'seem', 'will', 'would', 'can', 'could',
  'shall', 'should', 'may', 'might', 'must', 'other', 'another', 'such', 'own', 'same', 'much', 'many', 'more',
  'most', 'few', 'several', 'each', 'every', 'also', 'just', 'really', 'very', 'too', 'so', 'then', 'now', 'here',
  'there', 'still', 'again', 'even', 'only', 'actually', 'basically', 'maybe', 'please', 'like', 'kind', 'sort',
  'thing', 'lot', 'bit', 'way', 'something', 'anything', 'everything', 'nothing',
]);

export function isContent(t: Token): boolean {
  if (t.type === 'punctuation' || t.type === 'emoji' || t.type === 'symbol') return false;
  if (FILLERS.has(t.normal) || NEGATORS.has(t.normal) || WH_WORDS.has(t.normal)) return false;
  if (LIGHT.has(t.lemma) || LIGHT.has(t.normal)) return false;
  if (PRONOUN_CONTRACTION.test(t.normal)) return false;
  if (t.type === 'currency') return false;
  if (t.type === 'number' || t.type === 'email') return true;
  if (FUNCTION_POS.has(t.pos)) return false;
  if (!t.stop) return true;
  // wink's stop list is aggressive ("call", "name", "first", "four"...):
  // keep stop-listed words that are nouns, verbs, adjectives or numbers.
  return CONTENT_POS.has(t.pos) && t.pos !== 'ADV' && t.pos !== 'INTJ';
}
