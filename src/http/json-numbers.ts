// Integers a JSON text writes beyond what a JSON number keeps exactly. JSON.parse reads
// 12345678901234567890 as 12345678901234567000, so a metadata value would come back changed and a
// filter on it would find nothing: such an integer is refused (400), asking for a string instead.

const UNSAFE_INTEGER_MESSAGE = `is an integer beyond what a JSON number keeps exactly (±${Number.MAX_SAFE_INTEGER}): send it as a string`;

const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** The first integer literal of a JSON text (outside its strings) beyond ±(2^53 - 1), or null. */
function unsafeIntegerLiteral(text: string): string | null {
  // Only a text with 16 digits in a row can write one.
  if (!/\d{16}/.test(text)) return null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, past escaped characters.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) continue;
      if (match[1] === undefined && match[2] === undefined && !Number.isSafeInteger(Number(match[0]))) return match[0];
      i += match[0].length - 1;
    }
  }
  return null;
}

/**
 * Where `text` (JSON that parsed to `value`) writes an integer a number cannot keep exactly, and
 * why, or null: the number's JSON-pointer path without its leading slash, under `base` ("" for the
 * top of a body; `whole` names the value itself).
 */
export function inexactInteger(text: string, value: unknown, base: string, whole: string): { path: string; message: string } | null {
  const literal = unsafeIntegerLiteral(text);
  if (literal === null) return null;
  return { path: pathOfNumber(value, Number(literal), base) || whole, message: `${literal} ${UNSAFE_INTEGER_MESSAGE}` };
}

/** The path under `path` of the first number in `value` equal to `n`, or null. */
function pathOfNumber(value: unknown, n: number, path: string): string | null {
  if (typeof value === 'number') return value === n ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = pathOfNumber(item, n, path === '' ? key : `${path}/${key}`);
    if (found !== null) return found;
  }
  return null;
}
