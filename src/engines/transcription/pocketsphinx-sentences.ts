// Where a sentence ends, as pocketsphinx's own language model sees it. Between two recognised
// words, the odds that a sentence ends there: the words with a sentence end and a new start
// between them (`… refund </s> <s> my order`) against the words running on (`… refund my order`),
// each scored by the model's trigrams (a hidden-event language model). The model is the one the
// decoder reads, opened once per thread on first use and kept. Where it cannot be read, there are
// no odds, and formatting falls back on its rules alone: a transcript is never lost to it.
import { join } from 'node:path';
import { loadNative, type Native, type Ptr } from './pocketsphinx-bindings.ts';
import { DEFAULT_MODEL_DIR } from './pocketsphinx-native.ts';
import type { SentenceOdds } from './types.ts';

const NGRAM_AUTO = 0;
export const LANGUAGE_MODEL = join(DEFAULT_MODEL_DIR, 'en-us.lm.bin');

interface Model {
  n: Native;
  lm: Ptr;
  lmath: Ptr;
}
/** Each model file's reading, once: the model, or null where it could not be read. */
const models = new Map<string, Model | null>();

function open(path: string): Model | null {
  const known = models.get(path);
  if (known !== undefined) return known;
  let model: Model | null = null;
  try {
    const n = loadNative('libpocketsphinx.so.3', 'libsphinxbase.so.3');
    const lmath = n.logmath_init(1.0001, 0, 0);
    const lm = lmath === null ? null : n.ngram_model_read(null, path, NGRAM_AUTO, lmath);
    if (lmath !== null && lm !== null) model = { n, lm, lmath };
    else if (lmath !== null) n.logmath_free(lmath);
  } catch {
    model = null;
  }
  models.set(path, model);
  return model;
}

/**
 * The odds of the model at `path`: for each word, the natural log of the odds that a sentence
 * ends just before it (the first word's is -Infinity); none at all (an empty list) where the
 * model cannot be read. A word the model does not know has no probability either way: the odds
 * before it are those of a sentence ending after the words before it.
 */
export function sentenceOddsOf(path: string): SentenceOdds {
  return (words) => {
    const model = open(path);
    if (model === null || words.length === 0) return [];
    const { n, lm, lmath } = model;
    const used: [number] = [0];
    const ids = new Map<string, number>();
    const id = (word: string) => {
      let wid = ids.get(word);
      if (wid === undefined) ids.set(word, (wid = n.ngram_wid(lm, word)));
      return wid;
    };
    const ln = (score: number) => n.logmath_log_to_ln(lmath, score);
    const trigram = (word: string, before: string, last: string) => ln(n.ngram_tg_score(lm, id(word), id(last), id(before), used));
    const bigram = (word: string, last: string) => ln(n.ngram_bg_score(lm, id(word), id(last), used));
    const lower = words.map((w) => w.toLowerCase());
    return lower.map((word, i) => {
      if (i === 0) return -Infinity;
      const last = lower[i - 1]!;
      const before = lower[i - 2] ?? '<s>';
      const next = lower[i + 1];
      const ends = trigram('</s>', before, last) + bigram(word, '<s>') + (next === undefined ? 0 : trigram(next, '<s>', word));
      const runsOn = trigram(word, before, last) + (next === undefined ? 0 : trigram(next, last, word));
      return ends - runsOn;
    });
  };
}

/** pocketsphinx's own model's odds (see sentenceOddsOf). */
export const sentenceEndOdds: SentenceOdds = sentenceOddsOf(LANGUAGE_MODEL);
