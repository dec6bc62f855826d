// Numbers said aloud, written as digits (inverse text normalisation) in the words' written form:
// "twenty five dollars" → "$25", "ninety nine percent" → "99%", "two thirty p m" → "2:30 PM",
// "four one one one" → "4111", "one hundred and twelve" → "112", "may fifth" → "May 5th".
// A number written spans several recognised words: the first carries the written form (and the
// last one's punctuation), the others write nothing; each keeps `word` as recognised, so search,
// phrase rules and redaction read what was said. A lone number under ten stays a word ("one of
// them"), as style guides write it, unless money, a percentage or a time follows.
const UNITS: Record<string, number> = {
  zero: 0, oh: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const SCALES: Record<string, number> = { thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 };
const ORDINAL_UNITS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12, thirteenth: 13,
  fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19, twentieth: 20, thirtieth: 30,
};
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const CURRENCIES: Record<string, string> = { dollar: '$', dollars: '$', bucks: '$', euro: '€', euros: '€', pound: '£', pounds: '£' };
const CENTS = new Set(['cent', 'cents', 'pence']);

export interface WrittenWord {
  word: string;
  punctuated_word: string;
}

const bare = (w: WrittenWord | undefined) => (w ? w.word.toLowerCase().replace(/[^a-z']/g, '') : '');
const isDigitWord = (token: string) => token in UNITS && UNITS[token]! <= 9;
const isNumberWord = (token: string) => token in UNITS || token in TENS || token === 'hundred' || token in SCALES;

/** A cardinal read from tokens at `at`: its value and how many tokens it took (0 when none). */
export function readCardinal(tokens: readonly string[], at: number): { value: number; length: number } {
  let total = 0;
  let group = 0;
  let i = at;
  let last: 'unit' | 'ten' | 'hundred' | 'scale' | null = null;
  let taken = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (token === 'and' && last === 'hundred' && (tokens[i + 1]! in UNITS || tokens[i + 1]! in TENS)) {
      i += 1;
      continue;
    }
    if (token in UNITS && token !== 'oh') {
      // "twenty five" joins; "five five" is two numbers (digits are read apart, below).
      if (last === 'unit' || (last === 'ten' && UNITS[token]! >= 10) || (last === 'ten' && UNITS[token] === 0)) break;
      group += UNITS[token]!;
      last = 'unit';
    } else if (token in TENS) {
      if (last === 'unit' || last === 'ten') break;
      group += TENS[token]!;
      last = 'ten';
    } else if (token === 'hundred') {
      if (last !== 'unit') break;
      group = (group === 0 ? 1 : group) * 100;
      last = 'hundred';
    } else if (token in SCALES) {
      if (last === null || last === 'scale') break;
      total += (group === 0 ? 1 : group) * SCALES[token]!;
      group = 0;
      last = 'scale';
    } else break;
    i += 1;
    taken = i - at;
  }
  return { value: total + group, length: taken };
}

/** Single digits said one by one ("four one one one"), at least three: written as one string. */
function readDigits(tokens: readonly string[], at: number): string | null {
  let digits = '';
  for (let i = at; i < tokens.length && isDigitWord(tokens[i]!); i++) digits += String(UNITS[tokens[i]!]);
  return digits.length >= 3 ? digits : null;
}

const trailing = (written: string) => /[.,?!;:]+$/.exec(written)?.[0] ?? '';

/** The words with numbers written as digits (see the head of this file). */
export function writeNumbers<W extends WrittenWord>(words: readonly W[]): W[] {
  const out = words.map((w) => ({ ...w }));
  const tokens = words.map(bare);
  /** Writes `text` over words [from, from + length). */
  const write = (from: number, length: number, text: string) => {
    const end = trailing(out[from + length - 1]!.punctuated_word);
    out[from]!.punctuated_word = text + end;
    for (let k = from + 1; k < from + length; k++) out[k]!.punctuated_word = '';
  };
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i]!;
    // A month and its day: "may fifth" → "May 5th", "june twenty first" → "June 21st".
    if (MONTHS.includes(token)) {
      const day = readOrdinal(tokens, i + 1);
      if (day) {
        const month = token.charAt(0).toUpperCase() + token.slice(1);
        write(i, 1 + day.length, `${month} ${day.value}${suffix(day.value)}`);
        i += 1 + day.length;
        continue;
      }
    }
    if (!isNumberWord(token)) {
      i += 1;
      continue;
    }
    const digits = readDigits(tokens, i);
    if (digits !== null) {
      const length = digits.length;
      write(i, length, digits);
      i += length;
      continue;
    }
    const { value, length } = readCardinal(tokens, i);
    if (length === 0) {
      i += 1;
      continue;
    }
    const next = tokens[i + length];
    // Money: "twenty five dollars (and fifty cents)".
    if (next !== undefined && next in CURRENCIES) {
      let taken = length + 1;
      let text = `${CURRENCIES[next]}${value}`;
      if (tokens[i + taken] === 'and') {
        const cents = readCardinal(tokens, i + taken + 1);
        if (cents.length > 0 && cents.value < 100 && CENTS.has(tokens[i + taken + 1 + cents.length]!)) {
          text += `.${String(cents.value).padStart(2, '0')}`;
          taken += 1 + cents.length + 1;
        }
      }
      write(i, taken, text);
      i += taken;
      continue;
    }
    if (next === 'percent' || (next === 'per' && tokens[i + length + 1] === 'cent')) {
      const taken = length + (next === 'percent' ? 1 : 2);
      write(i, taken, `${value}%`);
      i += taken;
      continue;
    }
    // Times: "two thirty p m", "ten a m", "seven o'clock".
    const time = readTime(tokens, i, value, length);
    if (time) {
      write(i, time.length, time.text);
      i += time.length;
      continue;
    }
    if (value >= 10 || length > 1) write(i, length, String(value));
    i += length;
  }
  return out;
}

