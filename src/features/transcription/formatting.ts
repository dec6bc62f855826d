// Readable text from a recogniser that writes none (pocketsphinx: lower case, no punctuation):
// sentences cut at the pauses in the word times, a question mark where a sentence opens as a
// question does, a full stop otherwise, a capital at each sentence start and on "I". Each word
// keeps `word` as recognised and gains `punctuated_word`; segments' and the transcript's text are
// rebuilt from those. Search, phrase rules, redaction and talk statistics read the recognised
// words, so formatting changes nothing they find; a redaction marker stays one token. Numbers,
// money, percentages, times and dates are written as digits (numbers.ts), e-mail and web
// addresses said aloud as addresses (addresses.ts).
// A scenario's vocabulary is written as the team spells it ("Zendesk"), and names and places the
// word list has only with capitals with them (names.ts). A shorter pause inside a sentence is a
// comma, as is the pause after an opening "yes", "well", "okay" or "hello".
// Where the engine has a language model (pocketsphinx), a break also ends a sentence where the
// model finds a sentence end there likelier than the words running on (its odds, beside the
// word lists: "… a refund. My order", "… the Chicago office. After that").
import type { SentenceOdds, SpeakerSegment, SpeakerWord } from '../../engines/transcription/types.ts';
import { isNumberWord, writeNumbers } from './numbers.ts';
import { writeAddresses } from './addresses.ts';
import { writeNames } from './names.ts';
import { turnsText } from '../../core/transcripts/speakers.ts';
import { wordsBySegment } from '../../core/transcripts/segment-words.ts';
import type { CasedTerm } from './vocabulary.ts';

// The pauses, chosen on bench/formatting.ts's dev set (the held-out set is reported apart).
/** A pause at least this long between two words of one speaker ends a sentence, whatever the words. */
export const SENTENCE_PAUSE_SECONDS = 0.6;
/** A break: a shorter silence between two words (pocketsphinx writes the words of a phrase back to back). */
export const BREAK_SECONDS = 0.05;
/** A break ends a sentence where the engine's language model gives a sentence end there at least these log-odds (e^-1.5: 1 in 4.5). */
export const SENTENCE_LOG_ODDS = -1.5;
/** A break at least this long is a comma where it does not end a sentence. */
export const COMMA_PAUSE_SECONDS = 0.15;
/** Words that open a sentence and are set off from it by a comma at a break ("Yes, I can"; "Good morning, this is"). */
const OPENERS = new Set(['yes', 'yeah', 'well', 'okay', 'ok', 'hello', 'hi', 'hey', 'sorry', 'alright', 'all right', 'thank you', 'good morning', 'good afternoon', 'good evening']);
/** Words a new sentence opens with after a break ("... a refund. My order ..."). */
const STARTERS = new Set(['i', "i'm", "i've", "i'll", "i'd", 'my', 'please', 'thank', 'thanks', 'we', "we're", 'you', "you're", 'your', 'our', 'it', "it's", 'this', "that's", 'there', "there's", 'they', 'he', 'she', "let's", 'the']);
/** Words the language model's odds alone do not start a sentence with: they carry it on ("ten percent, and it ends"). */
const CARRIERS = new Set(['and', 'but', 'or']);
/** Words that open a clause a sentence goes on after, with a comma ("if they don't, I can…"); not "when", which asks as often. */
const SUBORDINATORS = new Set(['if', 'because']);
/** Words that carry a sentence on after a break: a comma before them ("ten percent, and it ends"). */
const JOINERS = new Set(['and', 'but', 'or', 'so', 'because', 'then', 'which', 'if', 'on', 'in', 'at', 'with']);
/** Words a sentence does not end on, nor a comma follow ("the, order"). */
const HOLDS = new Set(['the', 'a', 'an', 'to', 'of', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'and', 'or', 'but', 'in', 'on', 'at', 'for', 'with', 'from', 'by', 'is', 'are', 'was', 'were', 'i', 'we', 'they']);

