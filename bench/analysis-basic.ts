// Accuracy per question type and mean time per run of the `basic` analysis engine on
// analysis-dataset.json. Calls are tagged "dev" (used while building the engine) or "holdout"
// (written afterwards and not tuned on), so the holdout figures are the honest ones.
//   npx tsx bench/analysis-basic.ts [--verbose] [--runs N] [--split dev|holdout]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createBasicEngine } from '../src/engines/analysis/basic/index.ts';
import type { AnalysisInput, TranscriptSegment } from '../src/engines/analysis/types.ts';

interface BoolQ { id: string; text: string; type: 'boolean'; expected: boolean }
interface TextQ { id: string; text: string; type: 'text'; expected: string[] }
interface Call { id: string; split?: string; segments: TranscriptSegment[]; questions: (BoolQ | TextQ)[] }
interface Dataset { calls: Call[] }

const args = process.argv.slice(2);
const verbose = args.includes('--verbose') || args.includes('-v');
const runsArg = args.indexOf('--runs');
const runs = runsArg >= 0 ? Math.max(1, Number(args[runsArg + 1]) || 20) : 20;

const splitArg = args.indexOf('--split');
const onlySplit = splitArg >= 0 ? args[splitArg + 1] : undefined;
const loaded = JSON.parse(readFileSync(new URL('./analysis-dataset.json', import.meta.url), 'utf8')) as Dataset;
const dataset: Dataset = { calls: loaded.calls.filter((c) => onlySplit === undefined || c.split === onlySplit) };

function toInput(call: Call): AnalysisInput {
  return {
    transcript: { text: call.segments.map((s) => s.text).join(' '), segments: call.segments },
    instructions: '',
    questions: call.questions.map((q) => ({ id: q.id, text: q.text, type: q.type })),
    summary: true,
  };
}

function textOk(answer: string, expected: string[]): boolean {
  const a = answer.toLowerCase();
  const squash = (s: string): string => s.toLowerCase().replace(/[\s$,]/g, '');
  return expected.some((e) => a.includes(e.toLowerCase()) || squash(a).includes(squash(e)));
}

const t0 = performance.now();
const engine = createBasicEngine();
const loadMs = performance.now() - t0;

type Tally = { ok: number; n: number };
const stats = { boolean: { ok: 0, n: 0 }, text: { ok: 0, n: 0 } };
const bySplit = new Map<string, { boolean: Tally; text: Tally }>();
const failures: string[] = [];
for (const call of dataset.calls) {
  const out = await engine.analyze(toInput(call));
  if (verbose) console.log(`\n## ${call.id}\nsummary: ${out.summary ?? ''}`);
  for (const q of call.questions) {
    const a = out.answers.find((x) => x.question_id === q.id);
    if (a === undefined) throw new Error(`missing answer for ${call.id}/${q.id}`);
    const ok = q.type === 'boolean' ? a.answer === q.expected : typeof a.answer === 'string' && textOk(a.answer, q.expected);
    const split = call.split ?? 'dev';
    const sp = bySplit.get(split) ?? { boolean: { ok: 0, n: 0 }, text: { ok: 0, n: 0 } };
    bySplit.set(split, sp);
    for (const t of [stats[q.type], sp[q.type]]) {
      t.n++;
      if (ok) t.ok++;
    }
    const line = `${ok ? 'ok  ' : 'FAIL'} [${q.type}] ${call.id}/${q.id}: ${q.text} -> ${JSON.stringify(a.answer)} (conf ${a.confidence}) expected ${JSON.stringify(q.expected)}`;
    if (!ok) failures.push(line);
    if (verbose) {
      console.log(line);
      for (const e of a.evidence) console.log(`       [${e.start.toFixed(1)}-${e.end.toFixed(1)}] ${e.text}`);
    }
  }
}

// Warm up first: the JIT makes the first passes several times slower than steady state.
const inputs = dataset.calls.map(toInput);
for (let r = 0; r < 10; r++) for (const input of inputs) await engine.analyze(input);
const t1 = performance.now();
for (let r = 0; r < runs; r++) for (const input of inputs) await engine.analyze(input);
const perRun = (performance.now() - t1) / (runs * inputs.length);
const nq = inputs.reduce((s, i) => s + i.questions.length, 0) / inputs.length;

const pct = (s: Tally): string => `${s.ok}/${s.n} = ${((100 * s.ok) / Math.max(1, s.n)).toFixed(1)}%`;
if (!verbose && failures.length > 0) console.log(failures.join('\n'));
console.log(`\ncalls: ${inputs.length}, questions per call: ${nq.toFixed(1)}`);
console.log(`boolean accuracy: ${pct(stats.boolean)}`);
console.log(`text accuracy:    ${pct(stats.text)}`);
console.log(`overall:          ${pct({ ok: stats.boolean.ok + stats.text.ok, n: stats.boolean.n + stats.text.n })}`);
for (const [split, sp] of [...bySplit].sort()) {
  console.log(`  ${split.padEnd(8)} boolean ${pct(sp.boolean)}, text ${pct(sp.text)}`);
}
console.log(`model load: ${loadMs.toFixed(0)} ms; mean per analyze() run (summary + all questions): ${perRun.toFixed(2)} ms over ${runs * inputs.length} runs`);
