// Reports: analysis results and recordings grouped by metadata fields and by creation period,
// under the recording filters of the list endpoint; computed in SQL.
import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../context.ts';
import { invalid } from '../errors.ts';
import { getAnalysisScenario } from './analysis-scenarios.ts';
import { recordingConditions, type RecordingFilters } from './recording-filters.ts';

interface GroupKey {
  name: string;
  expression: RawBuilder<string | null>;
}

export function parseGroupBy(values: string[]): GroupKey[] {
  if (values.length > 5) throw invalid('group_by', 'at most 5 groupings');
  return values.map((value) => {
    const period = /^created_at:(day|week|month)$/.exec(value)?.[1] as 'day' | 'week' | 'month' | undefined;
    if (period) return { name: value, expression: sql<string>`to_char(date_trunc(${period}, rec.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')` };
    const field = /^metadata\.([^.]+(\.[^.]+)*)$/.exec(value)?.[1];
    if (field && field.length <= 200) return { name: value, expression: sql<string | null>`rec.metadata #>> ${field.split('.')}::text[]` };
    throw invalid('group_by', `"${value}" is not metadata.<field> or created_at:day|week|month`);
  });
}

const where = (conditions: RawBuilder<boolean>[]) => (conditions.length ? sql`AND ${sql.join(conditions, sql` AND `)}` : sql``);
const keyColumns = (keys: GroupKey[]) => (keys.length ? sql`${sql.join(keys.map((k, i) => sql`${k.expression} AS ${sql.ref(`k${i}`)}`))},` : sql``);
const keyRefs = (keys: GroupKey[]) => keys.map((_, i) => sql.ref(`k${i}`));
const groupClause = (keys: GroupKey[]) => (keys.length ? sql`GROUP BY ${sql.join(keyRefs(keys))}` : sql``);
const keyOf = (keys: GroupKey[], row: Record<string, unknown>) => Object.fromEntries(keys.map((k, i) => [k.name, (row[`k${i}`] as string | null) ?? null]));
const keyString = (keys: GroupKey[], row: Record<string, unknown>) => JSON.stringify(keys.map((_, i) => row[`k${i}`] ?? null));

export interface AnalysisReport {
  analysis_scenario_id: string;
  group_by: string[];
  groups: { key: Record<string, string | null>; results: number; questions: { question_id: string; question: string; true: number; false: number; rate: number | null }[] }[];
}

export async function analysisReport(ctx: Context, workspaceId: string, scenarioId: string, groupBy: string[], filters: RecordingFilters): Promise<AnalysisReport> {
  const scenario = await getAnalysisScenario(ctx.db, workspaceId, scenarioId);
  const keys = parseGroupBy(groupBy);
  const conditions = where(recordingConditions(filters, 'rec'));
  const base = sql`FROM analysis_results res JOIN recordings rec ON rec.id = res.recording_id WHERE res.workspace_id = ${workspaceId} AND res.analysis_scenario_id = ${scenario.id} ${conditions}`;
  const totals = await sql<Record<string, unknown> & { n: number }>`SELECT ${keyColumns(keys)} count(*)::int AS n ${base} ${groupClause(keys)}`.execute(ctx.db);
  const booleans = await sql<Record<string, unknown> & { question_id: string; t: number; f: number }>`
    SELECT ${keyColumns(keys)} a->>'question_id' AS question_id,
      count(*) FILTER (WHERE a->'answer' = 'true'::jsonb)::int AS t,
      count(*) FILTER (WHERE a->'answer' = 'false'::jsonb)::int AS f
    FROM analysis_results res JOIN recordings rec ON rec.id = res.recording_id
    CROSS JOIN LATERAL jsonb_array_elements(res.answers) a
    WHERE res.workspace_id = ${workspaceId} AND res.analysis_scenario_id = ${scenario.id} ${conditions} AND a->>'type' = 'boolean'
    GROUP BY ${sql.join([...keyRefs(keys), sql.ref('question_id')])}`.execute(ctx.db);
  const questionText = new Map(scenario.questions.map((q) => [q.id, q.text]));
  const groups = new Map<string, AnalysisReport['groups'][number]>();
  for (const row of totals.rows) groups.set(keyString(keys, row), { key: keyOf(keys, row), results: Number(row.n), questions: [] });
  for (const row of booleans.rows) {
    const group = groups.get(keyString(keys, row));
    if (!group) continue;
    const decided = Number(row.t) + Number(row.f);
    group.questions.push({ question_id: row.question_id, question: questionText.get(row.question_id) ?? row.question_id, true: Number(row.t), false: Number(row.f), rate: decided ? Number(row.t) / decided : null });
  }
  return { analysis_scenario_id: scenario.id, group_by: groupBy, groups: [...groups.values()].sort(byKey) };
}

