// Whether excerpts chosen by retrieval (bench/excerpt-ranking.ts) would hold what the questions of
// a call too long for a language model's context need, against a plain cut. Long calls are made by joining four calls of
// a teaching set (bench/teaching-calls-dev.json to try changes on; teaching-calls.json, held out)
// one after the other: 60-80 segments, every call's yes turns labelled. For each long call and
// question, the excerpts are chosen within a budget (a share of the call's characters) and the
// labelled yes turns they hold are counted: by shared words, by meaning (the sentence encoder),
// both fused, and beside them the first part of the call (a plain cut) and segments spread evenly.
//   npx tsx bench/excerpts.ts [--set dev|holdout]
import { performance } from 'node:perf_hooks';
import { excerptSegments, type RankOptions } from './excerpt-ranking.ts';
import { formatSegment } from '../src/engines/analysis/prompt.ts';
import type { TranscriptSegment } from '../src/engines/analysis/types.ts';
import { embedSentences } from '../src/engines/text/sentence-encoder.ts';
import { usage } from './usage.ts';
import { teachingSets, type TeachingSet as Data } from './teaching-sets.ts';

usage('Usage: npx tsx bench/excerpts.ts [--set dev|holdout]\nHow many of the turns that answer a question the excerpts of a long call hold, by ranking, beside a plain cut.');

const JOINED = 4;
const BUDGETS = [0.15, 0.3];

const size = (segment: TranscriptSegment): number => formatSegment(segment).length + 1;

/** The calls joined in fours (every call once), times shifted, with the passages each question's yes rests on. */
function longCalls(data: Data): { segments: TranscriptSegment[]; passages: Map<string, Set<TranscriptSegment>> }[] {
  const joined = [];
  for (let first = 0; first + JOINED <= data.calls.length; first += JOINED) {
    const segments: TranscriptSegment[] = [];
    const passages = new Map(data.questions.map((q) => [q.id, new Set<TranscriptSegment>()]));
    let offset = 0;
    for (const call of data.calls.slice(first, first + JOINED)) {
      for (const segment of call.segments) {
        const shifted = { ...segment, start: segment.start + offset, end: segment.end + offset };
        segments.push(shifted);
        for (const q of data.questions) if (call.answers[q.id]?.answer && call.answers[q.id]!.passage === segment.text) passages.get(q.id)!.add(shifted);
      }
      offset = segments.at(-1)!.end + 1;
    }
    joined.push({ segments, passages });
  }
  return joined;
}

/** The first segments of the call that fit the budget: what a plain cut sends. */
function firstPart(segments: TranscriptSegment[], maxChars: number): TranscriptSegment[] {
  const out: TranscriptSegment[] = [];
  let used = 0;
  for (const segment of segments) {
    if (used + size(segment) > maxChars) break;
    out.push(segment);
    used += size(segment);
  }
  return out;
}

/** Every n-th segment, spread over the whole call, within the budget. */
function spread(segments: TranscriptSegment[], maxChars: number): TranscriptSegment[] {
  const total = segments.reduce((sum, segment) => sum + size(segment), 0);
  const step = Math.max(1, Math.ceil(total / maxChars));
  const out: TranscriptSegment[] = [];
  let used = 0;
  for (let i = 0; i < segments.length; i += step) {
    if (used + size(segments[i]!) > maxChars) break;
    out.push(segments[i]!);
    used += size(segments[i]!);
  }
  return out;
}

const methods: [string, (segments: TranscriptSegment[], questions: Data['questions'], maxChars: number) => Promise<TranscriptSegment[]>][] = [
  ['first part of the call', async (segments, _questions, maxChars) => firstPart(segments, maxChars)],
  ['spread evenly', async (segments, _questions, maxChars) => spread(segments, maxChars)],
  ...(['words', 'meaning', 'both'] as const).map((rankers): (typeof methods)[number] => [
    rankers === 'both' ? 'words and meaning fused' : `by ${rankers}`,
    (segments, questions, maxChars) => excerptSegments(segments, questions.map((q) => ({ ...q, type: 'boolean' as const })), maxChars, { embed: rankers === 'words' ? undefined : embedSentences, rankers } satisfies RankOptions),
  ]),
];

for (const data of teachingSets(process.argv)) {
  const calls = longCalls(data);
  const lengths = calls.map((c) => c.segments.length);
  console.log(`\n${data.name === 'dev' ? 'dev (to try changes on)' : 'held-out (only measured)'}: ${calls.length} long calls of ${Math.min(...lengths)}-${Math.max(...lengths)} segments, ${data.questions.length} questions; yes turns held by the excerpts`);
  const rows = [['excerpts', ...BUDGETS.map((b) => `${Math.round(b * 100)} % of the call`), 'ms per call']];
  for (const [label, choose] of methods) {
    const row = [label];
    let ms = 0;
    for (const budget of BUDGETS) {
      let held = 0;
      let wanted = 0;
      for (const call of calls) {
        const maxChars = Math.floor(call.segments.reduce((sum, segment) => sum + size(segment), 0) * budget);
        const started = performance.now();
        const chosen = new Set(await choose(call.segments, data.questions, maxChars));
        ms += performance.now() - started;
        for (const q of data.questions) {
          const passages = call.passages.get(q.id)!;
          wanted += passages.size;
          held += [...passages].filter((p) => chosen.has(p)).length;
        }
      }
      row.push(`${held} of ${wanted} (${((100 * held) / wanted).toFixed(0)} %)`);
    }
    row.push((ms / (calls.length * BUDGETS.length)).toFixed(0));
    rows.push(row);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const [i, r] of rows.entries()) {
    console.log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j]!) : c.padStart(widths[j]!))).join('   '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('   '));
  }
}
