// Readable transcripts, measured: how well Hark's formatter punctuates, capitalises and writes
// numbers in what pocketsphinx recognises from speech spoken by Debian's flite voices. Sets of
// passages, each a JSON file beside this one: dev and dev-2 (the pauses and the language model's
// threshold were chosen on them, by the sweep printed below) and held-out, held-out-2 and
// held-out-3 (other sentences, other voices; never used to choose anything).
// On the recognised words aligned to the written reference, per set:
// - question marks: precision, recall, F1 at every word;
// - sentence ends (. ?) and commas: precision, recall, F1 (a passage's last word, an end by
//   construction, is left out);
// - capitals at sentence starts and on names (the words the reference capitalises mid-sentence);
// - numbers, money, times and percentages written as the reference writes them: all of them, and
//   ("heard right") those of the clips whose number words the recogniser all got right, the
//   formatter's own share (a misheard "fourteen" cannot be written as 14);
// beside the trivial baseline (the recogniser's own text: no marks, no capitals, numbers in
// words), the WER (formatting changes no recognised word, so it is the same with formatting
// undone), and formatting's time against the decode's.
// Run: npx tsx bench/formatting.ts [--clips FILE] [--dev-only]   (--clips keeps the decoded clips in
// FILE and reads them from there the next time, to try a formatting change without decoding
// again; --dev-only prints the dev sets' rows alone, while a change is being chosen)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { pocketsphinxEngine } from '../src/engines/transcription/pocketsphinx.ts';
import type { SpeakerWord } from '../src/engines/transcription/types.ts';
import { formatTranscript, oddsByStretch, PAUSES, punctuate, type FormattedWord, type Pauses } from '../src/features/transcription/formatting.ts';
import { sentenceEndOdds } from '../src/engines/transcription/pocketsphinx-sentences.ts';
import { wer } from '../src/wer.ts';
import { count, f1, fliteWav, type Counts } from './flite.ts';
import { usage } from './usage.ts';

usage(`Usage: npx tsx bench/formatting.ts [--clips FILE] [--dev-only]
Sentence-end and comma F1, capitals at sentence starts and on names, and numbers written as digits,
in pocketsphinx's transcripts of flite speech, formatted; dev (tuned on) and held-out apart, beside the unformatted text.`);

interface Passage {
  text: string;
  numbers: string[];
}
interface PassageSet {
  voices: string[];
  passages: Passage[];
}
interface Token {
  norm: string;
  mark: string;
  capital: boolean;
  sentenceStart: boolean;
}
interface Clip {
  reference: Token[];
  numbers: string[];
  words: SpeakerWord[];
  decodeSeconds: number;
}

const here = import.meta.dirname;
/** The sets: the dev ones are tuned on, the held-out ones only reported. */
const SET_NAMES = ['dev', 'dev-2', 'dev-3', 'holdout', 'holdout-2', 'holdout-3'];
const sets = Object.fromEntries(SET_NAMES.map((name) => [name, JSON.parse(fs.readFileSync(path.join(here, `formatting-${name}.json`), 'utf8')) as PassageSet]));
const isDev = (name: string) => name.startsWith('dev');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-formatting-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const config = loadConfig({ HARK_DATA_DIR: path.join(dir, 'data'), HARK_LOG_LEVEL: 'warn' });
const engine = pocketsphinxEngine(config, 1);

const normal = (word: string) => word.toLowerCase().replace(/[^a-z0-9']/g, '');

function tokens(text: string): Token[] {
  let start = true;
  return text.split(/\s+/).filter(Boolean).map((raw) => {
    const token = { norm: normal(raw), mark: /[.?!,]$/.exec(raw)?.[0] ?? '', capital: /^[A-Z]/.test(raw), sentenceStart: start };
    start = /[.?!]$/.test(raw);
    return token;
  });
}

/** Pairs of (reference index, hypothesis index) a minimal edit alignment matches or substitutes. */
function align(reference: string[], hypothesis: string[]): [number, number, boolean][] {
  const rows = reference.length + 1;
  const cols = hypothesis.length + 1;
  const cost = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) cost[i]![j] = Math.min(cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1, cost[i - 1]![j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1));
  }
  const pairs: [number, number, boolean][] = [];
  for (let i = reference.length, j = hypothesis.length; i > 0 && j > 0; ) {
    const same = reference[i - 1] === hypothesis[j - 1];
    if (cost[i]![j] === cost[i - 1]![j - 1]! + (same ? 0 : 1)) {
      pairs.push([i - 1, j - 1, same]);
      i--;
      j--;
    } else if (cost[i]![j] === cost[i - 1]![j]! + 1) i--;
    else j--;
  }
  return pairs.reverse();
}