function readOrdinal(tokens: readonly string[], at: number): { value: number; length: number } | null {
  const first = tokens[at];
  if (first === undefined) return null;
  if (first in ORDINAL_UNITS) return { value: ORDINAL_UNITS[first]!, length: 1 };
  if (first in TENS && tokens[at + 1] !== undefined && tokens[at + 1]! in ORDINAL_UNITS && ORDINAL_UNITS[tokens[at + 1]!]! < 10) {
    return { value: TENS[first]! + ORDINAL_UNITS[tokens[at + 1]!]!, length: 2 };
  }
  return null;
}

const suffix = (n: number) => (n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');

function readTime(tokens: readonly string[], at: number, hour: number, length: number): { text: string; length: number } | null {
  if (length !== 1 || hour < 1 || hour > 12) {
    // "two thirty" is read as one cardinal of two tokens (32 would be "thirty two"): split it back.
    if (length === 2 && tokens[at]! in UNITS && tokens[at + 1]! in TENS) return readTime(tokens, at, UNITS[tokens[at]!]!, 1);
    return null;
  }
  let i = at + 1;
  let minutes: number | null = null;
  if (tokens[i] === "o'clock") return { text: `${hour}:00`, length: 2 };
  if (tokens[i] === 'oh' && tokens[i + 1] !== undefined && isDigitWord(tokens[i + 1]!)) {
    minutes = UNITS[tokens[i + 1]!]!;
    i += 2;
  } else {
    const m = readCardinal(tokens, i);
    if (m.length > 0 && m.value >= 10 && m.value <= 59) {
      minutes = m.value;
      i += m.length;
    }
  }
  const meridiem = readMeridiem(tokens, i);
  if (!meridiem) return null;
  return { text: `${hour}${minutes === null ? '' : `:${String(minutes).padStart(2, '0')}`} ${meridiem.text}`, length: i + meridiem.length - at };
}

function readMeridiem(tokens: readonly string[], at: number): { text: string; length: number } | null {
  const a = tokens[at];
  const b = tokens[at + 1];
  if ((a === 'a' || a === 'p') && b === 'm') return { text: `${a.toUpperCase()}M`, length: 2 };
  if (a === 'am' || a === 'pm' || a === "a.m" || a === 'p.m') return { text: `${a.charAt(0).toUpperCase()}M`, length: 1 };
  return null;
}
