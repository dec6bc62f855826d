// Numbers said aloud, written as digits (inverse text normalisation) in the words' written form:
// "twenty five dollars" → "$25", "ninety nine percent" → "99%", "two thirty p m" → "2:30 PM",
// "four one one one" → "4111", ten digits → "555-247-8139", "four pm" → "4 PM", "one hundred and
// twelve" → "112", "may fifth" → "May 5th", "the third of may" → "the 3rd of May".
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
// "pounds" is money only where the words around it say so (poundsAreMoney): "I lost ten pounds" is a
// weight as often as money.
const CURRENCIES: Record<string, string> = { dollar: '$', dollars: '$', bucks: '$', euro: '€', euros: '€' };
/** A month named only after one of these is a date ("on may fifth"), not the verb ("you may first"). */
const DATE_WORDS = new Set(['on', 'of', 'by', 'since', 'until', 'till', 'from', 'before', 'after', 'the']);
const CENTS = new Set(['cent', 'cents', 'pence']);
/** "the fifteenth of every month": the words between "of" and "month". */
const MONTH_EACH = new Set(['every', 'each', 'the', 'this', 'next', 'last']);
/** After "on the fifteenth", the words that say it was a day ("on the fifth at noon"), not a thing ("on the fifth floor"). */
const AFTER_A_DAY = new Set(['at', 'then', 'instead', 'please', 'if', 'when', 'so', 'but']);
/** Pounds are money where a price's words follow ("thirty five pounds a month") and money is being talked of before it. */
const PRICE_PERIODS = new Set(['month', 'year', 'week', 'day', 'night', 'quarter']);
/** Words of money a few words before "pounds": "the plan costs thirty five pounds a month" (not "I lost five pounds a week"). */
const MONEY_WORDS = new Set(['cost', 'costs', 'costing', 'pay', 'paying', 'paid', 'price', 'priced', 'charge', 'charged', 'charges', 'fee', 'fees', 'plan', 'bill', 'billed', 'refund', 'refunded', 'owe', 'owed', 'balance', 'credit', 'credited', 'spend', 'spent', 'save', 'discount', 'tariff', 'subscription', 'payment', 'rent']);
const MONEY_REACH = 6;

export interface WrittenWord {
  word: string;
  punctuated_word: string;
}

