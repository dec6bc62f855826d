// Spoken numbers as a recogniser writes them: number words, parsing runs of them into values, and
// the token tests the entity rules share ("fifty nine ninety nine" is two groups, 59 and 99).
import type { Token } from './tokens.ts';

const UNITS: ReadonlyMap<string, number> = new Map([
  ['zero', 0], ['oh', 0], ['one', 1], ['two', 2], ['three', 3], ['four', 4], ['five', 5], ['six', 6], ['seven', 7],
  ['eight', 8], ['nine', 9], ['ten', 10], ['eleven', 11], ['twelve', 12], ['thirteen', 13], ['fourteen', 14],
  ['fifteen', 15], ['sixteen', 16], ['seventeen', 17], ['eighteen', 18], ['nineteen', 19],
]);
export const TENS: ReadonlyMap<string, number> = new Map([
  ['twenty', 20], ['thirty', 30], ['forty', 40], ['fourty', 40], ['fifty', 50], ['sixty', 60], ['seventy', 70],
  ['eighty', 80], ['ninety', 90],
]);
const SCALES: ReadonlyMap<string, number> = new Map([['thousand', 1000], ['million', 1_000_000], ['billion', 1e9]]);
const ORDINAL_WORDS = new Set([
  'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh',
  'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth',
  'twentieth', 'thirtieth',
]);

/** Currency words and their symbols; cents have none because they are folded into the amount. */
export const CURRENCY_WORDS: ReadonlyMap<string, string> = new Map([
  ['dollar', '$'], ['dollars', '$'], ['buck', '$'], ['bucks', '$'], ['pound', '£'], ['pounds', '£'],
  ['quid', '£'], ['euro', '€'], ['euros', '€'], ['cent', ''], ['cents', ''],
]);

export function isNumberToken(t: Token): boolean {
  return t.type === 'number' || UNITS.has(t.normal) || TENS.has(t.normal) || t.normal === 'hundred' || SCALES.has(t.normal);
}

export function isOrdinalToken(t: Token): boolean {
  return t.type === 'ordinal' || ORDINAL_WORDS.has(t.normal) || /^\d+(st|nd|rd|th)$/.test(t.normal);
}

/**
 * Spoken number words as groups: "fifty nine ninety nine" -> [59, 99], "two hundred and six" ->
 * [206], "four four seven" -> [4, 4, 7]; null when a word is not part of a number.
 */
export function numberGroups(words: string[]): number[] | null {
  const groups: number[] = [];
  let total = 0;
  let cur = 0;
  let last: 'none' | 'unit' | 'teen' | 'tens' | 'tensunit' | 'hundred' | 'scale' = 'none';
  const flush = (): void => {
    if (last !== 'none') groups.push(total + cur);
    total = 0;
    cur = 0;
    last = 'none';
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    if (w === 'and') {
      if (last === 'hundred' || last === 'scale') continue;
      return null;
    }
    if (w === 'a' && (words[i + 1] === 'hundred' || SCALES.has(words[i + 1] ?? ''))) {
      flush();
      cur = 1;
      last = 'unit';
      continue;
    }
    const digits = w.replace(/,/g, '');
    if (/^\d+(\.\d+)?$/.test(digits)) {
      flush();
      groups.push(Number(digits));
      continue;
    }
    const u = UNITS.get(w);
    if (u !== undefined) {
      if (last === 'tens' && u > 0 && u < 10) {
        cur += u;
        last = 'tensunit';
      } else if (last === 'none' || last === 'hundred' || last === 'scale') {
        cur += u;
        last = u >= 10 ? 'teen' : 'unit';
      } else {
        flush();
        cur = u;
        last = u >= 10 ? 'teen' : 'unit';
      }
      continue;
    }
    const t = TENS.get(w);
    if (t !== undefined) {
      if (last === 'none' || last === 'hundred' || last === 'scale') {
        cur += t;
      } else {
        flush();
        cur = t;
      }
      last = 'tens';
      continue;
    }
    if (w === 'hundred') {
      if (last === 'unit' || last === 'teen' || last === 'tens' || last === 'tensunit') {
        cur = cur * 100;
      } else if (last === 'none') {
        cur = 100;
      } else {
        return null;
      }
      last = 'hundred';
      continue;
    }
    const sc = SCALES.get(w);
    if (sc !== undefined) {
      total += (cur === 0 ? 1 : cur) * sc;
      cur = 0;
      last = 'scale';
      continue;
    }
    return null;
  }
  flush();
  return groups.length > 0 ? groups : null;
}

/** A digit spoken or written as one token ("seven", "7"); multi-digit numerals pass whole. */
export function digitOf(t: Token): string | null {
  if (/^\d+$/.test(t.normal)) return t.normal;
  const u = UNITS.get(t.normal);
  if (u !== undefined && u < 10) return String(u);
  return null;
}

/** Index of the last token of the number run starting at i ("one hundred and five" is one run). */
export function numberRunEnd(toks: Token[], i: number): number {
  let k = i;
  while (k < toks.length) {
    const t = toks[k];
    if (t === undefined) break;
    if (isNumberToken(t)) {
      k++;
      continue;
    }
    const prev = toks[k - 1];
    const next = toks[k + 1];
    if (t.normal === 'and' && prev !== undefined && (prev.normal === 'hundred' || SCALES.has(prev.normal)) && next !== undefined && isNumberToken(next)) {
      k++;
      continue;
    }
    break;
  }
  return k - 1;
}
