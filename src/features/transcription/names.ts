// Names and places written with their capitals: a recognised word that Debian's word list
// (wamerican-large, /usr/share/dict/american-english-large) has only capitalised is written so
// ("london" → "London", "monday" → "Monday", "sam's" → "Sam's", "tv" → "TV"; "sam" → "Sam",
// not the acronym "SAM" the list also has). A name that is also a word ("bill", "john") stays as
// said: the list cannot tell them apart; "may", "march" and "august" are months after "in",
// "since", "next"… ("may" only where a time goes on after it). Without the list installed, words
// stay as they are.
import fs from 'node:fs';

export const WORD_LIST = '/usr/share/dict/american-english-large';
const MARKER = /^\[[A-Z_]+\]$/;

/** Written in capitals throughout ("SAM", "TV"), a plural's s aside ("PMs"). */
const acronym = (entry: string) => {
  const stem = entry.replace(/s$/, '');
  return stem === stem.toUpperCase();
};

/**
 * Lower case → the written form, for every entry the list has only with capitals. Where it has
 * both a name and an acronym ("Sam" and "SAM"), the name: a spoken word is more often the name.
 */
export function capitalisedOnly(list: string): Map<string, string> {
  const entries = list.split('\n').filter((entry) => entry !== '' && !entry.endsWith("'s"));
  const lower = new Set(entries.filter((entry) => entry === entry.toLowerCase()));
  const out = new Map<string, string>();
  for (const entry of entries) {
    const key = entry.toLowerCase();
    if (entry === key || lower.has(key)) continue;
    const kept = out.get(key);
    // Two letters are read as the acronym ("MD", not "Md").
    if (kept === undefined || (key.length > 2 && acronym(kept) && !acronym(entry))) out.set(key, entry);
  }
  return out;
}

/**
 * Lower case → the name, for every entry the list has as a name (a capital, then lower case), also
 * those it has as words too ("maria", "jane", "mike"): what a person introduces themselves by.
 */
export function nameFormsOf(list: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of list.split('\n')) {
    if (/^\p{Lu}\p{Ll}+$/u.test(entry)) out.set(entry.toLowerCase(), entry);
  }
  return out;
}

/** A map read from the word list once, on first use (empty where the list is not installed). */
function fromWordList(build: (list: string) => Map<string, string>): () => Map<string, string> {
  let built: Map<string, string> | null = null;
  return () => {
    if (!built) {
      try {
        built = build(fs.readFileSync(WORD_LIST, 'utf8'));
      } catch {
        built = new Map();
      }
    }
    return built;
  };
}

const nameList = fromWordList(capitalisedOnly);
const namesAnyway = fromWordList(nameFormsOf);

/** Months that are also words ("you may", "a march", "august company"): a month after a word that puts a time after it ("in", "since", "next"…). */
const WORD_MONTHS: ReadonlyMap<string, string> = new Map([['may', 'May'], ['march', 'March'], ['august', 'August']]);
const BEFORE_A_MONTH = new Set(['in', 'for', 'of', 'since', 'until', 'till', 'by', 'during', 'through', 'from', 'to', 'between', 'before', 'after', 'last', 'next', 'this', 'early', 'late', 'mid', 'every', 'each']);
/**
 * "may" is the verb as often after those words ("the day after may be better", "by may I ask"): it
 * is the month only where the words after it go on as a time does, or nothing follows.
 */
const AFTER_MAY = new Set(['and', 'or', 'to', 'through', 'till', 'until', 'of', 'last', 'next', 'this', 'the', 'when', 'is', 'was', 'will']);

/**
 * Each word the list has only capitalised, written with its capitals (a possessive's 's kept, the
 * punctuation after it kept); and "may", "march" and "august" where they follow a word that names a
 * time ("in march", "since may", "next august").
 */
