// How far a sentence taught from one call carries to the others: the loop of "Means yes" on a
// recording, measured. Each set holds one business's calls, all asked the same yes/no questions,
// each yes labelled with the one turn that shows it, written by a helper in a quality lead's role
// who never saw the engine: `teaching-calls-dev.json` (an energy supplier) to try changes on, and
// `teaching-calls.json` (a home internet provider), held out, only measured. For every question, the
// passage of one yes call (then two, then three, taking each yes call in turn as the first) is
// made the question's example, as a person clicking "Means yes" on it would, and the basic engine
// answers the question on every other call. Printed beside the engine without examples and the
// constant answers on the same calls; "sure" counts the answers not marked uncertain.
//   npx tsx bench/teaching.ts [--verbose] [--set dev|holdout]
import { UNCERTAIN_BELOW } from '../src/core/analyses/analysis-result.ts';
import { createBasicEngine } from '../src/engines/analysis/basic/index.ts';
import type { AnalysisInput } from '../src/engines/analysis/types.ts';
import { teachingSets, type TeachingCall as Call, type TeachingSet } from './teaching-sets.ts';
import { usage } from './usage.ts';

usage('Usage: npx tsx bench/teaching.ts [--verbose] [--set dev|holdout]\nHow far a question\'s example taught from one call carries to the others, on one support line\'s calls.');

const verbose = process.argv.includes('--verbose');
const engine = createBasicEngine();
let data: TeachingSet = { name: 'dev', questions: [], calls: [] };

/** The calls whose answer to `questionId` is yes, in the file's order. */
const yesCalls = (questionId: string): Call[] => data.calls.filter((c) => c.answers[questionId]!.answer);

/** The calls taught from for a question: `k` of its yes calls, starting at its `start`-th (in turn). */
function teachers(questionId: string, k: number, start: number): Call[] {
  const yes = yesCalls(questionId);
  return Array.from({ length: Math.min(k, yes.length) }, (_, i) => yes[(start + i) % yes.length]!);
}

function input(call: Call, examples: Map<string, string[]>): AnalysisInput {
  return {
    transcript: { text: call.segments.map((s) => s.text).join(' '), segments: call.segments },
    instructions: '',
    questions: data.questions.map((q) => ({ id: q.id, text: q.text, type: 'boolean' as const, ...(examples.get(q.id)?.length ? { examples: examples.get(q.id)! } : {}) })),
    summary: false,
  };
}

interface Tally {
  n: number;
  ok: number;
  yes: number;
  /** Yes answers on calls whose answer is no. */
  falseYes: number;
  no: number;
  /** No answers on calls whose answer is yes. */
  missed: number;
  sure: number;
  sureOk: number;
  /** Calls whose answer is yes: "always yes" gets these right. */
  truths: number;
}
const tally = (): Tally => ({ n: 0, ok: 0, yes: 0, falseYes: 0, no: 0, missed: 0, sure: 0, sureOk: 0, truths: 0 });

/** Answers every question on every call not taught from; `k` = 0 is the engine without examples. */
async function measure(k: number): Promise<Tally> {
  const total = tally();
  const rounds = k === 0 ? 1 : Math.max(...data.questions.map((q) => yesCalls(q.id).length));
  for (let start = 0; start < rounds; start++) {
    const taught = new Map(data.questions.map((q) => [q.id, k === 0 ? [] : teachers(q.id, k, start)]));
    const examples = new Map([...taught].map(([id, calls]) => [id, calls.map((c) => c.answers[id]!.passage!)]));
    for (const call of data.calls) {
      const out = await engine.analyze(input(call, examples));
      for (const q of data.questions) {
        if (taught.get(q.id)!.includes(call)) continue;
        const expected = call.answers[q.id]!.answer;
        const got = out.answers.find((a) => a.question_id === q.id)!;
        const right = got.answer === expected;
        total.n++;
        if (right) total.ok++;
        if (expected) total.truths++;
        if (got.answer === true) {
          total.yes++;
          if (!expected) total.falseYes++;
        } else {
          total.no++;
          if (expected) total.missed++;
        }
        if (got.confidence >= UNCERTAIN_BELOW) {
          total.sure++;
          if (right) total.sureOk++;
        }
        if (verbose && !right) console.log(`k=${k} start=${start} ${call.id}/${q.id}: ${String(got.answer)} (${got.confidence}), expected ${String(expected)}${got.evidence[0] ? ` — ${got.evidence[0].text}` : ''}`);
      }
    }
  }
  return total;
}

const pct = (ok: number, n: number): string => (n === 0 ? '-' : `${((100 * ok) / n).toFixed(1)} %`);
for (const set of teachingSets(process.argv)) {
  data = set;
  const rows: string[][] = [['examples', 'answers', 'right', 'always yes', 'always no', 'yes on a no call', 'no on a yes call', 'sure, right']];
  for (const k of [0, 1, 2, 3]) {
    const t = await measure(k);
    rows.push([
      k === 0 ? 'none' : `${k} taught (each yes call in turn)`,
      String(t.n),
      pct(t.ok, t.n),
      pct(t.truths, t.n),
      pct(t.n - t.truths, t.n),
      `${t.falseYes} of ${t.n - t.truths}`,
      `${t.missed} of ${t.truths}`,
      `${t.sureOk} of ${t.sure}`,
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('   ');
  console.log(`\n${data.name === 'dev' ? 'dev (to try changes on)' : 'held-out (only measured)'}: basic engine on ${data.calls.length} calls of one business, ${data.questions.length} yes/no questions; the calls taught from are left out of their question's count`);
  console.log(line(rows[0]!));
  console.log(widths.map((w) => '-'.repeat(w)).join('   '));
  for (const r of rows.slice(1)) console.log(line(r));
}
