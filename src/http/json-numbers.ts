// Numbers a JSON text writes beyond what a JSON number keeps exactly. JSON.parse reads
// 12345678901234567890 as 12345678901234567000 and 1.0000000000000000000001 as 1, so a metadata
// value would come back changed and a filter on it would find nothing: such a number is refused
// (400), asking for a string instead. The same number written otherwise (1.50 for 1.5, 1e21) is
// kept: it is the same value. Elsewhere (a retention, a limit) the number is left to the field's
// own check, which names its range: a string would be no answer there.

const UNSAFE_INTEGER_MESSAGE = `is an integer beyond what a JSON number keeps exactly (±${Number.MAX_SAFE_INTEGER}): send it as a string`;
const INEXACT_NUMBER_MESSAGE = 'has more digits, or a smaller exponent, than a JSON number keeps exactly: send it as a string';

const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** A decimal number as significant digits (no leading or trailing zeros) and the power of ten after its first digit; "" for zero. */
function decimal(literal: string): { digits: string; exponent: number } | null {
  const match = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!match) return null;
  const whole = match[1]!;
  const all = whole + (match[2] ?? '');
  const leading = all.length - all.replace(/^0+/, '').length;
  const digits = all.replace(/^0+/, '').replace(/0+$/, '');
  return { digits, exponent: digits === '' ? 0 : whole.length - leading - 1 + Number(match[3] ?? 0) };
}

/** The literal stands for another value than the number JSON.parse makes of it. */
function changedByParsing(literal: string): boolean {
  const written = decimal(literal);
  const kept = decimal(String(Math.abs(Number(literal))));
  return written === null || kept === null || written.digits !== kept.digits || written.exponent !== kept.exponent;
}

/** The number literals of a JSON text (outside its strings) that a number cannot keep exactly, each with whether it is an integer. */
function* inexactLiterals(text: string): Generator<{ literal: string; integer: boolean }> {
  // A decimal of 15 significant digits or fewer, without an exponent, is always kept exactly.
  if (!/\d{16}|\d[eE][+-]?\d/.test(text)) return;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, past escaped characters.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) continue;
      const integer = match[1] === undefined && match[2] === undefined;
      // A number beyond the largest a double holds (1e400) is refused as not finite, where values are checked (text-guard.ts).
      const decimalKept = !Number.isFinite(Number(match[0])) || !changedByParsing(match[0]);
      if (integer ? !Number.isSafeInteger(Number(match[0])) : !decimalKept) yield { literal: match[0], integer };
      i += match[0].length - 1;
    }
  }
}

/**
 * Where `text` (JSON that parsed to `value`) writes a number a JSON number cannot keep exactly, and
 * why, or null: the number's JSON-pointer path without its leading slash, under `base` ("" for the
 * top of a body; `whole` names the value itself). Only numbers at a path `kept` accepts count.
 */
export function inexactNumber(text: string, value: unknown, base: string, whole: string, kept: (path: string) => boolean = () => true): { path: string; message: string } | null {
  for (const found of inexactLiterals(text)) {
    const path = pathOfNumber(value, Number(found.literal), base) || whole;
    if (kept(path)) return { path, message: `${found.literal} ${found.integer ? UNSAFE_INTEGER_MESSAGE : INEXACT_NUMBER_MESSAGE}` };
  }
  return null;
}

/** A path inside metadata, a recording's or a selection's: a value kept and matched as it was sent. */
export const inMetadata = (path: string): boolean => path.split('/').includes('metadata');

/** The path under `path` of the first number in `value` equal to `n` (JSON's null for a number too large), or null. */
function pathOfNumber(value: unknown, n: number, path: string): string | null {
  if (typeof value === 'number') return value === n || (Number.isNaN(value) && Number.isNaN(n)) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = pathOfNumber(item, n, path === '' ? key : `${path}/${key}`);
    if (found !== null) return found;
  }
  return null;
}
