// The reviews a result's answers carry, as a new result and the reports read them: a call
// analysed again keeps the reviews of its previous result where the question is asked in the same
// words (the person heard the call, and the call has not changed), and reports count a reviewed
// answer as the reviewer gave it.
import { sql } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { Trx } from '../../platform/db/database.ts';
import type { AnalysisAnswer } from '../../engines/analysis/types.ts';
import { readStored } from '../../platform/db/stored-json.ts';
import { StoredAnswersSchema, UNCERTAIN_BELOW } from '../../core/analyses/analysis-result.ts';

type StoredAnswers = Static<typeof StoredAnswersSchema>;

/**
 * Takes turns, until the transaction ends, with whatever else changes a call's results for a
 * scenario: a new result being stored (which becomes the latest and carries the reviews over) and
 * a review (which must find the latest result, and be carried over by the next).
 */
export async function lockCallResults(trx: Trx, recordingId: string, scenarioId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`facts:${recordingId}:${scenarioId}`}))`.execute(trx);
}

/** Whether a reviewer's answer is the engine's: the same boolean, or the same text whatever its case. */
export const agreeing = (given: boolean | string, engine: boolean | string) =>
  typeof given === 'string' ? given.toLowerCase() === String(engine).trim().toLowerCase() : given === engine;

/**
 * A new result's answers with the reviews of the recording's previous result for the scenario,
 * where the question is the same (id, type and words); `agrees` is against the new answer.
 */
export async function withEarlierReviews(trx: Trx, recordingId: string, scenarioId: string, answers: AnalysisAnswer[]): Promise<StoredAnswers> {
  const previous = await trx
    .selectFrom('analysis_facts as f')
    .innerJoin('analysis_results as r', 'r.analysis_run_id', 'f.analysis_run_id')
    .select(['r.analysis_run_id', 'r.answers'])
    .where('f.recording_id', '=', recordingId)
    .where('f.analysis_scenario_id', '=', scenarioId)
    .where('f.latest', '=', true)
    .executeTakeFirst();
  if (!previous) return answers;
  const reviewed = readStored(StoredAnswersSchema, previous.answers, `analysis result ${previous.analysis_run_id} answers`).filter((a) => a.review);
  return answers.map((answer) => {
    const earlier = reviewed.find((a) => a.question_id === answer.question_id && a.type === answer.type && a.question === answer.question);
    // Said as taken over (and from which run): it was given on another answer, before this one was made.
    return earlier?.review ? { ...answer, review: { ...earlier.review, agrees: agreeing(earlier.review.answer, answer.answer), carried_from: earlier.review.carried_from ?? previous.analysis_run_id } } : answer;
  });
}

/** What reports count of a result's yes/no answers: each one's answer (the reviewer's where reviewed), the uncertain unreviewed ones, and the reviews. */
export function reportFacts(answers: StoredAnswers) {
  const answered = answers.filter((a) => a.type === 'boolean' && typeof a.answer === 'boolean');
  return {
    booleans: Object.fromEntries(answered.map((a) => [a.question_id, a.review ? a.review.answer : a.answer])),
    uncertain: Object.fromEntries(answered.filter((a) => !a.review && a.confidence < UNCERTAIN_BELOW).map((a) => [a.question_id, true])),
    reviews: Object.fromEntries(answered.flatMap((a) => (a.review ? [[a.question_id, a.review.agrees ? 'agreed' : 'overturned']] : []))),
  };
}
