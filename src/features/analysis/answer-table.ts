// Answers across calls: one row per call (its latest completed result for the scenario, or the
// result of an execution's run on it), one cell per question with the answer, its confidence,
// whether it is uncertain and when its first evidence was said. Filtered by the recording filters
// and by answers (`answer.<question_id>=true|false|uncertain`), as JSON or CSV.
import { sql } from 'kysely';
import { getExecution } from '../../core/executions/executions.ts';
import type { Context } from '../../context.ts';
import { readStored } from '../../platform/db/stored-json.ts';
import { invalid } from '../../errors.ts';
import { getAnalysisScenario } from './analysis-scenarios.ts';
import { csvDocument } from '../../core/csv.ts';
import { latestTranscriptId, recordingConditions, type RecordingFilters } from '../../core/recordings/recording-filters.ts';
import { UNCERTAIN_BELOW, StoredAnswersSchema } from '../../core/analyses/analysis-result.ts';

export interface AnswerCell {
  /** The reviewer's answer where a person reviewed it, else the engine's. */
  answer: boolean | string;
  /** The engine's confidence, or 1 where a person reviewed the answer. */
  confidence: number;
  /** Low confidence and not reviewed. */
  uncertain: boolean;
  reviewed: boolean;
  /** Reviewed, and the reviewer's answer is not the engine's. */
  overturned: boolean;
  /** When the first passage of evidence starts (seconds), to open the call there. */
  evidence_start: number | null;
}

export interface AnswerRow {
  recording_id: string;
  filename: string;
  metadata: Record<string, unknown>;
  recorded_at: Date;
  analysis_run_id: string;
  /** The answers are of a transcript the call no longer has as its latest (transcribed again, or corrected, since). */
  outdated: boolean;
  /** The call has a newer result of the scenario than this one (an execution's table only): reviews go to the newest. */
  superseded: boolean;
  answers: Record<string, AnswerCell>;
}

export interface AnswerTable {
  analysis_scenario_id: string;
  execution_id: string | null;
  questions: { id: string; text: string; type: string }[];
  rows: AnswerRow[];
  /** Rows before `limit` was applied. */
  total: number;
}

export type AnswerFilter = 'true' | 'false' | 'uncertain' | 'reviewed' | 'overturned';
const ANSWER_FILTERS: readonly string[] = ['true', 'false', 'uncertain', 'reviewed', 'overturned'];

/** `answer.<question_id>=…` parameters of a query string. */
export function answerFilters(query: Record<string, unknown>): Record<string, AnswerFilter> {
  const filters: Record<string, AnswerFilter> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!name.startsWith('answer.')) continue;
    if (typeof value !== 'string' || !ANSWER_FILTERS.includes(value)) throw invalid(name, 'must be true, false, uncertain, reviewed or overturned');
    filters[name.slice('answer.'.length)] = value as AnswerFilter;
  }
  return filters;
}

