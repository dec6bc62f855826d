// Where a sentence ends, as pocketsphinx's own language model sees it. Between two recognised
// words, the odds that a sentence ends there: the words with a sentence end and a new start
// between them (`… refund </s> <s> my order`) against the words running on (`… refund my order`),
// each scored by the model's trigrams (a hidden-event language model). The model is the one the
// decoder reads, opened once per thread on first use and kept.
import { join } from 'node:path';
import { loadNative, type Native, type Ptr } from './pocketsphinx-bindings.ts';
import { DEFAULT_MODEL_DIR } from './pocketsphinx-native.ts';

const NGRAM_AUTO = 0;

interface Model {
  n: Native;
  lm: Ptr;
  lmath: Ptr;
}
let model: Model | undefined;

function open(): Model {
  if (model) return model;
  const n = loadNative('libpocketsphinx.so.3', 'libsphinxbase.so.3');
  const lmath = n.logmath_init(1.0001, 0, 0);
  const lm = lmath === null ? null : n.ngram_model_read(null, join(DEFAULT_MODEL_DIR, 'en-us.lm.bin'), NGRAM_AUTO, lmath);
  if (lmath === null || lm === null) throw new Error("pocketsphinx's language model could not be read");
  model = { n, lm, lmath };
  return model;
}

/**
 * For each word, the natural log of the odds that a sentence ends just before it (the first
 * word's is -Infinity). Words the model does not know count as its unknown word.
 */
export function sentenceEndOdds(words: readonly string[]): number[] {
  const { n, lm, lmath } = open();
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
}
