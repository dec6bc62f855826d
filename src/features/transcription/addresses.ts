// E-mail and web addresses said aloud, written as addresses in formatted text: "john dot smith at
// example dot com" → "john.smith@example.com", "w w w dot example dot com slash help" →
// "www.example.com/help". As with numbers, the first word carries the address (and the last
// word's punctuation), the others write nothing, and every word keeps what was recognised.
import { emails, TLDS } from './pii.ts';
import type { WrittenWord } from './numbers.ts';

const SPOKEN: Record<string, string> = { dot: '.', at: '@', underscore: '_', dash: '-', hyphen: '-', slash: '/' };
const trailing = (written: string) => /[.,?!;:]+$/.exec(written)?.[0] ?? '';
const isPart = (token: string | undefined) => token !== undefined && /^[a-z0-9][a-z0-9-]*$/.test(token) && !(token in SPOKEN);

/** A bare address ("example dot com", without "www") counts only after one of these words ("visit example dot com"), not in "we use dot net" or "the whole dot com thing". */
const ADDRESS_CUES = new Set(['visit', 'to', 'at', 'on', 'website', 'site', 'page', 'address', 'url', 'link', 'check', 'see', 'is', 'go', 'browse', 'open']);

/** Web addresses: ("w w w" | "www") dot label, or a label; then (dot label)+ ending in a top-level domain; then (slash part)*. */
export function webAddresses(tokens: readonly string[]): [number, number][] {
  const found: [number, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    let label: number;
    if (tokens[i] === 'w' && tokens[i + 1] === 'w' && tokens[i + 2] === 'w') label = i + 4;
    else if (tokens[i] === 'www') label = i + 2;
    else label = i;
    if (label > i && tokens[label - 1] !== 'dot') continue;
    if (!isPart(tokens[label]) || (label === i && (!ADDRESS_CUES.has(tokens[i - 1] ?? '') || tokens[i - 1] === 'dot'))) continue;
    let end = label;
    while (tokens[end + 1] === 'dot' && isPart(tokens[end + 2])) end += 2;
    if (end === label || !TLDS.has(tokens[end]!)) continue;
    while (tokens[end + 1] === 'slash' && isPart(tokens[end + 2])) end += 2;
    found.push([i, end]);
    i = end;
  }
  return found;
}

/** The words with e-mail and web addresses written as addresses. */
export function writeAddresses<W extends WrittenWord>(words: readonly W[]): W[] {
  const out = words.map((w) => ({ ...w }));
  const tokens = words.map((w) => w.word.toLowerCase().replace(/[^a-z0-9'-]/g, ''));
  const ranges = [...emails(tokens), ...webAddresses(tokens)].sort((a, b) => a[0] - b[0]);
  let last = -1;
  for (const [from, to] of ranges) {
    // Words a number was written over are left to it.
    if (from <= last || out.slice(from, to + 1).some((w, k) => w.punctuated_word === '' || (/\d/.test(w.punctuated_word) && !/\d/.test(tokens[from + k]!)))) continue;
    const written = tokens.slice(from, to + 1).map((t) => SPOKEN[t] ?? t).join('');
    out[from]!.punctuated_word = written + trailing(out[to]!.punctuated_word);
    for (let k = from + 1; k <= to; k++) out[k]!.punctuated_word = '';
    last = to;
  }
  return out;
}
