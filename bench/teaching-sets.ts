// The teaching sets of bench/teaching.ts and bench/excerpts.ts: one business's calls each, all asked
// the same yes/no questions, every yes labelled with the one turn that shows it. Read and checked
// here once for both benches; `--set dev|holdout` picks one.
import { readFileSync } from 'node:fs';
import type { TranscriptSegment } from '../src/engines/analysis/types.ts';

export interface TeachingCall {
  id: string;
  segments: TranscriptSegment[];
  answers: Record<string, { answer: boolean; passage?: string }>;
}
export interface TeachingSet {
  name: 'dev' | 'holdout';
  questions: { id: string; text: string }[];
  calls: TeachingCall[];
}

/** dev: an energy supplier, to try changes on; holdout: a home internet provider, only measured. */
const FILES = { dev: './teaching-calls-dev.json', holdout: './teaching-calls.json' } as const;

/** The sets `--set` asks for (both without it), read, every yes's passage checked to be one of its call's turns. */
export function teachingSets(argv: readonly string[]): TeachingSet[] {
  const at = argv.indexOf('--set');
  const only = at >= 0 ? argv[at + 1] : undefined;
  if (only !== undefined && !(only in FILES)) throw new Error(`--set takes dev or holdout, not ${only}`);
  return (Object.keys(FILES) as TeachingSet['name'][])
    .filter((name) => only === undefined || only === name)
    .map((name) => {
      const file = FILES[name];
      const read = JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as Omit<TeachingSet, 'name'>;
      for (const call of read.calls) {
        for (const q of read.questions) {
          const a = call.answers[q.id];
          if (!a) throw new Error(`${file}: ${call.id} has no answer to ${q.id}`);
          if (a.answer && !call.segments.some((s) => s.text === a.passage)) throw new Error(`${file}: ${call.id}/${q.id}: the passage is not one of the call's turns`);
        }
      }
      return { name, ...read };
    });
}
