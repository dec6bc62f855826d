// Reports: analysis results, recordings and talk statistics grouped by metadata fields and by
// creation period, under the recording filters of the list endpoint; computed in SQL.
import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../context.ts';
import { invalid } from '../../errors.ts';
import { scenarioQuestions } from '../../core/analyses/questions.ts';
import { getScenario } from '../../core/scenarios/scenario-store.ts';
import { csvDocument } from '../../core/csv.ts';
import { recordingConditions, recordingStatuses, type RecordingFilters } from '../../core/recordings/recording-filters.ts';
import type { AnalysisReport, RecordingsReport, TalkReport } from './report-schemas.ts';

interface GroupKey {
  name: string;
  /** Cheap to compute per row: periods are whole numbers (days, weeks, months since 1970). */
  expression: RawBuilder<string | number | null>;
  /** The key as reported, from the grouped value. */
  label: (value: unknown) => string | null;
  /** Periods are labelled by their first day (ISO dates, in time order as plain text). */
  period: boolean;
  /** A table the key is read from, joined to the rows (`rec`). */
  join?: RawBuilder<unknown>;
}

const DAY = 86_400;
const isoDate = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
/**
 * Periods in UTC, weeks from Monday (as date_trunc), each labelled by its first day, of when a
 * call was uploaded (`created_at`) or took place (`recorded_at`). Computed on recordings; analysis
 * facts carry them as columns (migrations 021 and 024, same formulas).
 */
const periodsOf = (column: 'created_at' | 'recorded_at') => {
  const at = sql.ref(`rec.${column}`);
  const prefix = column === 'created_at' ? 'created' : 'recorded';
  return {
    day: { expression: sql<number>`floor(date_part('epoch', ${at}) / ${DAY})::int`, column: `${prefix}_day`, label: (k: number) => isoDate(k * DAY) },
    // 1970-01-01 was a Thursday: weeks counted from Monday 1969-12-29.
    week: { expression: sql<number>`floor((date_part('epoch', ${at}) + ${3 * DAY}) / ${7 * DAY})::int`, column: `${prefix}_week`, label: (k: number) => isoDate(k * 7 * DAY - 3 * DAY) },
    month: {
      expression: sql<number>`(date_part('year', ${at} AT TIME ZONE 'UTC') * 12 + date_part('month', ${at} AT TIME ZONE 'UTC') - 1)::int`,
      column: `${prefix}_month`,
      label: (k: number) => `${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}-01`,
    },
  };
};
const periods = { created_at: periodsOf('created_at'), recorded_at: periodsOf('recorded_at') };

/** What the keys are read from, aliased `rec`: recordings, or analysis facts (periods as columns). */
type KeySource = 'recordings' | 'facts';

/**
 * The keys of a report's group_by. `category` groups by the call categories a recording meets (by
 * name; a recording meeting two counts in both groups, one meeting none under null): `names` are
 * the workspace's categories by id.
 */