const bare = (w: WrittenWord | undefined) => (w ? w.word.toLowerCase().replace(/[^a-z']/g, '') : '');
const isDigitWord = (token: string) => token in UNITS && UNITS[token]! <= 9;
export const isNumberWord = (token: string) => token in UNITS || token in TENS || token === 'hundred' || token in SCALES;
const startsNumber = (tokens: readonly string[], i: number) => isNumberWord(tokens[i]!) || (tokens[i] === 'a' && (tokens[i + 1] === 'hundred' || tokens[i + 1]! in SCALES));

/** A cardinal read from tokens at `at`: its value and how many tokens it took (0 when none). */
export function readCardinal(tokens: readonly string[], at: number): { value: number; length: number } {
  let total = 0;
  let group = 0;
  let i = at;
  let last: 'unit' | 'ten' | 'hundred' | 'scale' | null = null;
  let taken = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    // "a hundred", "a thousand": one.
    if (token === 'a' && last === null && (tokens[i + 1] === 'hundred' || tokens[i + 1]! in SCALES)) {
      group = 1;
      last = 'unit';
      i += 1;
      continue;
    }
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

/** A North American number: area code and exchange each start 2–9, and an area code is not N11 (411, 911). */
const NORTH_AMERICAN = /^[2-9](?!11)\d\d[2-9]\d{6}$/;

/** Ten digits said one by one in a phone number's shape are one (with a leading 1, eleven): 555-247-8139, 1-800-555-0199. */
function phoneNumber(digits: string): string | null {
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits.length === 10 ? digits : null;
  if (national === null || !NORTH_AMERICAN.test(national)) return null;
  return `${national === digits ? '' : '1-'}${national.slice(0, 3)}-${national.slice(3, 6)}-${national.slice(6)}`;
}

/** Single digits said one by one ("four one one one"), at least three, within one sentence: one string. */
function readDigits(tokens: readonly string[], at: number, stops: readonly boolean[]): string | null {
  let digits = '';
  for (let i = at; i < tokens.length && isDigitWord(tokens[i]!); i++) {
    digits += String(UNITS[tokens[i]!]);
    if (stops[i]) break;
  }
  return digits.length >= 3 ? digits : null;
}

const trailing = (written: string) => /[.,?!;:]+$/.exec(written)?.[0] ?? '';

/** The words with numbers written as digits (see the head of this file). */
export function writeNumbers<W extends WrittenWord>(words: readonly W[]): W[] {
  const out = words.map((w) => ({ ...w }));
  // A word whose written form ends a clause (a comma, a full stop) ends any number it is in.
  const stops = words.map((w) => /[.,?!;:]$/.test(w.punctuated_word));
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
    if (MONTHS.includes(token) && (token !== 'may' || DATE_WORDS.has(tokens[i - 1] ?? ''))) {
      const day = readOrdinal(tokens, i + 1);
      if (day) {
        const month = token.charAt(0).toUpperCase() + token.slice(1);
        write(i, 1 + day.length, `${month} ${day.value}${suffix(day.value)}`);
        i += 1 + day.length;
        continue;
      }
    }
    // A day before its month: "the third of may" → "the 3rd of May" ("first of all" has no month).
    if (token === 'the' && !stops[i]) {
      const day = readOrdinal(tokens, i + 1);
      const of = day ? i + 1 + day.length : -1;
      if (day && tokens[of] === 'of' && MONTHS.includes(tokens[of + 1] ?? '') && !stops.slice(i + 1, of + 1).some(Boolean)) {
        write(i + 1, day.length, `${day.value}${suffix(day.value)}`);
        const month = out[of + 1]!;
        month.punctuated_word = month.punctuated_word.charAt(0).toUpperCase() + month.punctuated_word.slice(1);
        i = of + 2;
        continue;
      }
      // …and a day of every month ("the fifteenth of every month"), or one said after "on" ("on the
      // fifteenth.", "on the twenty first at noon"): a date without its month.
      const ofAMonth = tokens[of] === 'of' && MONTH_EACH.has(tokens[of + 1] ?? '') && tokens[of + 2] === 'month';
      const onTheDay = tokens[i - 1] === 'on' && day !== null && (stops[of - 1] || of >= tokens.length || AFTER_A_DAY.has(tokens[of] ?? ''));
      if (day && (ofAMonth || onTheDay) && !stops.slice(i + 1, of - 1).some(Boolean)) {
        write(i + 1, day.length, `${day.value}${suffix(day.value)}`);
        i = of;
        continue;
      }
    }
    if (!startsNumber(tokens, i)) {
      i += 1;
      continue;
    }
    const digits = readDigits(tokens, i, stops);
    if (digits !== null) {
      const length = digits.length;
      write(i, length, phoneNumber(digits) ?? digits);
      i += length;
      continue;
    }
    // Years said in pairs: "nineteen eighty five" → 1985, "twenty twenty four" → 2024.
    const year = tokens[i - 1] === 'at' ? null : readYear(tokens, i, stops);
    if (year) {
      write(i, year.length, String(year.value));
      i += year.length;
      continue;
    }
    const cardinal = readCardinal(tokens, i);
    let { length } = cardinal;
    const { value } = cardinal;
    if (length === 0 || stops.slice(i, i + length - 1).some(Boolean)) {
      i += 1;
      continue;
    }
    // Decimals: "twenty point five" → 20.5.
    let decimal = '';
    if (tokens[i + length] === 'point' && !stops[i + length - 1]) {
      let k = i + length + 1;
      while (k < tokens.length && isDigitWord(tokens[k]!)) {
        decimal += String(UNITS[tokens[k]!]);
        if (stops[k++]) break;
      }
      if (decimal) length = k - i;
    }
    const number = decimal ? `${value}.${decimal}` : String(value);
    const next = tokens[i + length];
    // Money: "twenty five dollars (and fifty cents)"; pounds only as a price ("… a month").
    const pounds = (next === 'pounds' || next === 'pound') && poundsAreMoney(tokens, i, i + length + 1);
    if (next !== undefined && (next in CURRENCIES || pounds)) {
      let taken = length + 1;
      let text = `${pounds ? '£' : CURRENCIES[next]}${number}`;
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
      write(i, taken, `${number}%`);
      i += taken;
      continue;
    }
    // Times: "two thirty p m", "ten a m", "seven o'clock".
    const time = decimal ? null : readTime(tokens, i, value, length, tokens[i - 1] === 'at', stops);
    if (time) {
      write(i, time.length, time.text);
      i += time.length;
      continue;
    }
    // Right after a number left in words ("two thirty" without a time's context), stay in words.
    const afterWordNumber = i > 0 && isNumberWord(tokens[i - 1]!) && out[i - 1]!.punctuated_word !== '' && !/\d/.test(out[i - 1]!.punctuated_word);
    if ((value >= 10 || length > 1 || decimal) && !afterWordNumber) write(i, length, number);
    i += length;
  }
  return out;
}

/**
 * Whether the pounds after the number at `at` are money (the word after "pounds" at `after`): their
 * pence follow ("ten pounds and fifty pence"), or a price's period where money was talked of just
 * before ("the plan costs thirty five pounds a month"; not "I lost fifteen pounds a week").
 */
function poundsAreMoney(tokens: readonly string[], at: number, after: number): boolean {
  if (tokens[after] === 'and' && CENTS.has(tokens[after + 1 + readCardinal(tokens, after + 1).length] ?? '')) return true;
  const aPrice = (tokens[after] === 'a' || tokens[after] === 'per') && PRICE_PERIODS.has(tokens[after + 1] ?? '');
  return aPrice && tokens.slice(Math.max(0, at - MONEY_REACH), at).some((token) => MONEY_WORDS.has(token));
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

/** A time at `at`: an hour, minutes, and a.m./p.m.; `afterAt`: "at" comes before, so "at two thirty" is a time without them. */
function readTime(tokens: readonly string[], at: number, hour: number, length: number, afterAt: boolean, stops: readonly boolean[]): { text: string; length: number } | null {
  if (length !== 1 || hour < 1 || hour > 12) return null;
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
  if (!meridiem) return afterAt && minutes !== null ? { text: `${hour}:${String(minutes).padStart(2, '0')}`, length: i - at } : null;
  // "am" alone after an hour is the verb only where "I" follows in its sentence ("which one am I"); "pm" alone is always a time.
  if (meridiem.length === 1 && minutes === null && !afterAt && tokens[i] === 'am' && !stops[i] && tokens[i + 1] === 'i') return null;
  return { text: `${hour}${minutes === null ? '' : `:${String(minutes).padStart(2, '0')}`} ${meridiem.text}`, length: i + meridiem.length - at };
}

function readMeridiem(tokens: readonly string[], at: number): { text: string; length: number } | null {
  const a = tokens[at];
  const b = tokens[at + 1];
  if ((a === 'a' || a === 'p') && b === 'm') return { text: `${a.toUpperCase()}M`, length: 2 };
  if (a === 'am' || a === 'pm' || a === "a.m" || a === 'p.m') return { text: `${a.charAt(0).toUpperCase()}M`, length: 1 };
  return null;
}

/** A year said as two pairs: a teen or "twenty", then 10–99 or "oh" and a digit ("nineteen oh five"). */
function readYear(tokens: readonly string[], at: number, stops: readonly boolean[]): { value: number; length: number } | null {
  const first = tokens[at]!;
  const century = first in UNITS && UNITS[first]! >= 11 && UNITS[first]! <= 19 ? UNITS[first]! : first === 'twenty' ? 20 : null;
  if (century === null || stops[at]) return null;
  if (tokens[at + 1] === 'oh' && tokens[at + 2] !== undefined && isDigitWord(tokens[at + 2]!) && !stops[at + 1]) return { value: century * 100 + UNITS[tokens[at + 2]!]!, length: 3 };
  const rest = readCardinal(tokens, at + 1);
  if (rest.length === 0 || rest.value < 10 || rest.value > 99 || tokens[at + 1]! in UNITS && UNITS[tokens[at + 1]!]! < 10) return null;
  if (stops.slice(at + 1, at + rest.length).some(Boolean)) return null;
  // "twenty five" is a number, not a year: the second pair must be a whole pair (a teen, a ten, or a ten and a unit).
  return { value: century * 100 + rest.value, length: 1 + rest.length };
}