/** Where sentences and commas fall: the pauses (seconds), and the least log-odds of a sentence end at a break. */
export interface Pauses {
  sentence: number;
  break: number;
  comma: number;
  odds: number;
}
export const PAUSES: Readonly<Pauses> = Object.freeze({ sentence: SENTENCE_PAUSE_SECONDS, break: BREAK_SECONDS, comma: COMMA_PAUSE_SECONDS, odds: SENTENCE_LOG_ODDS });

const QUESTION_OPENERS = new Set([
  'what', 'where', 'when', 'why', 'who', 'whom', 'whose', 'which', 'how',
  'do', 'does', 'did', 'is', 'are', 'was', 'were', 'can', 'could', 'would', 'will', 'shall', 'should', 'may', 'might', 'have', 'has', 'had', "isn't", "aren't", "don't", "doesn't", "didn't", "can't", "won't", "wouldn't", "couldn't",
]);
/** Words that ask after a break only when a subject follows them ("is that right", not "is broken"). */
const AUXILIARIES = new Set([...QUESTION_OPENERS].filter((word) => !['what', 'where', 'when', 'why', 'who', 'whom', 'whose', 'which', 'how'].includes(word)));
/** Words that open a question after a break, whatever follows ("which" is left out: it more often carries a sentence on). */
const QUESTION_WORDS = new Set(['what', 'where', 'when', 'why', 'who', 'how']);
/** Verbs that, right after a word that follows a break, make that word a new sentence's subject ("… at 9 AM. Parking is free"). */
const SUBJECT_VERBS = new Set(['is', 'was', 'are', 'were', 'has', 'had', 'will', 'can']);
/** The subjects an inverted question puts after its verb. */
const SUBJECTS = new Set(['i', 'you', 'we', 'they', 'he', 'she', 'it', 'that', 'this', 'there', 'the', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'a', 'an', 'anyone', 'anything', 'someone', 'something']);
/** A sentence a break may end has at least this many words ("It. Is broken" is not two sentences). */
const SHORTEST_SENTENCE = 3;
/** Opening words that make a statement of what follows ("is" in "is that right" asks; "so is mine" does not start here). */
const FIRST_PERSON = /^i('m|'ll|'ve|'d)?$/;
const MARKER = /^\[[A-Z_]+\]$/;

/** Words a question may open with before it asks ("so can you…", "and what time…", "okay do you…"); not "now" or "then", which open statements with the verb first ("now is the time"). */
const LEAD_INS = new Set(['so', 'and', 'but', 'okay', 'ok', 'well', 'alright', 'sorry', 'also']);

/** "have a nice day", "have a look": "have" before "a" tells, it does not ask. */
const tells = (said: readonly string[], at: number) => ['have', 'has', 'had'].includes(said[at]!) && ['a', 'an'].includes(said[at + 1] ?? '');

/**
 * A sentence asks where it opens as a question does, or does after a lead-in word with a verb and
 * its subject ("so can you …"); not "so do I", where the sentence ends at the subject.
 */
function asks(said: readonly string[]): boolean {
  if (said.length < 2) return false;
  if (QUESTION_OPENERS.has(said[0]!)) return !tells(said, 0);
  if (!LEAD_INS.has(said[0]!) || said.length < 3) return false;
  if (said[0] === 'so' && said.length <= 3) return false;
  return QUESTION_WORDS.has(said[1]!) || (AUXILIARIES.has(said[1]!) && SUBJECTS.has(said[2]!) && !tells(said, 1));
}

export interface FormattedWord extends SpeakerWord {
  punctuated_word: string;
}

interface Transcript {
  language: string;
  text: string;
  segments: SpeakerSegment[];
  words: SpeakerWord[];
}

const capitalise = (word: string) => (MARKER.test(word) ? word : word.charAt(0).toUpperCase() + word.slice(1));

/**
 * Punctuated words of one speaker's words in time order: a long pause ends a sentence; a break
 * ends one where the next word opens a sentence (a question word, "I", "my", "please"…) or the
 * language model's `odds` (per word, of a sentence end before it) say so, else is a comma where it
 * is long enough or the next word carries the sentence on ("and", "but"…); never after a word a
 * sentence does not end on ("the", "to"…).
 */