export function parseGroupBy(values: string[], source: KeySource = 'recordings', names: ReadonlyMap<string, string> = new Map()): GroupKey[] {
  if (values.length > 5) throw invalid('group_by', 'at most 5 groupings');
  // A grouping named twice would give the same key (and CSV column) twice.
  const twice = values.find((value, i) => values.indexOf(value) !== i);
  if (twice !== undefined) throw invalid('group_by', `${twice} at most once`);
  return values.map((value) => {
    if (value === 'category') {
      const recording = sql.ref(source === 'facts' ? 'rec.recording_id' : 'rec.id');
      return {
        name: value,
        expression: sql<string | null>`rcat.category_id`,
        label: (id) => (id === null || id === undefined ? null : (names.get(String(id)) ?? String(id))),
        period: false,
        join: sql`LEFT JOIN recording_categories rcat ON rcat.recording_id = ${recording}`,
      };
    }
    const match = /^(created_at|recorded_at):(day|week|month)$/.exec(value);
    if (match) {
      const { expression, column, label } = periods[match[1] as 'created_at' | 'recorded_at'][match[2] as 'day' | 'week' | 'month'];
      const labels = new Map<number, string>(); // a period's label is made once, not once per group
      const labelOf = (k: number) => labels.get(k) ?? labels.set(k, label(k)).get(k)!;
      return { name: value, expression: source === 'facts' ? sql.ref<number>(`rec.${column}`) : expression, label: (k) => (k === null || k === undefined ? null : labelOf(Number(k))), period: true };
    }
    const field = /^metadata\.([^.]+(\.[^.]+)*)$/.exec(value)?.[1];
    if (field && field.length <= 200) {
      const path = field.split('.');
      // `a.b` is the field b inside a or, where there is none, a field named "a.b", as the filters read it.
      const expression = path.length === 1 ? sql<string | null>`rec.metadata ->> ${path[0]}` : sql<string | null>`coalesce(rec.metadata #>> ${path}::text[], rec.metadata ->> ${field})`;
      return { name: value, expression, label: (v) => (v === null || v === undefined ? null : String(v)), period: false };
    }
    throw invalid('group_by', `"${value}" is not metadata.<field>, category, recorded_at:day|week|month or created_at:day|week|month`);
  });
}

/** The tables the keys read from, joined after `rec`. */
const keyJoins = (keys: GroupKey[]) => {
  const joins = keys.flatMap((k) => (k.join ? [k.join] : []));
  return joins.length ? sql.join(joins, sql` `) : sql``;
};

/** The report's keys, with the workspace's category names when it groups by category. */
async function keysFor(ctx: Context, workspaceId: string, groupBy: string[], source: KeySource = 'recordings'): Promise<GroupKey[]> {
  const names = groupBy.includes('category') ? new Map((await ctx.db.selectFrom('categories').select(['id', 'name']).where('workspace_id', '=', workspaceId).execute()).map((c) => [c.id, c.name])) : new Map<string, string>();
  return parseGroupBy(groupBy, source, names);
}

const where = (conditions: RawBuilder<boolean>[]) => (conditions.length ? sql`AND ${sql.join(conditions, sql` AND `)}` : sql``);
const keyColumns = (keys: GroupKey[]) => (keys.length ? sql`${sql.join(keys.map((k, i) => sql`${k.expression} AS ${sql.ref(`k${i}`)}`))},` : sql``);
const keyRefs = (keys: GroupKey[]) => keys.map((_, i) => sql.ref(`k${i}`));
const groupClause = (keys: GroupKey[]) => (keys.length ? sql`GROUP BY ${sql.join(keyRefs(keys))}` : sql``);
const keyOf = (keys: GroupKey[], row: Record<string, unknown>) => Object.fromEntries(keys.map((k, i) => [k.name, k.label(row[`k${i}`])]));
const keyString = (keys: GroupKey[], row: Record<string, unknown>) => JSON.stringify(keys.map((_, i) => row[`k${i}`] ?? null));


/**
 * How a report names a transcript's speaker: as the transcript does, but a call transcribed as one
 * channel (a mono recording, or channels mixed) whose speaker is unnamed is `one_channel`: everyone
 * on it, not the left channel's speaker of calls recorded on two (both would read "channel_0").
 * Transcripts measured before `sound` was kept fall back on the recording's channel count.
 */
function reportedSpeaker(speaker: RawBuilder<unknown>, transcript: string, recordingChannels: string): RawBuilder<string> {
  const sound = sql.ref(`${transcript}.sound`);
  // Counting the keys of no object gives 0, not null: only a measured `sound` counts.
  const channels = sql`CASE WHEN jsonb_typeof(${sound}) = 'object' THEN NULLIF((SELECT count(*) FROM jsonb_object_keys(${sound})), 0) END`;
  const oneChannel = sql`COALESCE(${channels}, ${sql.ref(recordingChannels)}, 1) < 2`;
  return sql<string>`CASE WHEN ${oneChannel} AND ${speaker} ~ '^channel_[0-9]+$' THEN 'one_channel' ELSE ${speaker} END`;
}

