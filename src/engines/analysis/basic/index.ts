// The `basic` analysis engine: no language model, only wink-nlp with its English lite model, so it
// is deterministic, fast and free. Pipeline: transcript -> timed units (sentences.ts), each read
// once into tokens with synonym groups, negation and question marks and refined entities; then a
// TF-IDF summary (summary.ts) and, per question, term matching (matching.ts) answered as a
// boolean (boolean-answer.ts) or as text (text-answer.ts). `instructions` are ignored. A boolean
// question's `examples` are matched like its wording, and an example's yes stands only where the
// sentence it was found in means much the same (the Universal Sentence Encoder's cosine): the
// sentences to compare are gathered by a first pass, embedded, and read by a second.
import { cosineSimilarity, embedSentences } from '../../text/sentence-encoder.ts';
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

/**
 * How alike an example and a sentence it was found in are (cosine of their sentence vectors), or
 * undefined where that was not measured.
 */
export type Likeness = (example: string, sentence: string) => number | undefined;

/** Synchronous analysis; the input is checked defensively because it may come from stored JSON. */
export function analyzeBasic(input: AnalysisInput, signal?: AbortSignal, likeness: Likeness = () => undefined): AnalysisOutput {
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
      ...withExamples(
        own,
        examplesOf(question),
        (example) => {
          const eq = buildQuery(w, example);
          return answerBoolean(eq, units, answerTo(eq));
        },
        likeness,
      ),
    });
  }
  return { engine: BASIC_ENGINE_NAME, model: BASIC_MODEL_NAME, summary, answers, tokens_used: 0 };
}

const examplesOf = (question: unknown): string[] => {
  const examples = (question as { examples?: unknown } | null)?.examples;
  return Array.isArray(examples) ? examples.filter((e): e is string => typeof e === 'string' && e.trim() !== '') : [];
};

/**
 * Where an example's yes rests on a sentence less alike than this, it is no yes: the example's
 * words were said, but not its meaning ("you could keep your membership" for "i'll keep my
 * membership"). Chosen on the dev sets of bench/analysis-basic.ts (dev and dev-2 pooled); the
 * same as a category's `similar_to` default.
 */
export const EXAMPLE_LIKENESS = 0.6;
/**
 * An example's yes keeps its confidence only where its sentence is at least this alike; below,
 * it is marked uncertain. On the dev sets such a yes was right 16 times in 16 (at 0.75, 27 in 31;
 * a yes from the example's words alone, 51 in 78).
 */
export const EXAMPLE_SURE_LIKENESS = 0.8;

/**
 * A boolean answer read beside the question's examples (sentences that mean yes): an example the
 * call affirms, with a sentence to show for it that means much the same, answers yes when the
 * question's own wording found no yes, or found it less surely. An example never answers no: that
 * stays the question's to say. Where the likeness was not measured (the encoder could not be
 * loaded) the example's yes stands, marked uncertain.
 */
export function withExamples(own: AnswerBody<boolean>, examples: string[], answer: (example: string) => AnswerBody<boolean>, likeness: Likeness = () => undefined): AnswerBody<boolean> {
  let best = own;
  for (const example of examples) {
    const byExample = answer(example);
    if (byExample.answer !== true || byExample.evidence.length === 0) continue;
    const measured = byExample.evidence.map((e) => ({ e, alike: likeness(example, e.text) }));
    // Where likeness was measured, only the sentences alike enough are shown for the yes.
    const alike = measured.filter((m) => m.alike !== undefined && m.alike >= EXAMPLE_LIKENESS);
    const unmeasured = measured.every((m) => m.alike === undefined);
    if (!unmeasured && alike.length === 0) continue;
    const closest = Math.max(...alike.map((m) => m.alike!));
    const confidence = !unmeasured && closest >= EXAMPLE_SURE_LIKENESS ? byExample.confidence : Math.min(byExample.confidence, OWN_WORDS_YES_CONFIDENCE);
    const evidence = unmeasured ? byExample.evidence : alike.map((m) => m.e);
    if (best.answer !== true || best.evidence.length === 0 || confidence > best.confidence) best = { ...byExample, confidence, evidence };
  }
  return best === own ? own : { answer: best.answer, confidence: best.confidence, evidence: best.evidence };
}

/**
 * The (example, sentence) pairs an analysis would compare: a pass over the boolean questions with
 * examples alone (no summary, no other question) that measures nothing and notes what it was asked.
 */
function pairsToCompare(input: AnalysisInput, signal?: AbortSignal): [string, string][] {
  const pairs: [string, string][] = [];
  const questions = (Array.isArray(input?.questions) ? input.questions : []).filter((question) => question?.type === 'boolean' && examplesOf(question).length > 0);
  if (questions.length === 0) return pairs;
  analyzeBasic({ ...input, questions, summary: false }, signal, (example, sentence) => {
    pairs.push([example, sentence]);
    return undefined;
  });
  return pairs;
}

/**
 * The likeness of each pair, from one embedding of their texts; none where the encoder cannot be
 * loaded (it is tried again by the next analysis with examples: the answers then stay uncertain).
 */
async function likenessOf(pairs: [string, string][]): Promise<Likeness> {
  if (pairs.length === 0) return () => undefined;
  const texts = [...new Set(pairs.flat())];
  let vectors: number[][];
  try {
    vectors = await embedSentences(texts);
  } catch {
    return () => undefined;
  }
  const byText = new Map(texts.map((text, i) => [text, vectors[i]!]));
  return (example, sentence) => {
    const a = byText.get(example);
    const b = byText.get(sentence);
    return a && b ? cosineSimilarity(a, b) : undefined;
  };
}

export function createBasicEngine(): AnalysisEngine {
  // Load the model now, so the first analysis does not pay for it.
  getWink();
  return {
    name: BASIC_ENGINE_NAME,
    async analyze(input: AnalysisInput, signal?: AbortSignal): Promise<AnalysisOutput> {
      try {
        const likeness = await likenessOf(pairsToCompare(input, signal));
        // Embedding takes a while: a run cancelled meanwhile stops here.
        throwIfAborted(signal);
        return analyzeBasic(input, signal, likeness);
      } catch (err) {
        throw err instanceof Error ? err : new Error(String(err));
      }
    },
  };
}