export function punctuate(words: readonly SpeakerWord[], pauses: Readonly<Pauses> = PAUSES, odds?: readonly number[]): FormattedWord[] {
  const out: FormattedWord[] = [];
  let sentence: FormattedWord[] = [];
  /** The index in `words` of each word of `sentence`. */
  let at: number[] = [];
  const end = (part: FormattedWord[], said: readonly string[]) => {
    const last = part[part.length - 1]!;
    // A comma left at a break before a question split off here gives way to the full stop.
    last.punctuated_word = last.punctuated_word.replace(/,$/, '') + (asks(said) ? '?' : '.');
    part[0]!.punctuated_word = capitalise(part[0]!.punctuated_word);
    out.push(...part);
  };
  const close = () => {
    if (sentence.length === 0) return;
    const said = sentence.map((w) => w.word.toLowerCase());
    const tail = asks(said) ? -1 : tailQuestion(said, at.map((i) => odds?.[i] ?? -Infinity));
    if (tail > 0) {
      end(sentence.slice(0, tail), said.slice(0, tail));
      end(sentence.slice(tail), said.slice(tail));
    } else end(sentence, said);
    sentence = [];
    at = [];
  };
  for (const [i, word] of words.entries()) {
    const previous = words[i - 1];
    const pause = previous ? word.start - previous.end : 0;
    const lower = word.word.toLowerCase();
    const last = sentence[sentence.length - 1];
    const opener = sentence.length <= 2 && OPENERS.has(sentence.map((w) => w.word.toLowerCase()).join(' '));
    // "you" ends a sentence as an object ("… from you"), not as a subject after its verb ("can you · please check").
    const subjectYou = last?.word.toLowerCase() === 'you' && AUXILIARIES.has(sentence[sentence.length - 2]?.word.toLowerCase() ?? '');
    const holds = last !== undefined && (HOLDS.has(last.word.toLowerCase()) || subjectYou);
    // Inside a number ("twenty, five" would write $5 for $25) there is neither a comma nor a sentence end.
    const inNumber = last !== undefined && isNumberWord(last.word.toLowerCase()) && (isNumberWord(lower) || lower === 'and');
    const after = words[i + 1]?.word.toLowerCase() ?? '';
    const subject = SUBJECT_VERBS.has(after) && !JOINERS.has(lower) && !HOLDS.has(lower) && !isNumberWord(lower) && !AUXILIARIES.has(lower);
    // "and", "but" and "or" carry a sentence on in writing: the model's odds alone do not start one with them.
    const likely = !CARRIERS.has(lower) && (odds?.[i] ?? -Infinity) >= pauses.odds;
    const opens = STARTERS.has(lower) || QUESTION_WORDS.has(lower) || (AUXILIARIES.has(lower) && SUBJECTS.has(after)) || subject || likely;
    // A sentence opened by a subordinate clause ("if they don't, I can…") goes on past its first break with a comma.
    const clause = SUBORDINATORS.has(sentence[0]?.word.toLowerCase() ?? '') && !sentence.some((w) => w.punctuated_word.endsWith(','));
    const breaks = pause >= pauses.break && !holds && !opener && !inNumber && !clause;
    if (pause >= pauses.sentence || (breaks && sentence.length >= SHORTEST_SENTENCE && opens)) close();
    else if (last && last.punctuated_word !== '' && !MARKER.test(last.word) && !/[.,?!;:]$/.test(last.punctuated_word) && pause >= pauses.break && !inNumber && (opener || (!holds && (pause >= pauses.comma || JOINERS.has(lower) || (clause && sentence.length >= SHORTEST_SENTENCE && opens))))) last.punctuated_word += ',';
    sentence.push({ ...word, punctuated_word: FIRST_PERSON.test(lower) ? `I${word.word.slice(1)}` : word.word });
    at.push(i);
  }
  close();
  return out;
}

/** The least log-odds of a sentence end, without a pause, before a question at a sentence's end: stricter than at a break (SENTENCE_LOG_ODDS), since no pause says so too. */
export const TAIL_QUESTION_LOG_ODDS = -1;
/** The most words of such a question ("is there anything else"). */
const TAIL_QUESTION_WORDS = 6;