/**
 * Boolean answers counted per group over each recording's latest result for the scenario; with
 * `sentiment`, also each speaker's mean sentiment over the transcripts those results analysed.
 */
export async function analysisReport(ctx: Context, workspaceId: string, scenarioId: string, groupBy: string[], filters: RecordingFilters, options: { sentiment?: boolean } = {}): Promise<AnalysisReport> {
  const scenario = await getScenario(ctx.db, scenarioQuestions, workspaceId, scenarioId);
  const keys = await keysFor(ctx, workspaceId, groupBy, 'facts');
  // One pass over the narrow facts (migration 015), which carry the recording's times and
  // metadata; the other filters (status, category, sentiment, topic) look at the recordings.
  const { created_after, created_before, recorded_after, recorded_before, metadata, ...onRecordings } = filters;
  const conditions = [...recordingConditions({ created_after, created_before, recorded_after, recorded_before, metadata }, 'rec')];
  const byRecording = recordingConditions({ ...onRecordings, metadata: {} }, 'r');
  if (byRecording.length > 0) conditions.push(sql<boolean>`EXISTS (SELECT 1 FROM recordings r WHERE r.id = rec.recording_id ${where(byRecording)})`);
  const questions = scenario.questions.filter((q) => q.type === 'boolean');
  const counts = questions.flatMap((q, i) => [
    // `booleans` holds only JSON booleans: comparing their text is a third cheaper than comparing jsonb.
    sql`count(*) FILTER (WHERE rec.booleans ->> ${q.id} = 'true')::int AS ${sql.ref(`t${i}`)}`,
    sql`count(*) FILTER (WHERE rec.booleans ->> ${q.id} = 'false')::int AS ${sql.ref(`f${i}`)}`,
    sql`count(*) FILTER (WHERE rec.uncertain ? ${q.id})::int AS ${sql.ref(`u${i}`)}`,
    sql`count(*) FILTER (WHERE rec.reviews ? ${q.id})::int AS ${sql.ref(`r${i}`)}`,
    sql`count(*) FILTER (WHERE rec.reviews ->> ${q.id} = 'overturned')::int AS ${sql.ref(`o${i}`)}`,
  ]);
  const { rows, sentiment } = await ctx.db.transaction().execute(async (trx) => {
    // Reports fold many rows into few groups, but the planner cannot know how few groups a
    // metadata field gives and plans for a million: steer it to hash the groups in parallel
    // workers (partial aggregates) instead of sorting every row. 0.79 s instead of 3.2 s over a
    // million results in bench/scale.ts.
    await sql`SET LOCAL work_mem = '64MB'; SET LOCAL enable_sort = off; SET LOCAL parallel_setup_cost = 0; SET LOCAL parallel_tuple_cost = 0; SET LOCAL jit = off`.execute(trx);
    const counted = (
      await sql<Record<string, unknown> & { n: number }>`
        SELECT ${keyColumns(keys)} ${sql.join([sql`count(*)::int AS n`, ...counts])}
        FROM analysis_facts rec ${keyJoins(keys)}
        WHERE rec.workspace_id = ${workspaceId} AND rec.analysis_scenario_id = ${scenario.id} AND rec.latest ${where(conditions)}
        ${groupClause(keys)}`.execute(trx)
    ).rows;
    if (!options.sentiment) return { rows: counted, sentiment: [] };
    // The transcripts the counted results analysed, each speaker's mean (stored with the transcript; one stored before sentiment was scored counts for no one).
    const scored = await sql<Record<string, unknown> & { speaker: string; n: number; mean: number }>`
      SELECT ${keyColumns(keys)} x.speaker AS speaker, count(*)::int AS n, avg(x.mean)::float8 AS mean
      FROM analysis_facts rec ${keyJoins(keys)}
      JOIN analysis_results res ON res.analysis_run_id = rec.analysis_run_id
      JOIN transcripts t ON t.id = res.transcript_id
      JOIN recordings rc ON rc.id = rec.recording_id
      CROSS JOIN LATERAL (SELECT ${reportedSpeaker(sql`s ->> 'speaker'`, 't', 'rc.channels')} AS speaker, (s ->> 'mean')::float8 AS mean FROM jsonb_array_elements(t.sentiment -> 'speakers') s) x
      WHERE rec.workspace_id = ${workspaceId} AND rec.analysis_scenario_id = ${scenario.id} AND rec.latest ${where(conditions)}
      GROUP BY ${sql.join([...keyRefs(keys), sql.ref('speaker')])}`.execute(trx);
    return { rows: counted, sentiment: scored.rows };
  });
  const speakersOf = new Map<string, { speaker: string; transcripts: number; mean: number }[]>();
  for (const row of sentiment) {
    const id = keyString(keys, row);
    speakersOf.set(id, [...(speakersOf.get(id) ?? []), { speaker: row.speaker, transcripts: Number(row.n), mean: rounded(row.mean) }].sort((a, b) => a.speaker.localeCompare(b.speaker)));
  }
  // Without group_by the counts come back even over no result: no group then, as with group_by.
  const groups = rows.filter((row) => Number(row.n) > 0).map((row) => ({
      key: keyOf(keys, row),
      results: Number(row.n),
      calls: Number(row.n),
      questions: questions.map((q, i) => {
        const yes = Number(row[`t${i}`]);
        const no = Number(row[`f${i}`]);
        return { question_id: q.id, question: q.text, true: yes, false: no, uncertain: Number(row[`u${i}`]), reviewed: Number(row[`r${i}`]), overturned: Number(row[`o${i}`]), rate: yes + no ? yes / (yes + no) : null };
      }),
      ...(options.sentiment ? { sentiment: speakersOf.get(keyString(keys, row)) ?? [] } : {}),
    }));
  return { analysis_scenario_id: scenario.id, group_by: groupBy, questions: questions.map((q) => ({ question_id: q.id, question: q.text })), groups: byKey(keys, groups) };
}


