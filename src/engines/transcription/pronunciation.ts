// Pronunciations of a team's own terms for pocketsphinx, in the ARPAbet phones of its en-us model:
// a word the model's dictionary has keeps the dictionary's; any other word is spoken by Debian's
// espeak-ng (`--ipa`, American English) and its IPA mapped to ARPAbet; without espeak-ng, a word
// made of dictionary words ("zendesk" = "zen" + "desk") is pronounced as those.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** The 39 phones of the CMU dictionary the en-us model uses. */
export const ARPABET = new Set('AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH'.split(' '));

// IPA as espeak-ng writes American English, longest symbols first when read.
const IPA: Record<string, string> = {
  tʃ: 'CH', dʒ: 'JH', oʊ: 'OW', eɪ: 'EY', aɪ: 'AY', aʊ: 'AW', ɔɪ: 'OY', iː: 'IY', uː: 'UW', ɑː: 'AA', ɔː: 'AO', ɜː: 'ER', oː: 'AO', ɪə: 'IH R', eə: 'EH R', ʊə: 'UH R', aɪə: 'AY ER',
  ɛ: 'EH', æ: 'AE', ɪ: 'IH', i: 'IY', ɑ: 'AA', ɒ: 'AA', ɔ: 'AO', ʌ: 'AH', ə: 'AH', ɐ: 'AH', ᵻ: 'IH', ɚ: 'ER', ɝ: 'ER', ʊ: 'UH', u: 'UW', o: 'OW', e: 'EH', a: 'AA',
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

/** espeak-ng's American English pronunciation of one word, in ARPAbet (kept once asked); null without espeak-ng. */
export function espeakPhones(word: string): string[] | null {
  if (espeakMissing) return null;
  if (spoken.has(word)) return spoken.get(word)!;
  const run = spawnSync('espeak-ng', ['-q', '--ipa', '-v', 'en-us', '--', word], { encoding: 'utf8', timeout: 5000 });
  if (run.error) {
    espeakMissing = (run.error as NodeJS.ErrnoException).code === 'ENOENT';
    return null;
  }
  const phones = run.status === 0 ? ipaToArpabet(run.stdout) : null;
  if (spoken.size > 10_000) spoken.clear();
  spoken.set(word, phones);
  return phones;
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

/** ARPAbet phones of a term's words in a row, or the first word that cannot be pronounced. */
export function pronounce(text: string, words: Map<string, string>): { phones: string } | { unpronounceable: string } {
  const spoken = spokenWords(text);
  if (spoken.length === 0) return { unpronounceable: text };
  const phones: string[] = [];
  for (const word of spoken) {
    const known = words.get(word)?.split(' ') ?? espeakPhones(word) ?? compoundPhones(word, words);
    if (!known || known.some((phone) => !ARPABET.has(phone))) return { unpronounceable: word };
    phones.push(...known);
  }
  return { phones: phones.join(' ') };
}