/**
 * Where a question said straight after a statement, without a pause, starts at the end of a
 * sentence ("… in three to five business days is there anything else"): a verb that asks with its
 * subject after it ("is there", "can I", "do you") where the language model gives a sentence end
 * at least TAIL_QUESTION_LOG_ODDS, after a statement of three words or more; -1 where none.
 */
function tailQuestion(said: readonly string[], odds: readonly number[]): number {
  for (let j = Math.max(SHORTEST_SENTENCE, said.length - TAIL_QUESTION_WORDS); j <= said.length - 2; j++) {
    if (AUXILIARIES.has(said[j]!) && SUBJECTS.has(said[j + 1]!) && !tells(said, j) && !HOLDS.has(said[j - 1]!) && (odds[j] ?? -Infinity) >= TAIL_QUESTION_LOG_ODDS) return j;
  }
  return -1;
}

/** Where a vocabulary term's words are said in a row, they are written as the team writes them (the punctuation after them kept). */
export function caseTerms(words: FormattedWord[], terms: readonly CasedTerm[]): FormattedWord[] {
  if (terms.length === 0) return words;
  const said = words.map((w) => w.word.toLowerCase());
  for (let i = 0; i < words.length; i++) {
    const term = terms.find((t) => t.words.every((word, k) => said[i + k] === word));
    if (!term) continue;
    term.written.forEach((written, k) => {
      const word = words[i + k]!;
      word.punctuated_word = written + (/[.,?!;:]+$/.exec(word.punctuated_word)?.[0] ?? '');
    });
    i += term.words.length - 1;
  }
  return words;
}

/**
 * The language model's odds over each stretch of talk between sentence pauses, each read from a
 * sentence start: what came before a long pause is no context for what follows it.
 */
export function oddsByStretch(words: readonly SpeakerWord[], sentenceOdds: SentenceOdds, pause: number): number[] {
  const odds: number[] = [];
  let from = 0;
  for (let i = 1; i <= words.length; i++) {
    if (i < words.length && words[i]!.start - words[i - 1]!.end < pause) continue;
    const stretch = sentenceOdds(words.slice(from, i).map((w) => w.word));
    odds.push(...(stretch.length === i - from ? stretch : Array<number>(i - from).fill(-Infinity)));
    from = i;
  }
  return odds;
}

/**
 * The transcript with punctuated words (a vocabulary's terms as the team writes them), and
 * segments' and its text rebuilt from them; `sentenceOdds`, the engine's language model where it
 * has one, helps find the sentence ends.
 */
export function formatTranscript<T extends Transcript>(transcript: T, severalSpeakers: boolean, terms: readonly CasedTerm[] = [], sentenceOdds?: SentenceOdds, pauses: Readonly<Pauses> = PAUSES): T & { words: FormattedWord[] } {
  if (transcript.words.length === 0) return { ...transcript, words: [] };
  const channels = [...new Set(transcript.words.map((w) => w.channel))];
  const spoken = (channel: number) => transcript.words.filter((w) => w.channel === channel).sort((a, b) => a.start - b.start);
  const punctuated = (said: SpeakerWord[]) => punctuate(said, pauses, sentenceOdds === undefined ? undefined : oddsByStretch(said, sentenceOdds, pauses.sentence));
  const words = channels
    .flatMap((channel) => writeAddresses(writeNumbers(caseTerms(writeNames(punctuated(spoken(channel))), terms))))
    .sort((a, b) => a.start - b.start || a.channel - b.channel);
  const owned = wordsBySegment(transcript.segments, words);
  const segments = transcript.segments.map((segment, s) => {
    const own = owned[s]!.map((i) => words[i]!);
    // A number written over several words is carried by the first; the others write nothing.
    return own.length > 0 ? { ...segment, text: own.map((w) => w.punctuated_word).filter(Boolean).join(' ') } : segment;
  });
  const text = severalSpeakers ? turnsText(segments) : segments.map((s) => s.text).join(' ');
  return { ...transcript, words, segments, text };
}
