// E-mail and web addresses said aloud, written as addresses in formatted text: "john dot smith at
// example dot com" → "john.smith@example.com", "w w w dot example dot com slash help" →
// "www.example.com/help". As with numbers, the first word carries the address (and the last
// word's punctuation), the others write nothing, and every word keeps what was recognised.
import { emails, TLDS } from './pii.ts';
import type { WrittenWord } from './numbers.ts';

const SPOKEN: Record<string, string> = { dot: '.', at: '@', underscore: '_', dash: '-', hyphen: '-', slash: '/' };
const trailing = (written: string) => /[.,?!;:]+$/.exec(written)?.[0] ?? '';
const isPart = (token: string | undefined) => token !== undefined && /^[a-z0-9][a-z0-9-]*$/.test(token) && !(token in SPOKEN);

/** Words that open a sentence, not an address ("the dot com years"). */
const NOT_A_NAME = new Set(['the', 'a', 'an', 'that', 'this', 'it', 'in', 'on', 'to', 'of', 'and', 'or', 'is', 'was', 'at']);

/** Web addresses: ("w w w" | "www") dot label, or a label; then (dot label)+ ending in a top-level domain; then (slash part)*. */
export function webAddresses(tokens: readonly string[]): [number, number][] {
  const found: [number, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    let label: number;
    if (tokens[i] === 'w' && tokens[i + 1] === 'w' && tokens[i + 2] === 'w') label = i + 4;
    else if (tokens[i] === 'www') label = i + 2;
    else label = i;
    if (label > i && tokens[label - 1] !== 'dot') continue;
    if (!isPart(tokens[label]) || (label === i && (NOT_A_NAME.has(tokens[i]!) || tokens[i - 1] === 'at' || tokens[i - 1] === 'dot'))) continue;
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
    if (from <= last) continue;
    const written = tokens.slice(from, to + 1).map((t) => SPOKEN[t] ?? t).join('');
    out[from]!.punctuated_word = written + trailing(out[to]!.punctuated_word);
    for (let k = from + 1; k <= to; k++) out[k]!.punctuated_word = '';
    last = to;
  }
  return out;
}