export function writeNames<W extends { word?: string; punctuated_word: string }>(words: W[], list: ReadonlyMap<string, string> = nameList(), forms: ReadonlyMap<string, string> = namesAnyway()): W[] {
  if (list.size === 0) return words;
  writeIntroducedNames(words, forms);
  for (const [i, word] of words.entries()) {
    if (MARKER.test(word.punctuated_word)) continue;
    const match = /^([\p{L}]+)('s)?([.,?!;:]*)$/u.exec(word.punctuated_word);
    if (!match) continue;
    const before = words[i - 1];
    const previous = (before?.word ?? before?.punctuated_word ?? '').toLowerCase();
    const said = match[1]!.toLowerCase();
    // "this may take a while" is the verb.
    const next = (words[i + 1]?.word ?? words[i + 1]?.punctuated_word ?? '').toLowerCase();
    const mayIsMonth = said !== 'may' || (previous !== 'this' && (match[3] !== '' || next === '' || AFTER_MAY.has(next) || /^\d/.test(words[i + 1]?.punctuated_word ?? '')));
    const month = BEFORE_A_MONTH.has(previous) && mayIsMonth && !/[.,?!;:]$/.test(before?.punctuated_word ?? '') ? WORD_MONTHS.get(said) : undefined;
    const written = month ?? list.get(said);
    // At a sentence start too: "tv" is written "TV", not "Tv".
    if (written) word.punctuated_word = `${written}${match[2] ?? ''}${match[3] ?? ''}`;
  }
  return words;
}

/** The words after which a person says their own name, or another's: "my name is maria". */
const INTRODUCTIONS: readonly (readonly string[])[] = [['name', 'is'], ["name's"], ['call', 'me'], ['speaking', 'with'], ['speak', 'to']];
/**
 * Words the list also has as names ("On", "In", "Will", "Home") that follow those words as words:
 * "call me on my mobile", "speak to an agent", "this is me calling", "my name is on the account".
 */
const NOT_A_NAME = new Set([
  'a', 'an', 'the', 'at', 'in', 'on', 'to', 'of', 'for', 'by', 'as', 'up', 'no', 'so', 'or', 'and', 'but', 'if', 'is', 'be', 'it',
  'me', 'my', 'we', 'us', 'he', 'him', 'his', 'she', 'her', 'they', 'them', 'you', 'your', 'our', 'their', 'someone', 'somebody', 'anyone',
  'here', 'there', 'home', 'back', 'now', 'later', 'today', 'tomorrow', 'again', 'please', 'will', 'can', 'may', 'just', 'still', 'also', 'not',
  'sir', 'madam', 'mister', 'miss', 'mrs', 'ms', 'doctor', 'agent', 'manager', 'supervisor', 'customer', 'support', 'sales', 'billing',
]);

/** …and the words after a name that say it is one: "this is jane speaking", "this is mike from acme". */
const AFTER_THIS_IS_A_NAME = new Set(['speaking', 'calling', 'here', 'from', 'with', 'at']);

/**
 * A name that is also a word ("maria", "jane", "mike") where the words around it say it is one:
 * after "my name is", "call me", "speaking with"…, and between "this is" and "speaking", "calling",
 * "here", "from"… ("this is jane speaking", not "this is bill for march").
 */
function writeIntroducedNames<W extends { word?: string; punctuated_word: string }>(words: W[], forms: ReadonlyMap<string, string>): void {
  const said = words.map((w) => (w.word ?? w.punctuated_word).toLowerCase());
  const ends = (i: number) => /[.,?!;:]$/.test(words[i]?.punctuated_word ?? '');
  for (let i = 1; i < words.length; i++) {
    // The introduction's words run on to the name, no clause ending between them.
    const introduced = INTRODUCTIONS.some((intro) => intro.every((w, k) => said[i - intro.length + k] === w && !ends(i - intro.length + k)));
    const thisIs = said[i - 2] === 'this' && said[i - 1] === 'is' && !ends(i - 1) && !ends(i) && AFTER_THIS_IS_A_NAME.has(said[i + 1] ?? '');
    if (!introduced && !thisIs) continue;
    const match = /^([\p{L}]+)([.,?!;:]*)$/u.exec(words[i]!.punctuated_word);
    const name = match && !NOT_A_NAME.has(match[1]!.toLowerCase()) ? forms.get(match[1]!.toLowerCase()) : undefined;
    if (match && name) words[i]!.punctuated_word = `${name}${match[2]}`;
  }
}