async function clips(set: PassageSet, name: string): Promise<Clip[]> {
  const out: Clip[] = [];
  for (const voice of set.voices) {
    for (const [i, passage] of set.passages.entries()) {
      const file = path.join(dir, `${name}-${voice}-${i}.wav`);
      const audio = { file, seconds: fliteWav(passage.text, voice, file) };
      const started = performance.now();
      const result = await engine.transcribe({ audioPath: audio.file, durationSeconds: audio.seconds, language: 'en', model: 'en-us', wordTimestamps: true }, { signal: new AbortController().signal, onProgress: () => {} });
      const decodeSeconds = (performance.now() - started) / 1000;
      const words = result.words.map((w) => ({ ...w, channel: 0, speaker: 'channel_0' }));
      out.push({ reference: tokens(passage.text), numbers: passage.numbers, words, decodeSeconds });
    }
  }
  return out;
}

/** Sentence-end and comma counts of punctuated words (marks where punctuation put them, before numbers are written) against the reference. */
function marks(clip: Clip, punctuated: string[]): { ends: Counts; commas: Counts; questions: Counts } {
  const ends = { tp: 0, fp: 0, fn: 0 };
  const commas = { tp: 0, fp: 0, fn: 0 };
  const questions = { tp: 0, fp: 0, fn: 0 };
  const pairs = align(clip.reference.map((t) => t.norm), clip.words.map((w) => normal(w.word)));
  const last = clip.reference.length - 1;
  for (const [r, h] of pairs) {
    const want = clip.reference[r]!.mark;
    const got = /[.?!,]$/.exec(punctuated[h]!)?.[0] ?? '';
    // Question marks count at every word, the last one too: a passage's last sentence may ask.
    count(questions, want === '?', got === '?');
    if (r === last) continue;
    for (const [counts, isIt] of [[ends, (m: string) => /[.?!]/.test(m)], [commas, (m: string) => m === ',']] as const) count(counts, isIt(want), isIt(got));
  }
  return { ends, commas, questions };
}

function add(into: Counts, more: Counts) {
  into.tp += more.tp;
  into.fp += more.fp;
  into.fn += more.fn;
}

interface Scores {
  ends: ReturnType<typeof f1>;
  commas: ReturnType<typeof f1>;
  questions: ReturnType<typeof f1>;
  starts: number;
  names: number;
  numbers: number;
  /** Numbers of the clips whose number words the recogniser all heard right: the formatter's own share. */
  heard: number;
  counts: { starts: number; names: number; numbers: number; heard: number };
}

/** Words that say a number, an amount or a unit of one. */
const NUMBER_WORDS = new Set([
  'zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen',
  'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety',
  'hundred', 'thousand', 'million', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth',
  'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth', 'twentieth',
  'thirtieth', 'dollar', 'dollars', 'cent', 'cents', 'percent', 'point', 'pm', 'am',
]);

/** Every number word of the clip's reference was recognised as itself. */
function numbersHeard(clip: Clip): boolean {
  const pairs = align(clip.reference.map((t) => t.norm), clip.words.map((w) => normal(w.word)));
  const heard = new Set(pairs.filter(([, , same]) => same).map(([r]) => r));
  return clip.reference.every((t, r) => !NUMBER_WORDS.has(t.norm) || heard.has(r));
}