export async function answerTable(
  ctx: Context,
  workspaceId: string,
  scenarioId: string,
  options: { executionId?: string | undefined; filters: RecordingFilters; answers: Record<string, AnswerFilter>; limit: number; offset: number },
): Promise<AnswerTable> {
  const scenario = await getAnalysisScenario(ctx.db, workspaceId, scenarioId);
  const questions = scenario.questions.map((q) => ({ id: q.id, text: q.text, type: q.type }));
  for (const [id, wanted] of Object.entries(options.answers)) {
    const question = questions.find((q) => q.id === id);
    if (!question) throw invalid(`answer.${id}`, `the scenario has no question "${id}"`);
    // A text answer is never true or false: whether it is uncertain, reviewed or overturned can filter it.
    if (question.type === 'text' && (wanted === 'true' || wanted === 'false')) throw invalid(`answer.${id}`, `"${id}" is a text question: filter it by uncertain, reviewed or overturned, not ${String(wanted)}`);
  }
  // An execution named is one of this scenario's (else 404, as an unknown id in a path).
  if (options.executionId !== undefined) await getExecution(ctx, workspaceId, 'analysis', scenario.id, options.executionId);
  const conditions = recordingConditions(options.filters, 'rec');
  // The results to show: an execution's runs, or each call's latest result for the scenario.
  const chosen = options.executionId
    ? sql`SELECT res.analysis_run_id FROM analysis_runs run JOIN analysis_results res ON res.analysis_run_id = run.id
          WHERE run.workspace_id = ${workspaceId} AND run.execution_id = ${options.executionId} AND run.analysis_scenario_id = ${scenario.id}`
    : sql`SELECT f.analysis_run_id FROM analysis_facts f WHERE f.workspace_id = ${workspaceId} AND f.analysis_scenario_id = ${scenario.id} AND f.latest`;
  // Answer filters in SQL: the page and its total come from the database, whatever the count.
  const answerConditions = Object.entries(options.answers).map(([id, wanted]) => {
    // A reviewed answer is the reviewer's, and never uncertain.
    const match =
      wanted === 'uncertain' ? sql`(a->>'confidence')::float8 < ${UNCERTAIN_BELOW} AND NOT a ? 'review'`
      : wanted === 'reviewed' ? sql`a ? 'review'`
      : wanted === 'overturned' ? sql`a->'review'->'agrees' = 'false'::jsonb`
      : sql`coalesce(a->'review'->'answer', a->'answer') = ${wanted}::jsonb`;
    return sql`EXISTS (SELECT 1 FROM jsonb_array_elements(res.answers) AS e(a) WHERE a->>'question_id' = ${id} AND ${match})`;
  });
  const where = [...conditions, ...answerConditions];
  const { rows } = await sql<{ recording_id: string; filename: string; metadata_json: string; recorded_at: Date; analysis_run_id: string; answers: unknown; outdated: boolean; superseded: boolean; total: string }>`
    SELECT rec.id AS recording_id, rec.filename, rec.metadata_json, rec.recorded_at, res.analysis_run_id, res.answers,
      res.transcript_id IS DISTINCT FROM ${latestTranscriptId(sql.ref('rec.id'))} AS outdated,
      NOT EXISTS (SELECT 1 FROM analysis_facts f WHERE f.analysis_run_id = res.analysis_run_id AND f.latest) AS superseded,
      count(*) OVER () AS total
    FROM analysis_results res JOIN recordings rec ON rec.id = res.recording_id
    WHERE res.workspace_id = ${workspaceId} AND res.analysis_run_id IN (${chosen})
      ${where.length ? sql`AND ${sql.join(where, sql` AND `)}` : sql``}
    ORDER BY rec.recorded_at DESC, rec.id DESC
    LIMIT ${options.limit} OFFSET ${options.offset}`.execute(ctx.db);
  const table = rows.map((row): AnswerRow => {
    const stored = readStored(StoredAnswersSchema, row.answers, `analysis result ${row.analysis_run_id} answers`);
    return {
      recording_id: row.recording_id,
      filename: row.filename,
      metadata: JSON.parse(row.metadata_json) as Record<string, unknown>,
      recorded_at: row.recorded_at,
      analysis_run_id: row.analysis_run_id,
      outdated: row.outdated === true,
      superseded: row.superseded === true,
      answers: Object.fromEntries(
        stored.map((a) => [
          a.question_id,
          {
            answer: a.review?.answer ?? a.answer,
            confidence: a.review ? 1 : a.confidence,
            uncertain: !a.review && a.confidence < UNCERTAIN_BELOW,
            reviewed: a.review !== undefined,
            overturned: a.review?.agrees === false,
            evidence_start: a.evidence[0]?.start ?? null,
          },
        ]),
      ),
    };
  });
  // An offset past the last row returns no row, hence no total: count the rows before it.
  const total = rows[0] ? Number(rows[0].total) : options.offset > 0 ? await countRows() : 0;
  return { analysis_scenario_id: scenario.id, execution_id: options.executionId ?? null, questions, rows: table, total };

  async function countRows(): Promise<number> {
    const { rows: counted } = await sql<{ total: string }>`
      SELECT count(*) AS total FROM analysis_results res JOIN recordings rec ON rec.id = res.recording_id
      WHERE res.workspace_id = ${workspaceId} AND res.analysis_run_id IN (${chosen})
        ${where.length ? sql`AND ${sql.join(where, sql` AND `)}` : sql``}`.execute(ctx.db);
    return Number(counted[0]?.total ?? 0);
  }
}

export function answerTableCsv(table: AnswerTable): string {
  const metadataFields = [...new Set(table.rows.flatMap((row) => Object.keys(row.metadata)))].sort();
  const header = ['recording_id', 'filename', 'recorded_at', 'outdated', 'superseded', ...metadataFields.map((f) => `metadata.${f}`), ...table.questions.flatMap((q) => [q.id, `${q.id}.confidence`, `${q.id}.uncertain`, `${q.id}.reviewed`, `${q.id}.overturned`])];
  const lines = table.rows.map((row) => [
    row.recording_id,
    row.filename,
    row.recorded_at instanceof Date ? row.recorded_at.toISOString() : String(row.recorded_at),
    row.outdated,
    row.superseded,
    ...metadataFields.map((f) => {
      const value = row.metadata[f];
      return value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    }),
    ...table.questions.flatMap((q) => {
      const cell = row.answers[q.id];
      return cell ? [typeof cell.answer === 'string' ? cell.answer : String(cell.answer), cell.confidence, cell.uncertain, cell.reviewed, cell.overturned] : ['', '', '', '', ''];
    }),
  ]);
  return csvDocument([header, ...lines]);
}