export async function recordingsReport(ctx: Context, workspaceId: string, groupBy: string[], filters: RecordingFilters): Promise<RecordingsReport> {
  const keys = await keysFor(ctx, workspaceId, groupBy);
  const rows = await sql<Record<string, unknown> & { status: string; n: number; seconds: number }>`
    SELECT ${keyColumns(keys)} rec.status AS status, count(*)::int AS n, coalesce(sum(rec.duration_seconds), 0)::float8 AS seconds
    FROM recordings rec ${keyJoins(keys)} WHERE rec.workspace_id = ${workspaceId} ${where(recordingConditions(filters, 'rec'))}
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
  return { group_by: groupBy, groups: byKey(keys, [...groups.values()]) };
}


const avg = (field: string, source = sql.ref('l.stats')) => sql<number>`coalesce(avg((${source} ->> ${field})::float8), 0)::float8`;
const rounded = (value: unknown) => Math.round(Number(value) * 1000) / 1000;

/**
 * Talk statistics of each recording's latest transcript, averaged per group: silence, overlap and
 * interruptions per call, and per speaker the talk ratio, talk time, pace and longest turn.
 */
export async function talkReport(ctx: Context, workspaceId: string, groupBy: string[], filters: RecordingFilters): Promise<TalkReport> {
  const keys = await keysFor(ctx, workspaceId, groupBy);
  const latest = sql`(
    SELECT DISTINCT ON (t.recording_id) t.recording_id, t.stats, t.sentiment, t.sound FROM transcripts t
    WHERE t.workspace_id = ${workspaceId} AND t.stats IS NOT NULL ORDER BY t.recording_id, t.seq DESC
  ) l JOIN recordings rec ON rec.id = l.recording_id ${keyJoins(keys)}`;
  const conditions = where(recordingConditions(filters, 'rec'));
  const calls = await sql<Record<string, unknown>>`
    SELECT ${keyColumns(keys)} count(*)::int AS n, ${avg('silence_seconds')} AS silence, ${avg('overlap_seconds')} AS overlap, ${avg('interruptions')} AS interruptions
    FROM ${latest} WHERE rec.workspace_id = ${workspaceId} ${conditions} ${groupClause(keys)}`.execute(ctx.db);
  const speakers = await sql<Record<string, unknown> & { speaker: string }>`
    SELECT ${keyColumns(keys)} ${reportedSpeaker(sql`s.value ->> 'speaker'`, 'l', 'rec.channels')} AS speaker, count(*)::int AS n,
      ${sql.join(['talk_ratio', 'talk_seconds', 'words_per_minute', 'longest_turn_seconds', 'interruptions'].map((field) => sql`${avg(field, sql.ref('s.value'))} AS ${sql.ref(field)}`))},
      -- The speaker's mean sentiment in each call that has it scored, averaged.
      avg((SELECT (x ->> 'mean')::float8 FROM jsonb_array_elements(l.sentiment -> 'speakers') x WHERE x ->> 'speaker' = s.value ->> 'speaker' LIMIT 1)) AS sentiment
    FROM ${latest} CROSS JOIN LATERAL jsonb_array_elements(l.stats -> 'speakers') s
    WHERE rec.workspace_id = ${workspaceId} ${conditions}
    GROUP BY ${sql.join([...keyRefs(keys), sql.ref('speaker')])}`.execute(ctx.db);
  const groups = new Map<string, TalkReport['groups'][number]>();
  for (const row of calls.rows) {
    // Without group_by the count comes back even over no transcript: no group then, as with group_by (an average of nothing is no 0).
    if (Number(row.n) === 0) continue;
    groups.set(keyString(keys, row), {
      key: keyOf(keys, row),
      transcripts: Number(row.n),
      silence_seconds_avg: rounded(row.silence),
      overlap_seconds_avg: rounded(row.overlap),
      interruptions_avg: rounded(row.interruptions),
      speakers: [],
    });
  }
  for (const row of speakers.rows) {
    groups.get(keyString(keys, row))?.speakers.push({
      speaker: row.speaker,
      transcripts: Number(row.n),
      // Filled below from the group's total talk.
      talk_share: Number(row.talk_seconds) * Number(row.n),
      talk_ratio_avg: rounded(row.talk_ratio),
      talk_seconds_avg: rounded(row.talk_seconds),
      words_per_minute_avg: rounded(row.words_per_minute),
      longest_turn_seconds_avg: rounded(row.longest_turn_seconds),
      interruptions_avg: rounded(row.interruptions),
      sentiment_avg: row.sentiment === null || row.sentiment === undefined ? null : rounded(row.sentiment),
    });
  }
  for (const group of groups.values()) {
    // Each speaker's share of all the group's talk: a group's shares add up to 1, whichever calls
    // each speaker took part in (an average of per-call ratios does not).
    const total = group.speakers.reduce((sum, s) => sum + s.talk_share, 0);
    for (const s of group.speakers) s.talk_share = total > 0 ? rounded(s.talk_share / total) : 0;
    group.speakers.sort((a, b) => a.speaker.localeCompare(b.speaker));
  }
  return { group_by: groupBy, groups: byKey(keys, [...groups.values()]) };
}

export function talkReportCsv(report: TalkReport): string {
  const speakers = [...new Set(report.groups.flatMap((g) => g.speakers.map((s) => s.speaker)))].sort();
  const fields = ['talk_share', 'talk_ratio_avg', 'talk_seconds_avg', 'words_per_minute_avg', 'longest_turn_seconds_avg', 'interruptions_avg', 'sentiment_avg'] as const;
  const header = [...report.group_by, 'transcripts', 'silence_seconds_avg', 'overlap_seconds_avg', 'interruptions_avg', ...speakers.flatMap((s) => fields.map((f) => `${s}.${f}`))];
  const lines = report.groups.map((g) => {
    const bySpeaker = new Map(g.speakers.map((s) => [s.speaker, s]));
    return [
      ...report.group_by.map((name) => g.key[name]),
      g.transcripts,
      g.silence_seconds_avg,
      g.overlap_seconds_avg,
      g.interruptions_avg,
      ...speakers.flatMap((s) => fields.map((f) => bySpeaker.get(s)?.[f] ?? '')),
    ];
  });
  return csvDocument([header, ...lines]);
}

const collator = new Intl.Collator();

/**
 * Groups in the order of their keys, the first key first: periods in time, metadata values as text
 * in the locale's order, a missing value last. Each key's distinct values are ranked once.
 */
function byKey<G extends { key: Record<string, string | null> }>(keys: GroupKey[], groups: G[]): G[] {
  const ranks = keys.map((key) => {
    const values = [...new Set(groups.map((group) => group.key[key.name]))].filter((value): value is string => value !== null && value !== undefined);
    values.sort(key.period ? undefined : collator.compare);
    return new Map(values.map((value, rank) => [value, rank]));
  });
  const tuples = new Map(groups.map((group) => [group, keys.map((key, i) => ranks[i]!.get(group.key[key.name] as string) ?? Number.MAX_SAFE_INTEGER)]));
  return groups.sort((a, b) => {
    const ta = tuples.get(a)!;
    const tb = tuples.get(b)!;
    for (let i = 0; i < ta.length; i++) if (ta[i] !== tb[i]) return ta[i]! - tb[i]!;
    return 0;
  });
}

export function analysisReportCsv(report: AnalysisReport): string {
  // The scenario's questions, so a filter that finds nothing still answers the columns.
  const questionIds = report.questions.map((q) => q.question_id);
  const speakers = [...new Set(report.groups.flatMap((g) => (g.sentiment ?? []).map((s) => s.speaker)))].sort();
  const header = [...report.group_by, 'calls', ...questionIds.flatMap((id) => [`${id}.true`, `${id}.false`, `${id}.uncertain`, `${id}.reviewed`, `${id}.overturned`, `${id}.rate`]), ...speakers.map((speaker) => `${speaker}.sentiment_avg`)];
  const lines = report.groups.map((g) => {
    const byId = new Map(g.questions.map((q) => [q.question_id, q]));
    const bySpeaker = new Map((g.sentiment ?? []).map((s) => [s.speaker, s.mean]));
    return [...report.group_by.map((name) => g.key[name]), g.calls, ...questionIds.flatMap((id) => [byId.get(id)?.true ?? 0, byId.get(id)?.false ?? 0, byId.get(id)?.uncertain ?? 0, byId.get(id)?.reviewed ?? 0, byId.get(id)?.overturned ?? 0, byId.get(id)?.rate ?? '']), ...speakers.map((speaker) => bySpeaker.get(speaker) ?? '')];
  });
  return csvDocument([header, ...lines]);
}

export function recordingsReportCsv(report: RecordingsReport): string {
  // Every status a recording can have, always in this order: the columns do not move with the data.
  const statuses = recordingStatuses;
  const header = [...report.group_by, 'recordings', ...statuses, 'total_duration_seconds'];
  const lines = report.groups.map((g) => [...report.group_by.map((name) => g.key[name]), g.recordings, ...statuses.map((s) => g.by_status[s] ?? 0), g.total_duration_seconds]);
  return csvDocument([header, ...lines]);
}
