// Accuracy of the `basic` analysis engine per split and question type, next to trivial baselines,
// and mean time per run. Calls come from four files:
//   analysis-dataset.json  split "dev"       used while building and tuning the engine
//                          split "holdout"   written afterwards, not tuned on
//   analysis-holdout.json  split "holdout-2" written later by someone who never saw the engine
//   analysis-dev-2.json    split "dev-2"     written in holdout-3's manner by a writer who never saw
//                          the engine, to tune on
//   analysis-holdout-3.json split "holdout-3" written for the semantic yes/no goal, before the
//                          engine ran on it, by a writer who never saw the engine
//   analysis-dev-3.json    split "dev-3"     132 calls, 1,040 yes/no questions in six trades, written
//                          by six helpers who never saw the engine nor any other set; each question
//                          names the segments that decide it; to tune on (it has no examples)
//   analysis-requests.json split "requests-dev" and "requests-holdout": what a customer asked
//                          for ("what did the customer ask for?"), written by a helper who never
//                          saw the engine; the held-out calls in other trades and other wordings
// Only the held-out splits say how the engine does on calls it was not fitted to, so each split is
// reported on its own and dev is never mixed into a held-out figure. Boolean accuracy is printed
// next to "always true", "always false" and the majority answer on the same questions.
// Every split is then run again with its boolean questions' `examples` (analysis-examples.json:
// sentences that mean yes, written by a helper in a quality lead's role from each question's text
// and the kind of call alone, never seeing a call or the engine), as a team would set them up.
// Tune with `--split dev --verbose`; run the held-out splits only to measure.
//   npx tsx bench/analysis-basic.ts [--verbose] [--examples] [--runs N] [--split dev|dev-2|dev-3|requests-dev|holdout|holdout-2|holdout-3|requests-holdout]
//   (--verbose prints the answers without examples, or with them where --examples is given)
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { UNCERTAIN_BELOW } from '../src/core/analyses/analysis-result.ts';
import { createBasicEngine } from '../src/engines/analysis/basic/index.ts';
import type { AnalysisInput, TranscriptSegment } from '../src/engines/analysis/types.ts';
import { writeAddresses } from '../src/features/transcription/addresses.ts';
import { writeNumbers } from '../src/features/transcription/numbers.ts';
import { usage } from './usage.ts';

usage('Usage: npx tsx bench/analysis-basic.ts\nAccuracy of the basic analysis engine on the dev and held-out call sets, beside the constant answers.');

interface BoolQ { id: string; text: string; type: 'boolean'; expected: boolean }
interface TextQ { id: string; text: string; type: 'text'; expected: string[] }
interface Call { id: string; split?: string; file: string; segments: TranscriptSegment[]; questions: (BoolQ | TextQ)[] }
interface Dataset { calls: Call[] }

const FILES = ['./analysis-dataset.json', './analysis-dev-2.json', './analysis-dev-3.json', './analysis-holdout.json', './analysis-holdout-3.json', './analysis-requests.json'];
const SPLIT_ORDER = ['dev', 'dev-2', 'dev-3', 'requests-dev', 'holdout', 'holdout-2', 'holdout-3', 'requests-holdout'];

const args = process.argv.slice(2);
const verbose = args.includes('--verbose') || args.includes('-v');
const verboseExamples = args.includes('--examples');
const runsArg = args.indexOf('--runs');
const runs = runsArg >= 0 ? Math.max(1, Number(args[runsArg + 1]) || 20) : 20;
const splitArg = args.indexOf('--split');
const onlySplit = splitArg >= 0 ? args[splitArg + 1] : undefined;

const splitOf = (c: Call): string => c.split ?? 'dev';
const read = <T>(file: string): T => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as T;
const allCalls = FILES.flatMap((f) => read<Dataset>(f).calls.map((c) => ({ ...c, file: f.replace('./', '') })));
/** Per data file, each boolean question's examples by `call/question`. */
const EXAMPLES = read<{ examples: Record<string, Record<string, string[]>> }>('./analysis-examples.json').examples;
const examplesOf = (call: Call, id: string): string[] => {
  // A file with no examples at all (dev-3) is run without them both times.
  if (EXAMPLES[call.file] === undefined) return [];
  const examples = EXAMPLES[call.file]?.[`${call.id}/${id}`];
  if (examples === undefined) throw new Error(`analysis-examples.json has no examples for ${call.file} ${call.id}/${id}`);
  return examples;
};
const calls = allCalls.filter((c) => onlySplit === undefined || splitOf(c) === onlySplit);
if (calls.length === 0) {
  const known = [...new Set(allCalls.map(splitOf))].join(', ');
  console.error(`no calls in split ${String(onlySplit)} (known: ${known})`);
  process.exit(1);
}

