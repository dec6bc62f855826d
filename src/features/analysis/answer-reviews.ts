// A person's review of one answer of a completed analysis run: they listened and agree, or give
// the right answer. The review is kept in the result's answer (`review`), beside the engine's own
// answer, and the run's report facts count it instead: a reviewed yes/no answer is counted as the
// reviewer says and never as uncertain, and reports say how many answers were reviewed and how
// many of those the reviewer overturned (the engine's accuracy on the team's own calls). A call
// analysed again keeps its reviews where the question is asked in the same words: the person
// heard the call, and the call has not changed. Each change is an `analysis_answer.reviewed` event.
import { sql } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { Context } from '../../context.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { readStored } from '../../platform/db/stored-json.ts';
import { getRun } from '../../core/runs/runs.ts';
import { presentAnalysisResult, StoredAnswersSchema, type ReviewSchema } from '../../core/analyses/analysis-result.ts';
import { analysisKind } from './analysis-kind.ts';
import { agreeing, lockCallResults, reportFacts } from './reviewed-answers.ts';
import { emitEvent } from '../../core/events.ts';

type Review = Static<typeof ReviewSchema>;
type StoredAnswers = Static<typeof StoredAnswersSchema>;

export interface ReviewInput {
  answer: boolean | string;
  note?: string | undefined;
}

export interface Reviewer {
  account_id: string | null;
  api_key_id: string | null;
}

/** Who reviews: the signed-in person, or the person the API key answers to (none for an operator's key). */
export function reviewerOf(principal: { session: { account_id: string } | null; key: { id: string; created_by: string | null } | null } | null): Reviewer {
  if (principal?.session) return { account_id: principal.session.account_id, api_key_id: null };
  return { account_id: principal?.key?.created_by ?? null, api_key_id: principal?.key?.id ?? null };
}

/** Sets the review of the run's answer to `question_id`, replacing an earlier one; the answer as the result now shows it. */
export async function reviewAnswer(ctx: Context, workspaceId: string, runId: string, questionId: string, input: ReviewInput, reviewer: Reviewer) {
  return changeAnswer(ctx, workspaceId, runId, questionId, (answer) => {
    if (answer.type === 'boolean' && typeof input.answer !== 'boolean') throw invalid('answer', `must be true or false: "${questionId}" is a yes/no question`);
    if (answer.type === 'text' && typeof input.answer !== 'string') throw invalid('answer', `must be a string: "${questionId}" is a text question`);
    // A text answer may be empty: the reviewer agrees that the call does not say it.
    const given = typeof input.answer === 'string' ? input.answer.replace(EDGE_SPACE, '') : input.answer;
    // The same verdict again (a note added or edited) keeps when and by whom it was given; one
    // taken over from an earlier analysis, given now on this answer, is this reviewer's, now.
    const same = answer.review !== undefined && answer.review.answer === given && !answer.review.carried_from;
    const review: Review = {
      answer: given,
      agrees: agreeing(given, answer.answer),
      note: input.note?.replace(EDGE_SPACE, '') || null,
      reviewed_at: same ? answer.review!.reviewed_at : new Date().toISOString(),
      reviewed_by: same ? answer.review!.reviewed_by : reviewer,
      carried_from: null,
    };
    return { ...answer, review };
  });
}

/** Spaces, zero-width ones too, at either end. */
const EDGE_SPACE = /^[\s\u200b-\u200d\u2060\ufeff]+|[\s\u200b-\u200d\u2060\ufeff]+$/g;

/** Removes the review of the run's answer to `question_id` (none is no error): reports count the engine's answer again. */
export async function removeReview(ctx: Context, workspaceId: string, runId: string, questionId: string) {
  return changeAnswer(ctx, workspaceId, runId, questionId, ({ review: _removed, ...answer }) => answer);
}

/** Changes the review of one answer of the call's latest result for the scenario (a superseded result is refused: reviews count for the latest only). */
async function changeAnswer(ctx: Context, workspaceId: string, runId: string, questionId: string, change: (answer: StoredAnswers[number]) => StoredAnswers[number]) {
  const run = await getRun(ctx.db, analysisKind, workspaceId, runId);
  if (run.status !== 'completed') throw new AppError('run_not_completed', `the run is ${run.status}: only a completed run's answers can be reviewed`);
  return ctx.db.transaction().execute(async (trx) => {
    const owner = await trx.selectFrom('analysis_results').select(['recording_id', 'analysis_scenario_id']).where('analysis_run_id', '=', run.id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    if (!owner) throw notFound(`the result of analysis run ${runId}`);
    // Taken in turn with a new result of the call being stored (analysis-kind's persist): that one
    // carries this review over, or this review finds it the latest and is refused.
    await lockCallResults(trx, owner.recording_id, owner.analysis_scenario_id);
    const latest = await trx.selectFrom('analysis_facts').select('analysis_run_id').where('recording_id', '=', owner.recording_id).where('analysis_scenario_id', '=', owner.analysis_scenario_id).where('latest', '=', true).executeTakeFirst();
    if (latest && latest.analysis_run_id !== run.id) {
      throw new AppError('result_superseded', `the call was analysed again since: review the answers of its latest result, analysis run ${latest.analysis_run_id} (reviews count for the latest result only)`);
    }
    // Deleted (with its recording) while this waited for the lock: gone, as an unknown id is.
    const result = await trx.selectFrom('analysis_results').selectAll().where('analysis_run_id', '=', run.id).where('workspace_id', '=', workspaceId).forNoKeyUpdate().executeTakeFirst();
    if (!result) throw notFound(`the result of analysis run ${runId}`);
    const answers = readStored(StoredAnswersSchema, result.answers, `analysis result ${result.analysis_run_id} answers`);
    const index = answers.findIndex((a) => a.question_id === questionId);
    const current = answers[index];
    if (!current) throw notFound(`question "${questionId}" of analysis run ${runId}`);
    const changed = change(current);
    // Removing a review that is not there changes nothing: nothing written, no event.
    if (!current.review && !changed.review) return presentAnalysisResult(result).answers[index]!;
    answers[index] = changed;
    await trx.updateTable('analysis_results').set({ answers: JSON.stringify(answers) }).where('analysis_run_id', '=', run.id).execute();
    // Reports count the result's answers as they now read (the reviewer's where reviewed).
    const facts = reportFacts(answers);
    await trx
      .updateTable('analysis_facts')
      .set({ booleans: sql`${JSON.stringify(facts.booleans)}::jsonb`, uncertain: sql`${JSON.stringify(facts.uncertain)}::jsonb`, reviews: sql`${JSON.stringify(facts.reviews)}::jsonb` })
      .where('analysis_run_id', '=', run.id)
      .execute();
    const presented = presentAnalysisResult({ ...result, answers }).answers[index]!;
    // Reviewed, reviewed again or its review removed (then the answer has no `review`).
    await emitEvent(ctx, trx, workspaceId, 'analysis_answer.reviewed', { analysis_run_id: run.id, recording_id: owner.recording_id, analysis_scenario_id: owner.analysis_scenario_id, answer: presented });
    return presented;
  });
}
