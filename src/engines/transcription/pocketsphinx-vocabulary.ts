// A scenario's vocabulary as pocketsphinx words. Each pronunciation of a term (of its spelling, or
// of each of its sounds_like; a word the dictionary lacks has a guess per source) becomes a word of its own, "@term" ("@customer_success", "@zendesk~2"),
// in the decoder's dictionary with its phones and in a unigram model of the terms alone that is
// interpolated with the model's own; a term the dictionary already has gets such an alias too, so
// it is made likelier the same way. Recognised aliases are written back as the term's words, a phrase's words sharing
// its time evenly.
import { DEFAULT_MODEL_DIR, type PocketsphinxWord } from './pocketsphinx-native.ts';
import { dictionary, prepare, pronounce, pronunciations, spokenWords } from './pronunciation.ts';
import type { VocabularyTerm } from './types.ts';

export const MODEL_DICTIONARY = `${DEFAULT_MODEL_DIR}/cmudict-en-us.dict`;
/** Per cent of the language model given to the vocabulary's words (chosen on the dev terms of bench/vocabulary.ts). */
export const VOCABULARY_WEIGHT = 1;

export interface DecoderVocabulary {
  /** One decoder per key: the same terms share decoders. */
  key: string;
  words: { word: string; phones: string }[];
  /** Alias (without its ~n) → the term's spoken words. */
  written: Map<string, string[]>;
}

export class UnpronounceableTerm extends Error {
  constructor(
    readonly index: number,
    readonly word: string,
    message = `"${word}" cannot be pronounced: give it letters, or how it sounds in sounds_like`,
  ) {
    super(message);
  }
}

/** The decoder words of `terms`; throws UnpronounceableTerm for the first term without phones. */
export function decoderVocabulary(terms: readonly VocabularyTerm[], dictFile = MODEL_DICTIONARY): DecoderVocabulary {
  const words = dictionary(dictFile);
  prepare(terms.flatMap((term) => [term.phrase, ...(term.sounds_like ?? [])]), words);
  const out: { word: string; phones: string }[] = [];
  const written = new Map<string, string[]>();
  terms.forEach((term, index) => {
    const spoken = spokenWords(term.phrase);
    if (spoken.length === 0) throw new UnpronounceableTerm(index, term.phrase);
    const alias = `@${spoken.join('_')}`;
    if (written.has(alias)) return;
    written.set(alias, spoken);
    const sources = term.sounds_like?.length ? term.sounds_like : [term.phrase];
    const seen = new Set<string>();
    for (const source of sources) {
      const said = pronunciations(source, words);
      if ('unpronounceable' in said) throw new UnpronounceableTerm(index, said.unpronounceable);
      for (const phones of said.phones) {
        if (seen.has(phones)) continue;
        seen.add(phones);
        out.push({ word: seen.size === 1 ? alias : `${alias}~${seen.size}`, phones });
      }
    }
  });
  // The same terms in another order share decoders.
  return { key: out.map((w) => `${w.word}=${w.phones}`).sort().join('|'), words: out, written };
}

/** Recognised words with every vocabulary alias written as its term's words. */
export function writeVocabulary(words: readonly PocketsphinxWord[], vocabulary: DecoderVocabulary): PocketsphinxWord[] {
  return words.flatMap((word) => {
    if (!word.word.startsWith('@')) return [word];
    const parts = vocabulary.written.get(word.word.replace(/~\d+$/, ''));
    if (!parts) return [word];
    const share = (word.end - word.start) / parts.length;
    return parts.map((part, i) => ({ ...word, word: part, start: word.start + i * share, end: i === parts.length - 1 ? word.end : word.start + (i + 1) * share }));
  });
}

/**
 * Orders of magnitude of a phrase's detection threshold per phone: longer phrases may be found at
 * lower probabilities without false alarms. Chosen by trying 1e-10…1e-40 on five flite sentences
 * (kal voice) with five phrases: "refund" (6 phones) was found only where said from 1e-10 to 1e-30
 * and falsely at 1e-40, "money back" (7) needed 1e-30, the 13- and 17-phone phrases were found at
 * every threshold. Checked then on ten slt sentences: five of six product names found where said
 * ("shopify" needed 1e-35, below its 1e-27), "twilio" heard once in a "trello" sentence, nothing
 * in the four sentences without a name. Not measured on held-out speech yet.
 */
const SPOT_EXPONENT_PER_PHONE = 4.5;
/** A shorter phrase ("no", "yes") is found everywhere: refused. */
export const MIN_SPOT_PHONES = 4;

export interface SpottingDecoder {
  key: string;
  /** Dictionary words the phrases need that the model's dictionary lacks. */
  words: { word: string; phones: string }[];
  phrases: { phrase: string; threshold: number }[];
}

/** The keyword-spotting set-up for `phrases`: their words in lower case, thresholds by length; throws UnpronounceableTerm. */
export function spottingDecoder(phrases: readonly string[], dictFile = MODEL_DICTIONARY): SpottingDecoder {
  const words = dictionary(dictFile);
  prepare(phrases, words);
  const added = new Map<string, string>();
  const out: { phrase: string; threshold: number }[] = [];
  phrases.forEach((phrase, index) => {
    const spoken = spokenWords(phrase);
    if (spoken.length === 0) throw new UnpronounceableTerm(index, phrase);
    let phones = 0;
    for (const word of spoken) {
      let said = words.get(word) ?? added.get(word);
      if (!said) {
        const made = pronounce(word, words);
        if ('unpronounceable' in made) throw new UnpronounceableTerm(index, made.unpronounceable);
        said = made.phones;
        added.set(word, said);
      }
      phones += said.split(' ').length;
    }
    if (phones < MIN_SPOT_PHONES) throw new UnpronounceableTerm(index, phrase, `"${phrase}" is too short to find in the audio without false alarms: give a phrase of ${MIN_SPOT_PHONES} sounds or more`);
    const text = spoken.join(' ');
    if (!out.some((p) => p.phrase === text)) out.push({ phrase: text, threshold: Math.min(1e-5, Math.max(1e-50, 10 ** -(SPOT_EXPONENT_PER_PHONE * phones))) });
  });
  const list = [...added].map(([word, phones]) => ({ word, phones }));
  return { key: `spot:${out.map((p) => p.phrase).sort().join('|')}`, words: list, phrases: out };
}