function toInput(call: Call, withExamples = false): AnalysisInput {
  return {
    transcript: { text: call.segments.map((s) => s.text).join(' '), segments: call.segments },
    instructions: '',
    questions: call.questions.map((q) => ({ id: q.id, text: q.text, type: q.type, ...(withExamples && q.type === 'boolean' ? { examples: examplesOf(call, q.id) } : {}) })),
    summary: true,
  };
}

/** The expected text with its numbers written as digits, as the engine writes them ("one hundred and twelve dollars" → "$112"). */
const inDigits = (text: string): string =>
  writeNumbers(text.toLowerCase().replace(/[.,?!]+$/, '').split(/\s+/).map((word) => ({ word, punctuated_word: word })))
    .map((w) => w.punctuated_word)
    .filter(Boolean)
    .join(' ');
/** The expected text with an address said aloud written as the engine writes it ("jordan at fernway dot com" → "jordan@fernway.com"). */
const asAddress = (text: string): string =>
  writeAddresses(text.toLowerCase().split(/\s+/).map((word) => ({ word, punctuated_word: word })))
    .map((w) => w.punctuated_word)
    .filter(Boolean)
    .join(' ');

const escape = (s: string): string => s.replace(/[$.*+?^()[\]{}|\\]/g, '\\$&');
/** `needle` in `text` as a whole number: "$11" is not in "$112", nor "40" in "$40.99". */
const hasNumber = (text: string, needle: string): boolean => new RegExp(`(?<![\\d.])${escape(needle)}(?![\\d.,]*\\d)`).test(text);

function textOk(answer: string, expected: string[]): boolean {
  const a = answer.toLowerCase();
  const squash = (s: string): string => s.toLowerCase().replace(/[\s$,]/g, '');
  if (expected.some((e) => a.includes(e.toLowerCase()) || squash(a).includes(squash(e)))) return true;
  // Addresses said aloud are written as addresses, by the engine as by the formatter.
  if (expected.map(asAddress).some((e) => /[@.]/.test(e) && a.includes(e))) return true;
  // The engine writes numbers as digits: the expected words so written, as whole numbers.
  return expected.map(inDigits).some((e) => /\d/.test(e) && (hasNumber(a, e) || hasNumber(a.replace(/\s/g, ''), e.replace(/\s/g, ''))));
}

interface SplitStats {
  calls: number;
  boolOk: number;
  boolN: number;
  /** Boolean questions whose expected answer is true: "always true" gets exactly these right. */
  boolTrue: number;
  textOk: number;
  textN: number;
  /** Boolean answers not marked uncertain, and how many of those are right. */
  sureN: number;
  sureOk: number;
  /** Text answers not marked uncertain, and how many of those are right. */
  textSureN: number;
  textSureOk: number;
}

const t0 = performance.now();
const engine = createBasicEngine();
const loadMs = performance.now() - t0;

