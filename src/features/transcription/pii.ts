// Detection of personal data in what recognisers write: card numbers (Luhn-checked), phone numbers,
// US social security numbers, e-mail addresses and long number sequences, in digits ("4111-1111")
// and in spoken words ("four one one one", "double five", "john dot smith at example dot com").
// Works on a token stream, so a number read across two segments is still one number. Pure.

import type { redactionKinds } from './transcription-card.ts';

export type PiiKind = (typeof redactionKinds)[number];

/** Tokens `from`..`to` (inclusive) hold personal data of `kind`. */
export interface PiiRange {
  from: number;
  to: number;
  kind: PiiKind;
}

const UNITS: ReadonlyMap<string, number> = new Map([
  ['zero', 0], ['oh', 0], ['one', 1], ['two', 2], ['three', 3], ['four', 4], ['five', 5], ['six', 6],
  ['seven', 7], ['eight', 8], ['nine', 9],
]);
const TEENS: ReadonlyMap<string, number> = new Map([
  ['ten', 10], ['eleven', 11], ['twelve', 12], ['thirteen', 13], ['fourteen', 14], ['fifteen', 15], ['sixteen', 16],
  ['seventeen', 17], ['eighteen', 18], ['nineteen', 19],
]);
const TENS: ReadonlyMap<string, number> = new Map([
  ['twenty', 2], ['thirty', 3], ['forty', 4], ['fourty', 4], ['fifty', 5], ['sixty', 6], ['seventy', 7], ['eighty', 8], ['ninety', 9],
]);
const REPEATS: ReadonlyMap<string, number> = new Map([['double', 2], ['triple', 3]]);
/** Words a recogniser writes for a spoken digit ("four one one one" heard as "for one one one"):
 * digits only next to another number. */
const HOMOPHONES: ReadonlyMap<string, number> = new Map([['for', 4], ['to', 2], ['too', 2], ['won', 1], ['ate', 8]]);
/** Words said between the groups of a number that do not end it ("4111 um 1111"). */
const JOINERS = new Set(['-', 'dash', 'hyphen', 'uh', 'um', 'er', 'erm', 'ah', 'hmm']);

export const TLDS = new Set(['com', 'org', 'net', 'edu', 'gov', 'io', 'co', 'uk', 'us', 'ca', 'de', 'fr', 'info', 'biz', 'me', 'ai', 'app', 'dev']);
const SSN_CONTEXT = /^(social|security|ssn|ss)$/;
const PHONE_CONTEXT = /^(call|phone|number|reach|cell|mobile|extension|text)$/;

/** A token as matched: lower case, without the punctuation around it. */
export function normalToken(raw: string): string {
  return raw.toLowerCase().replace(/^[^a-z0-9+(@]+|[^a-z0-9)]+$/g, '');
}