export interface RecordingsReport {
  group_by: string[];
  groups: { key: Record<string, string | null>; recordings: number; by_status: Record<string, number>; total_duration_seconds: number }[];
}

export async function recordingsReport(ctx: Context, workspaceId: string, groupBy: string[], filters: RecordingFilters): Promise<RecordingsReport> {
  const keys = parseGroupBy(groupBy);
  const rows = await sql<Record<string, unknown> & { status: string; n: number; seconds: number }>`
    SELECT ${keyColumns(keys)} rec.status AS status, count(*)::int AS n, coalesce(sum(rec.duration_seconds), 0)::float8 AS seconds
    FROM recordings rec WHERE rec.workspace_id = ${workspaceId} ${where(recordingConditions(filters, 'rec'))}
    GROUP BY ${sql.join([...keyRefs(keys), sql.ref('status')])}`.execute(ctx.db);
  const groups = new Map<string, RecordingsReport['groups'][number]>();
  for (const row of rows.rows) {
    const id = keyString(keys, row);
    const group = groups.get(id) ?? { key: keyOf(keys, row), recordings: 0, by_status: {}, total_duration_seconds: 0 };
    group.recordings += Number(row.n);
    group.by_status[row.status] = Number(row.n);
    group.total_duration_seconds = Math.round((group.total_duration_seconds + Number(row.seconds)) * 1000) / 1000;
    groups.set(id, group);
  }
  return { group_by: groupBy, groups: [...groups.values()].sort(byKey) };
}

function byKey(a: { key: Record<string, string | null> }, b: { key: Record<string, string | null> }): number {
  return JSON.stringify(Object.values(a.key)).localeCompare(JSON.stringify(Object.values(b.key)));
}

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function analysisReportCsv(report: AnalysisReport): string {
  const questionIds = [...new Set(report.groups.flatMap((g) => g.questions.map((q) => q.question_id)))];
  const header = [...report.group_by, 'results', ...questionIds.flatMap((id) => [`${id}.true`, `${id}.false`, `${id}.rate`])];
  const lines = report.groups.map((g) => {
    const byId = new Map(g.questions.map((q) => [q.question_id, q]));
    return [...report.group_by.map((name) => g.key[name]), g.results, ...questionIds.flatMap((id) => [byId.get(id)?.true ?? 0, byId.get(id)?.false ?? 0, byId.get(id)?.rate ?? ''])];
  });
  return [header, ...lines].map((line) => line.map(csvCell).join(',')).join('\n') + '\n';
}

export function recordingsReportCsv(report: RecordingsReport): string {
  const statuses = [...new Set(report.groups.flatMap((g) => Object.keys(g.by_status)))].sort();
  const header = [...report.group_by, 'recordings', ...statuses, 'total_duration_seconds'];
  const lines = report.groups.map((g) => [...report.group_by.map((name) => g.key[name]), g.recordings, ...statuses.map((s) => g.by_status[s] ?? 0), g.total_duration_seconds]);
  return [header, ...lines].map((line) => line.map(csvCell).join(',')).join('\n') + '\n';
}
