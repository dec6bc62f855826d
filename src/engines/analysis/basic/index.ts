// The `basic` analysis engine: no language model, only wink-nlp with its English lite model, so it
// is deterministic, fast and free. Pipeline: transcript -> timed units (sentences.ts), each read
// once into tokens with synonym groups, negation and question marks and refined entities; then a
// TF-IDF summary (summary.ts) and, per question, term matching (matching.ts) answered as a
// boolean (boolean-answer.ts) or as text (text-answer.ts). `instructions` are ignored.
import type { AnalysisAnswer, AnalysisEngine, AnalysisInput, AnalysisOutput } from '../types.ts';
import { answerBoolean, OWN_WORDS_YES_CONFIDENCE } from './boolean-answer.ts';
import type { AnswerBody } from './evidence.ts';
import { matchUnit, scoreMatches } from './matching.ts';
import { buildQuery, type Query } from './query.ts';
import { buildUnits, segmentsOf } from './sentences.ts';
import { summarize } from './summary.ts';
import { answerText } from './text-answer.ts';
import { getWink } from './wink.ts';

export const BASIC_ENGINE_NAME = 'basic';
export const BASIC_MODEL_NAME = 'wink-eng-lite-web-model';

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) {
    throw signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted', 'AbortError');
  }
}

/** Synchronous analysis; the input is checked defensively because it may come from stored JSON. */
export function analyzeBasic(input: AnalysisInput, signal?: AbortSignal): AnalysisOutput {
  throwIfAborted(signal);
  const w = getWink();
  const units = buildUnits(w, segmentsOf(input));
  const summary = input?.summary === true ? summarize(units) : null;
  const answers: AnalysisAnswer[] = [];
  for (const question of Array.isArray(input?.questions) ? input.questions : []) {
    throwIfAborted(signal);
    const qtext = typeof question?.text === 'string' ? question.text : '';
    const type: 'boolean' | 'text' = question?.type === 'boolean' ? 'boolean' : 'text';
    const base = { question_id: String(question?.id ?? ''), question: qtext, type };
    if (units.length === 0 || qtext.trim() === '') {
      answers.push({ ...base, answer: type === 'boolean' ? false : '', confidence: 0, evidence: [] });
      continue;
    }
    const q = buildQuery(w, qtext);
    if (type === 'boolean' && q.terms.length === 0) {
      // Nothing to look for ("???"): no claim either way.
      answers.push({ ...base, answer: false, confidence: 0, evidence: [] });
      continue;
    }
    const answerTo = (query: Query) => {
      const matches = units.map((u) => matchUnit(query, u));
      scoreMatches(query, matches);
      return matches;
    };
    if (type === 'text') {
      answers.push({ ...base, ...answerText(q, units, answerTo(q)) });
      continue;
    }
    const own = answerBoolean(q, units, answerTo(q), OWN_WORDS_YES_CONFIDENCE);
    answers.push({
      ...base,
      ...withExamples(own, examplesOf(question), (example) => {
        const eq = buildQuery(w, example);
        return answerBoolean(eq, units, answerTo(eq));
      }),
    });
  }
  return { engine: BASIC_ENGINE_NAME, model: BASIC_MODEL_NAME, summary, answers, tokens_used: 0 };
}

const examplesOf = (question: unknown): string[] => {
  const examples = (question as { examples?: unknown } | null)?.examples;
  return Array.isArray(examples) ? examples.filter((e): e is string => typeof e === 'string' && e.trim() !== '') : [];
};

/**
 * A boolean answer read beside the question's examples (sentences that mean yes): an example the
 * call affirms, with a sentence to show for it, answers yes when the question's own wording found
 * no yes, or found it less surely. An example never answers no: that stays the question's to say.
 */
export function withExamples(own: AnswerBody<boolean>, examples: string[], answer: (example: string) => AnswerBody<boolean>): AnswerBody<boolean> {
  let best = own;
  for (const example of examples) {
    const byExample = answer(example);
    if (byExample.answer !== true || byExample.evidence.length === 0) continue;
    if ((best.answer !== true || best.evidence.length === 0) || byExample.confidence > best.confidence) best = byExample;
  }
  return best === own ? own : { answer: best.answer, confidence: best.confidence, evidence: best.evidence };
}

export function createBasicEngine(): AnalysisEngine {
  // Load the model now, so the first analysis does not pay for it.
  getWink();
  return {
    name: BASIC_ENGINE_NAME,
    analyze(input: AnalysisInput, signal?: AbortSignal): Promise<AnalysisOutput> {
      try {
        return Promise.resolve(analyzeBasic(input, signal));
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
}
