// Pronunciations of a team's own terms for pocketsphinx, in the ARPAbet phones of its en-us model:
// a word the model's dictionary has keeps the dictionary's; any other word is spoken by Debian's
// espeak-ng (`--ipa`, American English) and by phonemize (npm: a lexicon and letter-to-sound rules),
// their IPA mapped to ARPAbet, and a word made of dictionary words ("zendesk" = "zen" + "desk") as
// those: the decoder gets each different guess as a pronunciation of its own.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

/** The 39 phones of the CMU dictionary the en-us model uses. */
export const ARPABET = new Set('AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH'.split(' '));

// IPA as espeak-ng writes American English, longest symbols first when read.
const IPA: Record<string, string> = {
  tʃ: 'CH', dʒ: 'JH', oʊ: 'OW', eɪ: 'EY', aɪ: 'AY', aʊ: 'AW', ɔɪ: 'OY', iː: 'IY', uː: 'UW', ɑː: 'AA', ɔː: 'AO', ɜː: 'ER', oː: 'AO', ɪə: 'IY AH', eə: 'EH AH', ʊə: 'UH AH', aɪə: 'AY AH', aɪɚ: 'AY ER',
  ɛ: 'EH', æ: 'AE', ɪ: 'IH', i: 'IY', ɑ: 'AA', ɒ: 'AA', ɔ: 'AO', ʌ: 'AH', ə: 'AH', ɐ: 'AH', ᵻ: 'IH', ɚ: 'ER', ɝ: 'ER', ɜ: 'ER', ʊ: 'UH', u: 'UW', o: 'OW', e: 'EH', a: 'AA',
  p: 'P', b: 'B', t: 'T', d: 'D', k: 'K', ɡ: 'G', g: 'G', f: 'F', v: 'V', θ: 'TH', ð: 'DH', s: 'S', z: 'Z', ʃ: 'SH', ʒ: 'ZH', h: 'HH', x: 'K', ç: 'HH',
  m: 'M', n: 'N', ŋ: 'NG', l: 'L', ɫ: 'L', ɹ: 'R', r: 'R', ɾ: 'T', j: 'Y', w: 'W',
};
const IPA_SYMBOLS = Object.keys(IPA).sort((a, b) => b.length - a.length);
/** Stress, length, syllable marks and combining diacritics (syllabic n̩, nasal ã): not phones. */
const IGNORED = /[ˈˌ.ʔ‿\u0300-\u036f]/gu;

/** ARPAbet phones of IPA text as espeak-ng writes it; null when a symbol has no phone. */
export function ipaToArpabet(ipa: string): string[] | null {
  const text = ipa.normalize('NFD').replace(IGNORED, '').replace(/\s+/g, '');
  const phones: string[] = [];
  for (let at = 0; at < text.length; ) {
    const symbol = IPA_SYMBOLS.find((candidate) => text.startsWith(candidate, at));
    if (!symbol) {
      if (text[at] === 'ː') {
        at += 1;
        continue;
      }
      return null;
    }
    phones.push(...IPA[symbol]!.split(' '));
    at += symbol.length;
  }
  return phones.length > 0 ? phones : null;
}

const dictionaries = new Map<string, Map<string, string>>();

/** The model dictionary's first pronunciation of each word (read once per file). */
export function dictionary(file: string): Map<string, string> {
  let words = dictionaries.get(file);
  if (!words) {
    words = new Map();
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const space = line.indexOf(' ');
      if (space <= 0 || line.charCodeAt(space - 1) === 41 /* ")": an alternative */) continue;
      words.set(line.slice(0, space), line.slice(space + 1).trim());
    }
    dictionaries.set(file, words);
  }
  return words;
}

let espeakMissing = false;
const spoken = new Map<string, string[] | null>();
/** Words one espeak-ng run pronounces at most, and how long it may take. */
const ESPEAK_BATCH = 2000;
const ESPEAK_TIMEOUT_MS = 20_000;

/**
 * espeak-ng's American English pronunciations of `words` (one per input line, one run for them
 * all), in ARPAbet, kept for later; words it could not say are kept as null.
 */
