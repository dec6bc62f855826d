// A question's examples taught from a call's passages: which passage can be one, and the
// scenario's questions with it added, or why not.
import type { Schemas } from '../api/client.ts';

type Question = Schemas['AnalysisScenario']['questions'][number];

/** The API's bound on a question's examples, and on each one's length. */
export const MAX_EXAMPLES = 10;
const MAX_EXAMPLE_CHARS = 300;

/** A passage as an example, or null where it cannot be one: cut short ("…"), too long, or without a word. */
export function asExample(passage: string): string | null {
  const text = passage.trim();
  if (text.endsWith('…') || text.length > MAX_EXAMPLE_CHARS || !/[\p{L}\p{N}]/u.test(text)) return null;
  return text;
}

const words = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
/** Two sentences with the same words, whatever their case and punctuation. */
export const sameSentence = (a: string, b: string) => words(a) === words(b);

/** Whether a question takes examples, and which it has: a yes/no question without phrases, under the bound. */
export function examplesOf(question: Question | undefined): string[] | null {
  if (!question || question.type !== 'boolean' || (question.phrases?.length ?? 0) > 0) return null;
  const examples = question.examples ?? [];
  return examples.length >= MAX_EXAMPLES ? null : examples;
}

/**
 * The questions with `sentence` added to the examples of `questionId`; `unchanged` where it is one
 * already; a reason where the question (as it is now) takes no more.
 */
export function withExample(questions: readonly Question[], questionId: string, sentence: string): { questions: Question[] } | { unchanged: true } | { refused: string } {
  const question = questions.find((q) => q.id === questionId);
  if (!question) return { refused: 'The question is no longer in the scenario.' };
  const examples = examplesOf(question);
  if (examples === null) return { refused: question.type === 'boolean' && !question.phrases?.length ? `The question has ${MAX_EXAMPLES} examples already.` : 'The question is answered by its phrases: it takes no examples.' };
  if (examples.some((e) => sameSentence(e, sentence))) return { unchanged: true };
  return { questions: questions.map((q) => (q.id === questionId ? { ...q, examples: [...examples, sentence] } : q)) };
}