/** The recogniser's language model's odds of a sentence end before each word of a clip, asked once. */
const oddsOf = new Map<Clip, number[]>();
const odds = (clip: Clip) => oddsOf.get(clip) ?? oddsOf.set(clip, oddsByStretch(clip.words, sentenceEndOdds, PAUSES.sentence)).get(clip)!;
/** The formatter's rules alone: its word lists and pauses as they are now, without the language model. */
const RULES_ONLY: Pauses = { ...PAUSES, odds: Infinity };

function score(data: Clip[], format: boolean, pauses: Readonly<Pauses> = PAUSES): Scores {
  const ends = { tp: 0, fp: 0, fn: 0 };
  const commas = { tp: 0, fp: 0, fn: 0 };
  const questions = { tp: 0, fp: 0, fn: 0 };
  let starts = 0;
  let startsRight = 0;
  let names = 0;
  let namesRight = 0;
  let numbers = 0;
  let numbersRight = 0;
  let heard = 0;
  let heardRight = 0;
  for (const clip of data) {
    const punctuated = format ? punctuate(clip.words, pauses, odds(clip)).map((w) => w.punctuated_word) : clip.words.map((w) => w.word);
    const counted = marks(clip, punctuated);
    add(ends, counted.ends);
    add(commas, counted.commas);
    add(questions, counted.questions);
    const formatted = format ? (formatTranscript({ language: 'en', text: '', segments: [{ start: 0, end: 1e9, text: '', channel: 0, speaker: 'channel_0' }], words: clip.words }, false, [], sentenceEndOdds, pauses).words as FormattedWord[]).map((w) => w.punctuated_word) : clip.words.map((w) => w.word);
    for (const [r, h, same] of align(clip.reference.map((t) => t.norm), clip.words.map((w) => normal(w.word)))) {
      const token = clip.reference[r]!;
      if (!same || r === 0 || token.norm === 'i') continue;
      const capital = /^[A-Z]/.test(formatted[h] ?? '');
      if (token.sentenceStart) {
        starts++;
        if (capital) startsRight++;
      } else if (token.capital) {
        names++;
        if (capital) namesRight++;
      }
    }
    const text = formatted.filter(Boolean).join(' ');
    const allHeard = numbersHeard(clip);
    for (const number of clip.numbers) {
      const right = new RegExp(`(^|\\s)${number.replace(/[$.*+?^()[\]{}|\\]/g, '\\$&')}(?=[\\s.,?!]|$)`).test(text);
      numbers++;
      if (right) numbersRight++;
      if (!allHeard) continue;
      heard++;
      if (right) heardRight++;
    }
  }
  return { ends: f1(ends), commas: f1(commas), questions: f1(questions), starts: startsRight / Math.max(1, starts), names: namesRight / Math.max(1, names), numbers: numbersRight / Math.max(1, numbers), heard: heardRight / Math.max(1, heard), counts: { starts, names, numbers, heard } };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const cache = process.argv.includes('--clips') ? process.argv[process.argv.indexOf('--clips') + 1] : undefined;
let data: Record<string, Clip[]> = {};
if (cache && fs.existsSync(cache)) data = JSON.parse(fs.readFileSync(cache, 'utf8')) as Record<string, Clip[]>;
for (const [name, set] of Object.entries(sets)) data[name] ??= await clips(set, name);
const devClips = Object.entries(data).filter(([name]) => isDev(name)).flatMap(([, c]) => c);
if (cache) fs.writeFileSync(cache, JSON.stringify(data));

console.log('Formatting pocketsphinx transcripts of flite speech (goal on held-out: sentence-end F1 ≥ 0.85, sentence-start capitals ≥ 95 %, numbers ≥ 90 %)');
// Where the pauses fall on dev: after words the reference ends a sentence with, sets off with a comma, or runs on.
const gaps: Record<string, number[]> = { sentence: [], comma: [], none: [] };
for (const clip of devClips) {
  for (const [r, h] of align(clip.reference.map((t) => t.norm), clip.words.map((w) => normal(w.word)))) {
    const next = clip.words[h + 1];
    if (!next || r === clip.reference.length - 1) continue;
    const mark = clip.reference[r]!.mark;
    gaps[/[.?!]/.test(mark) ? 'sentence' : mark === ',' ? 'comma' : 'none']!.push(next.start - clip.words[h]!.end);
  }
}
const quantiles = (xs: number[]) => [0.1, 0.5, 0.9].map((q) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]?.toFixed(2) ?? '-').join(' / ');
console.log('\nPauses after a word on the dev sets, 10th / 50th / 90th percentile (s):');
for (const [kind, xs] of Object.entries(gaps)) console.log(`  ${kind.padEnd(9)} ${quantiles(xs)}  (${xs.length})`);
console.log(`\nSwept on the dev sets only (a sentence pause of ${PAUSES.sentence} s): break, comma pause, least log-odds of a sentence end at a break → sentence-end F1 / comma F1`);
for (const brk of [0.03, 0.05, 0.08]) {
  for (const comma of [0.1, 0.15, 0.25]) {
    const row = [-2.5, -2, -1.5, -1, -0.5, Infinity].map((least) => {
      const s = score(devClips, true, { ...PAUSES, break: brk, comma, odds: least });
      const chosen = brk === PAUSES.break && comma === PAUSES.comma && least === PAUSES.odds ? '*' : ' ';
      return `${least === Infinity ? 'rules' : least.toFixed(1)} ${s.ends.f1.toFixed(2)}/${s.commas.f1.toFixed(2)}${chosen}`;
    });
    console.log(`  ${brk.toFixed(2)} s, ${comma.toFixed(2)} s  ${row.join('  ')}`);
  }
}
console.log('  (* chosen; "rules": the word lists alone, without the language model)');