/** The digits one token stands for, or null when it is no number. */
function digitsOf(token: string): string | null {
  if (/^\+?\(?\d[\d\-.()]*$/.test(token)) return token.replace(/\D/g, '');
  const unit = UNITS.get(token);
  if (unit !== undefined) return String(unit);
  const teen = TEENS.get(token);
  if (teen !== undefined) return String(teen);
  const tens = TENS.get(token);
  return tens === undefined ? null : `${tens}0`;
}

/** Whether a number is said from token `i` on: a digit word, or a homophone ("for") before one ("for for seventy nine"). */
function startsNumber(tokens: readonly string[], i: number, depth = 0): boolean {
  const token = tokens[i] ?? '';
  if (digitsOf(token) !== null || REPEATS.has(token)) return true;
  return depth < 3 && HOMOPHONES.has(token) && startsNumber(tokens, i + 1, depth + 1);
}

interface Run {
  /** Token index of each digit of `digits`. */
  owners: number[];
  digits: string;
  first: number;
  last: number;
}

/** Maximal runs of number tokens (with the joiners between them). */
function readRuns(tokens: readonly string[]): Run[] {
  const runs: Run[] = [];
  let current: Run | null = null;
  const end = () => {
    if (current && current.digits.length > 0) runs.push(current);
    current = null;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    const repeat = REPEATS.get(token);
    const repeated = repeat !== undefined ? UNITS.get(tokens[i + 1] ?? '') : undefined;
    let digits: string | null;
    let width = 1;
    if (repeat !== undefined && repeated !== undefined) {
      digits = String(repeated).repeat(repeat);
      width = 2;
    } else if (TENS.has(token) && (UNITS.get(tokens[i + 1] ?? '') ?? 0) > 0) {
      digits = `${TENS.get(token)}${UNITS.get(tokens[i + 1] ?? '')}`;
      width = 2;
    } else if (token === 'hundred' && current) {
      digits = '00';
    } else {
      digits = digitsOf(token);
      const homophone = HOMOPHONES.get(token);
      if (digits === null && homophone !== undefined && (current !== null || startsNumber(tokens, i + 1))) digits = String(homophone);
    }
    if (digits === null) {
      if (current && JOINERS.has(token)) continue;
      end();
      continue;
    }
    const run: Run = current ?? { owners: [], digits: '', first: i, last: i };
    for (let k = 0; k < digits.length; k++) run.owners.push(i + (k * width >= digits.length ? width - 1 : 0));
    run.digits += digits;
    run.last = i + width - 1;
    current = run;
    i += width - 1;
  }
  end();
  return runs;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const ssnValid = (d: string) => d.length === 9 && !/^(000|666|9)/.test(d) && d.slice(3, 5) !== '00' && d.slice(5) !== '0000';

function near(tokens: readonly string[], index: number, pattern: RegExp, before = 8): boolean {
  for (let i = Math.max(0, index - before); i < index; i++) if (pattern.test(tokens[i] ?? '')) return true;
  return false;
}

/**
 * The token ranges of personal data of the asked kinds. `tokens` are normalised (normalToken);
 * `raw` the tokens as written, for formats that digits alone do not tell (123-45-6789, +44…).
 */
export function detectPii(tokens: readonly string[], raw: readonly string[], kinds: readonly PiiKind[]): PiiRange[] {
  const wanted = new Set(kinds);
  const ranges: PiiRange[] = [];
  const taken = new Set<number>();
  const claim = (from: number, to: number, kind: PiiKind) => {
    for (let i = from; i <= to; i++) taken.add(i);
    ranges.push({ from, to, kind });
  };
  const free = (from: number, to: number) => {
    for (let i = from; i <= to; i++) if (taken.has(i)) return false;
    return true;
  };

  if (wanted.has('email')) for (const [from, to] of emails(tokens)) claim(from, to, 'email');

  for (const run of readRuns(tokens)) {
    // Sub-runs that start and end on token boundaries, longest first.
    const starts = run.owners.map((owner, k) => (k === 0 || run.owners[k - 1] !== owner ? k : -1)).filter((k) => k >= 0);
    // Every kind but a number sequence has at most 19 digits; longer sub-runs are not tried.
    const candidates: { a: number; b: number; digits: string }[] = [{ a: 0, b: run.digits.length, digits: run.digits }];
    for (const a of starts) {
      for (let b = Math.min(run.digits.length, a + 19); b > a; b--) {
        if ((b < run.digits.length && run.owners[b] === run.owners[b - 1]) || (a === 0 && b === run.digits.length)) continue;
        candidates.push({ a, b, digits: run.digits.slice(a, b) });
      }
    }
    candidates.sort((x, y) => y.digits.length - x.digits.length);
    const span = (c: { a: number; b: number }): [number, number] => [run.owners[c.a] ?? run.first, run.owners[c.b - 1] ?? run.last];
    const tryKind = (kind: PiiKind, test: (digits: string, from: number, to: number) => boolean) => {
      if (!wanted.has(kind)) return;
      for (const candidate of candidates) {
        const [from, to] = span(candidate);
        if (free(from, to) && test(candidate.digits, from, to)) claim(from, to, kind);
      }
    };
    tryKind('credit_card', (d) => d.length >= 13 && d.length <= 19 && luhnValid(d));
    tryKind('us_ssn', (d, from, to) => ssnValid(d) && ((from === to && /^\d{3}-\d{2}-\d{4}$/.test(normalToken(raw[from] ?? ''))) || near(tokens, from, SSN_CONTEXT)));
    tryKind('phone_number', (d, from, to) => {
      const written = raw.slice(from, to + 1).join(' ');
      if (/^\+/.test(normalToken(raw[from] ?? ''))) return d.length >= 8 && d.length <= 15;
      if (d.length === 10) return /^[2-9]/.test(d);
      if (d.length === 11) return /^1[2-9]/.test(d);
      if (d.length === 7) return /^[2-9]/.test(d) && (/\d{3}[-.]\d{4}/.test(written) || near(tokens, from, PHONE_CONTEXT, 6));
      return false;
    });
    tryKind('number_sequence', (d) => d.length >= 4);
    // The rest of a number said in one breath goes with the part found in it: a phone number's
    // ten digits read in a run of eleven leave no digit in clear.
    for (const range of ranges.filter((r) => r.from >= run.first && r.to <= run.last)) {
      let from = range.from;
      let to = range.to;
      while (from - 1 >= run.first && free(from - 1, from - 1)) from--;
      while (to + 1 <= run.last && free(to + 1, to + 1)) to++;
      if (from === range.from && to === range.to) continue;
      for (let i = from; i <= to; i++) taken.add(i);
      range.from = from;
      range.to = to;
    }
  }
  return ranges.sort((a, b) => a.from - b.from);
}

/** Spoken or written e-mail addresses: name (dot name)* at domain (dot part)+ ending in a known TLD. */
export function emails(tokens: readonly string[]): [number, number][] {
  const found: [number, number][] = [];
  const isPart = (t: string | undefined) => t !== undefined && /^[a-z0-9][a-z0-9._-]*$/.test(t) && t !== 'at' && t !== 'dot';
  const tldOf = (t: string) => TLDS.has(t.split('.').at(-1) ?? '');
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    if (/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/.test(token)) {
      found.push([i, i]);
      continue;
    }
    if ((token !== 'at' && token !== '@') || !isPart(tokens[i - 1]) || !isPart(tokens[i + 1])) continue;
    // The domain: written ("example.com"), spoken ("example dot com"), or both ("example.co dot uk").
    let end = i + 1;
    let dotted = (tokens[end] ?? '').includes('.');
    while ((tokens[end + 1] === 'dot' || tokens[end + 1] === '.') && isPart(tokens[end + 2])) {
      end += 2;
      dotted = true;
    }
    if (!dotted || !tldOf(tokens[end] ?? '')) continue;
    let start = i - 1;
    while ((tokens[start - 1] === 'dot' || tokens[start - 1] === 'underscore') && isPart(tokens[start - 2])) start -= 2;
    found.push([start, end]);
    i = end;
  }
  return found;
}

export const piiMarker = (kind: PiiKind) => `[${kind.toUpperCase()}]`;