export function espeakAll(words: readonly string[]): void {
  const wanted = [...new Set(words)].filter((word) => !spoken.has(word)).slice(0, ESPEAK_BATCH);
  if (espeakMissing || wanted.length === 0) return;
  const run = spawnSync('espeak-ng', ['-q', '--ipa', '-v', 'en-us'], { input: `${wanted.join('\n')}\n`, encoding: 'utf8', timeout: ESPEAK_TIMEOUT_MS });
  if (run.error) {
    espeakMissing = (run.error as NodeJS.ErrnoException).code === 'ENOENT';
    return;
  }
  const lines = run.stdout.split('\n').filter((line) => line.trim() !== '');
  if (spoken.size + wanted.length > 10_000) spoken.clear();
  // One line per word, or nothing can be told apart.
  wanted.forEach((word, i) => spoken.set(word, run.status === 0 && lines.length === wanted.length ? ipaToArpabet(lines[i]!) : null));
}

/** espeak-ng's pronunciation of one word, in ARPAbet; null without espeak-ng or when it cannot say it. */
export function espeakPhones(word: string): string[] | null {
  if (!spoken.has(word)) espeakAll([word]);
  return spoken.get(word) ?? null;
}

/** A word as dictionary words, fewest pieces first, each at least 3 letters ("zendesk" → zen desk). */
export function compoundPhones(word: string, words: Map<string, string>): string[] | null {
  const best: (string[] | null)[] = [[]];
  for (let end = 1; end <= word.length; end++) {
    best[end] = null;
    for (let start = Math.max(0, end - 20); start <= end - 3; start++) {
      const before = best[start];
      const phones = words.get(word.slice(start, end));
      if (!before || !phones) continue;
      const candidate = [...before, phones];
      if (!best[end] || candidate.length < best[end]!.length) best[end] = candidate;
    }
  }
  return best[word.length]?.join(' ').split(' ') ?? null;
}

/** The spoken words of a term: letters and digits, apostrophes kept ("O'Neil"), lower case. */
export function spokenWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter((word) => /\p{L}/u.test(word));
}

/** Asks espeak-ng once for every word of `texts` the dictionary lacks (pronounce then reads them). */
export function prepare(texts: readonly string[], words: Map<string, string>): void {
  espeakAll(texts.flatMap(spokenWords).filter((word) => !words.has(word)));
}

let rules: ((text: string) => string) | null = null;

/** phonemize's pronunciation of one word (its lexicon, else its letter-to-sound rules), in ARPAbet; null when it has none. */
export function rulePhones(word: string): string[] | null {
  // Its CommonJS build: the ES module build imports JSON without the attribute Node 20 requires.
  rules ??= (createRequire(import.meta.url)('phonemize') as { phonemize: (text: string) => string }).phonemize;
  try {
    return ipaToArpabet(rules(word));
  } catch {
    return null;
  }
}

/** Ways of saying a term at most: each is a word of the decoder's. */
const MAX_PRONUNCIATIONS = 4;

/**
 * The ways to say a word: the dictionary's; or, for a word it lacks, espeak-ng's, phonemize's
 * and, where the word is made of dictionary words, theirs ("kubernetes": espeak-ng's
 * K Y UW B ER N IY T S and phonemize's K AH B ER N IH T AH Z). Two guesses find more of what
 * people say than either.
 */
function wordPronunciations(word: string, words: Map<string, string>): string[][] {
  const known = words.get(word);
  if (known) return [known.split(' ')];
  // An English model says Latin letters only: espeak-ng reads 東京 as "Chinese letter" twice.
  if (/[^\p{Script=Latin}\p{M}']/u.test(word)) return [];
  const ways = [espeakPhones(word), rulePhones(word), compoundPhones(word, words)].filter((phones): phones is string[] => phones !== null && phones.length > 0 && phones.every((phone) => ARPABET.has(phone)));
  return ways.filter((phones, i) => ways.findIndex((other) => other.join(' ') === phones.join(' ')) === i);
}

/** Each way of saying a term's words in a row (at most four), in ARPAbet, or the first word that cannot be pronounced. */
export function pronunciations(text: string, words: Map<string, string>): { phones: string[] } | { unpronounceable: string } {
  const said = spokenWords(text);
  if (said.length === 0) return { unpronounceable: text };
  let ways: string[][] = [[]];
  for (const word of said) {
    const options = wordPronunciations(word, words);
    if (options.length === 0) return { unpronounceable: word };
    ways = ways.flatMap((before) => options.map((phones) => [...before, ...phones])).slice(0, MAX_PRONUNCIATIONS);
  }
  return { phones: ways.map((phones) => phones.join(' ')) };
}

/** ARPAbet phones of a term's words in a row (its first way of saying them), or the first word that cannot be pronounced. */
export function pronounce(text: string, words: Map<string, string>): { phones: string } | { unpronounceable: string } {
  const said = pronunciations(text, words);
  return 'unpronounceable' in said ? said : { phones: said.phones[0]! };
}