async function evaluate(withExamples: boolean): Promise<Map<string, SplitStats>> {
  const show = verbose && withExamples === verboseExamples;
  const bySplit = new Map<string, SplitStats>();
  for (const call of calls) {
    const split = splitOf(call);
    const st = bySplit.get(split) ?? { calls: 0, boolOk: 0, boolN: 0, boolTrue: 0, textOk: 0, textN: 0, sureN: 0, sureOk: 0, textSureN: 0, textSureOk: 0 };
    bySplit.set(split, st);
    st.calls++;
    const out = await engine.analyze(toInput(call, withExamples));
    if (show) console.log(`\n## ${call.id} (${split})\nsummary: ${out.summary ?? ''}`);
    for (const q of call.questions) {
      const a = out.answers.find((x) => x.question_id === q.id);
      if (a === undefined) throw new Error(`missing answer for ${call.id}/${q.id}`);
      let ok: boolean;
      if (q.type === 'boolean') {
        ok = a.answer === q.expected;
        st.boolN++;
        if (q.expected) st.boolTrue++;
        if (ok) st.boolOk++;
        if (a.confidence >= UNCERTAIN_BELOW) {
          st.sureN++;
          if (ok) st.sureOk++;
        }
      } else {
        ok = typeof a.answer === 'string' && textOk(a.answer, q.expected);
        st.textN++;
        if (ok) st.textOk++;
        if (a.confidence >= UNCERTAIN_BELOW) {
          st.textSureN++;
          if (ok) st.textSureOk++;
        }
      }
      if (show) {
        console.log(`${ok ? 'ok  ' : 'FAIL'} [${q.type}] ${call.id}/${q.id}: ${q.text} -> ${JSON.stringify(a.answer)} (conf ${a.confidence}) expected ${JSON.stringify(q.expected)}`);
        for (const e of a.evidence) console.log(`       [${e.start.toFixed(1)}-${e.end.toFixed(1)}] ${e.text}`);
      }
    }
  }
  return bySplit;
}
const results = [['without examples', await evaluate(false)], ["with the questions' examples", await evaluate(true)]] as const;

// Warm up first: the JIT makes the first passes several times slower than steady state.
const inputs = calls.map((call) => toInput(call));
const withExamples = calls.map((call) => toInput(call, true));
const perRunOf = async (set: AnalysisInput[], times: number): Promise<number> => {
  for (let r = 0; r < Math.min(10, times); r++) for (const input of set) await engine.analyze(input);
  const started = performance.now();
  for (let r = 0; r < times; r++) for (const input of set) await engine.analyze(input);
  return (performance.now() - started) / (times * set.length);
};
const perRun = await perRunOf(inputs, runs);
// With examples, each run embeds its examples and the sentences they were found in.
const perRunWithExamples = await perRunOf(withExamples, Math.max(1, Math.ceil(runs / 10)));
const nq = inputs.reduce((s, i) => s + i.questions.length, 0) / inputs.length;

const pct = (ok: number, n: number): string => (n === 0 ? '-' : `${((100 * ok) / n).toFixed(1)}%`);
const frac = (ok: number, n: number): string => `${ok}/${n} ${pct(ok, n)}`;
const rows: string[][] = [['split', 'examples', 'calls', 'boolean', 'always true', 'always false', 'majority', 'not uncertain', 'text', 'text not uncertain']];
const order = (s: string): number => (SPLIT_ORDER.includes(s) ? SPLIT_ORDER.indexOf(s) : SPLIT_ORDER.length);
const splits = [...results[0][1].keys()].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
for (const split of splits) {
  for (const [variant, bySplit] of results) {
    const st = bySplit.get(split)!;
    const falses = st.boolN - st.boolTrue;
    const major = st.boolTrue >= falses ? 'true' : 'false';
    rows.push([
      split,
      variant,
      String(st.calls),
      frac(st.boolOk, st.boolN),
      frac(st.boolTrue, st.boolN),
      frac(falses, st.boolN),
      `${major} ${pct(Math.max(st.boolTrue, falses), st.boolN)}`,
      frac(st.sureOk, st.sureN),
      frac(st.textOk, st.textN),
      frac(st.textSureOk, st.textSureN),
    ]);
  }
}
const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
const fmt = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('   ');
console.log(`\nbasic engine, accuracy per split (held-out splits were not tuned on; baselines are on the same boolean questions;\n"not uncertain": the boolean (and text) answers with a confidence of ${UNCERTAIN_BELOW} or more, and how many of them are right)`);
console.log(fmt(rows[0] ?? []));
console.log(widths.map((w) => '-'.repeat(w)).join('   '));
for (const r of rows.slice(1)) console.log(fmt(r));
console.log(`\ncalls: ${inputs.length}, questions per call: ${nq.toFixed(1)}`);
console.log(`model load: ${loadMs.toFixed(0)} ms; mean per analyze() run (summary + all questions): ${perRun.toFixed(2)} ms over ${runs * inputs.length} runs; with the questions' examples (the sentence encoder loaded by the first): ${perRunWithExamples.toFixed(1)} ms`);