console.log('\nset        text           end P/R/F1          comma P/R/F1        question P/R/F1     starts      names       numbers     heard right  WER');
// --dev-only: the table for the dev sets alone, while choosing (held-out is read once, after).
const tableSets = process.argv.includes('--dev-only') ? SET_NAMES.filter(isDev) : SET_NAMES;
for (const [name, clipsOf] of tableSets.map((n) => [n, data[n]!] as const)) {
  const reference = clipsOf.map((c) => c.reference.map((t) => t.norm).join(' ')).join(' ');
  const recognised = clipsOf.map((c) => c.words.map((w) => normal(w.word)).join(' ')).join(' ');
  for (const [label, format, pauses] of [['as recognised', false, PAUSES], ['rules only', true, RULES_ONLY], ['formatted', true, PAUSES]] as const) {
    const s = score(clipsOf, format, pauses);
    const prf = (x: ReturnType<typeof f1>) => `${x.precision.toFixed(2)}/${x.recall.toFixed(2)}/${x.f1.toFixed(2)}`.padEnd(20);
    console.log(`${name.padEnd(10)} ${label.padEnd(14)} ${prf(s.ends)}${prf(s.commas)}${prf(s.questions)}${pct(s.starts).padEnd(12)}${pct(s.names).padEnd(12)}${pct(s.numbers).padEnd(12)}${pct(s.heard).padEnd(13)}${pct(wer(reference, recognised))}`);
  }
  const s = score(clipsOf, true);
  console.log(`${' '.repeat(11)}(${clipsOf.length} clips; ${s.counts.starts} sentence starts, ${s.counts.names} names, ${s.counts.numbers} numbers aligned or expected, ${s.counts.heard} of them in clips whose number words were all recognised)`);
}

const decode = Object.values(data).flat().reduce((sum, c) => sum + c.decodeSeconds, 0);
const started = performance.now();
for (let k = 0; k < 20; k++) for (const clip of Object.values(data).flat()) formatTranscript({ language: 'en', text: '', segments: [{ start: 0, end: 1e9, text: '', channel: 0, speaker: 'channel_0' }], words: clip.words }, false, [], sentenceEndOdds);
const formatting = (performance.now() - started) / 1000 / 20;
console.log(`\nTime: decoding ${decode.toFixed(2)} s, formatting ${(formatting * 1000).toFixed(1)} ms (${((formatting / decode) * 100).toFixed(2)} % of the decode; goal < 5 %)`);
process.exit(0);
