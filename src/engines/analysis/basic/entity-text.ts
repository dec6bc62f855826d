// Entities rendered as answer text: spoken amounts, identifiers and e-mail addresses in written form.
import type { Intent } from './query.ts';
import { CURRENCY_WORDS, digitOf, numberGroups } from './spoken-numbers.ts';
import type { Entity, Token, Unit } from './tokens.ts';

/** Hedges before an amount ("about twelve") that are not part of the number. */
const HEDGES = new Set(['about', 'around', 'roughly', 'approximately', 'nearly', 'almost', 'over', 'under']);

function formatAmount(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/** "fifty nine dollars and ninety nine cents" -> "$59.99"; written amounts ("$36.99") stay as they are. */
function normalizeMoney(toks: Token[], raw: string): string {
  if (toks.some((t) => t.type === 'currency')) return raw;
  let symbol: string | null = null;
  const main: string[] = [];
  const cents: string[] = [];
  let mode: 'main' | 'cents' | 'done' = 'main';
  for (const t of toks) {
    const cur = CURRENCY_WORDS.get(t.normal);
    if (cur !== undefined) {
      if (cur === '') {
        if (mode === 'main' && symbol === null) {
          // "ninety nine cents" alone
          const g = numberGroups(main);
          if (g === null || g.length !== 1 || g[0] === undefined) return raw;
          return `${g[0]} cents`;
        }
        mode = 'done';
      } else {
        symbol = symbol ?? cur;
        mode = 'cents';
      }
      continue;
    }
    if (t.normal === 'and' && mode === 'cents') continue;
    if (HEDGES.has(t.normal)) continue;
    if (mode === 'main') main.push(t.normal);
    else if (mode === 'cents') cents.push(t.normal);
  }
  const g = numberGroups(main);
  if (g === null) return raw;
  let value: number | null = null;
  if (g.length === 1 && g[0] !== undefined) value = g[0];
  else if (g.length === 2 && g[0] !== undefined && g[1] !== undefined && g[1] >= 10 && g[1] < 100) value = g[0] + g[1] / 100;
  if (value === null) return raw;
  if (cents.length > 0) {
    const c = numberGroups(cents);
    if (c !== null && c.length === 1 && c[0] !== undefined && c[0] < 100) value += c[0] / 100;
  }
  const amount = value % 1 === 0 ? String(value) : value.toFixed(2);
  return symbol === null ? amount : `${symbol}${amount}`;
}

/** "seventeen ninety nine" -> "17.99", "twelve" -> "12"; raw text otherwise. */
function normalizeNumber(toks: Token[], raw: string, priceSpeak: boolean): string {
  const words = toks.filter((t) => !HEDGES.has(t.normal)).map((t) => t.normal);
  const g = numberGroups(words);
  if (g === null) return raw;
  if (g.length === 1 && g[0] !== undefined) return formatAmount(g[0]);
  if (priceSpeak && g.length === 2 && g[0] !== undefined && g[1] !== undefined && g[1] >= 10 && g[1] < 100 && g[1] % 10 !== 0) {
    return (g[0] + g[1] / 100).toFixed(2);
  }
  return raw;
}

/** "p k seven seven three zero" -> "PK7730". */
function normalizeId(toks: Token[]): string {
  return toks
    .map((t) => digitOf(t) ?? (t.type === 'number' ? t.value.replace(/[^0-9a-z]/gi, '') : t.value.toUpperCase()))
    .join('');
}

/** "marco underscore lind at fastpost dot net" -> "marco_lind@fastpost.net". */
function spokenEmail(toks: Token[]): string {
  return toks
    .map((t) => (t.normal === 'at' ? '@' : t.normal === 'dot' ? '.' : t.normal === 'underscore' ? '_' : t.normal))
    .join('');
}

function entityText(u: Unit, e: Entity): string {
  const a = u.toks[e.from];
  const b = u.toks[e.to];
  return a === undefined || b === undefined ? '' : u.text.slice(a.start, b.end);
}

/** The entity as answer text, written form where the spoken form can be normalised; null when unusable. */
export function renderEntity(u: Unit, e: Entity, intent: Intent): string | null {
  const toks = u.toks.slice(e.from, e.to + 1);
  const raw = entityText(u, e);
  switch (e.type) {
    case 'MONEY':
      return normalizeMoney(toks, raw);
    case 'ID':
      return normalizeId(toks);
    case 'EMAIL':
      return toks.length === 1 ? raw : spokenEmail(toks);
    case 'CARDINAL': {
      if (intent === 'id') {
        const digits = toks.map((t) => t.normal).join('');
        return /^\d{3,}$/.test(digits) ? digits : null;
      }
      return normalizeNumber(toks, raw, intent === 'money');
    }
    case 'TIME': {
      // Attach an immediately preceding date: "thursday at two fifteen".
      const prevEnt = u.ents.find((o) => o.type === 'DATE' && o.to < e.from && e.from - o.to <= 2);
      if (prevEnt !== undefined && (intent === 'time' || intent === 'date')) {
        const a = u.toks[prevEnt.from];
        const b = u.toks[e.to];
        if (a !== undefined && b !== undefined) return u.text.slice(a.start, b.end);
      }
      return raw;
    }
    case 'DATE': {
      const nextEnt = u.ents.find((o) => o.type === 'TIME' && o.from > e.to && o.from - e.to <= 2);
      if (nextEnt !== undefined && (intent === 'time' || intent === 'date')) {
        const a = u.toks[e.from];
        const b = u.toks[nextEnt.to];
        if (a !== undefined && b !== undefined) return u.text.slice(a.start, b.end);
      }
      return raw;
    }
    default:
      return raw;
  }
}
