// The recording filters shared by the list, the reports, the answer table, search and (through
// them) the web interface: status and pipeline_status (comma lists), created_after/before,
// recorded_after/before, category, sentiment_min/max (of a speaker, or of any), topic (a key
// phrase), metadata.<field>=<value>. One schema and one implementation, so a
// value means the same everywhere: "42" matches 42 and "42", "true"/"false" the booleans and the
// strings, "null" JSON null and the string "null".
import { Type, type TProperties } from '@sinclair/typebox';
import { sql, type RawBuilder } from 'kysely';
import { DateTime } from '../../http/schemas/schema-types.ts';
import { invalid } from '../../errors.ts';
import { storable } from '../../instant.ts';
import { parseStatuses } from '../cursor.ts';
import { metadataFilters } from '../../http/query.ts';
import { pipelineIn, pipelineStatuses } from './pipeline-status.ts';

export { recordingStatuses } from '../../platform/db/tables.ts';
import { recordingStatuses } from '../../platform/db/tables.ts';

export interface RecordingFilters {
  status?: string | undefined;
  /** Comma-separated pipeline statuses (pipeline-status.ts). */
  pipeline_status?: string | undefined;
  created_after?: string | undefined;
  created_before?: string | undefined;
  recorded_after?: string | undefined;
  recorded_before?: string | undefined;
  /** Comma-separated category ids (cat-…): recordings that meet any of them. */
  category?: string | undefined;
  /** A speaker's mean sentiment on the latest transcript at least / at most this (-1…1). */
  sentiment_min?: number | undefined;
  sentiment_max?: number | undefined;
  /** Whose sentiment: one speaker ("customer"); any speaker when absent. */
  sentiment_speaker?: string | undefined;
  /** Words that one of the latest transcript's key phrases contains ("refund" finds "full refund"). */
  topic?: string | undefined;
  /** A speaker the latest transcript, of two speakers or more, does not name: a call transcribed before its channels were named. */
  missing_speaker?: string | undefined;
  /** "true": calls whose latest transcript was corrected by hand; "false": the others. */
  corrected?: string | undefined;
  /** Each field's values: a recording matches where the field holds any of them. */
  metadata: Record<string, readonly string[]>;
}

const Sentiment = (bound: string) => Type.Optional(Type.Number({ minimum: -1, maximum: 1, description: `Calls whose latest transcript has a speaker (sentiment_speaker, or any) with a mean sentiment ${bound} this, -1 to 1` }));

/** The query fields of the recording filters, for every route that takes them (metadata.<field> comes as an additional property). */
export const recordingFilterFields = {
  status: Type.Optional(Type.String({ description: 'Comma-separated statuses' })),
  pipeline_status: Type.Optional(Type.String({ description: `Comma-separated pipeline statuses (where the call stands): ${pipelineStatuses.join(', ')}` })),
  created_after: Type.Optional(DateTime),
  created_before: Type.Optional(DateTime),
  recorded_after: Type.Optional({ ...DateTime, description: 'Calls that took place after this time (recorded_at)' }),
  recorded_before: Type.Optional({ ...DateTime, description: 'Calls that took place before this time (recorded_at)' }),
  category: Type.Optional(Type.String({ description: 'Comma-separated category ids (cat-…): recordings whose latest transcript meets any of them' })),
  sentiment_min: Sentiment('at least'),
  sentiment_max: Sentiment('at most'),
  sentiment_speaker: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The speaker sentiment_min and sentiment_max are about (e.g. customer); any speaker when absent' })),
  topic: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Calls whose latest transcript has a key phrase containing these words, whole and in any case ("refund" finds "full refund", not "refunded")' })),
  missing_speaker: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Calls whose latest transcript has two speakers or more and none of this name, in any case (e.g. agent): calls transcribed before their channels were named, which questions about that speaker cannot read apart' }),
  ),
  corrected: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], { description: '"true": calls whose latest transcript was corrected by hand (a transcription run makes a new one without the corrections); "false": the others, those not transcribed included' }),
  ),
};

/** The most values one metadata field is filtered by (`metadata.queue=billing&metadata.queue=sales`). */
const MAX_VALUES = 20;

/**
 * A route's query: its fields and `metadata.<field>=<value>` (and, where a route takes them, other
 * dotted families such as `answer.<question_id>`). Any other name is a 400 naming it: a typo or a
 * filter the route does not take is said, not left out of an answer that then counts everything.
 */
export function filterQuery<T extends TProperties>(fields: T, options: { families?: readonly string[]; description?: string } = {}) {
  const families = ['metadata', ...(options.families ?? [])];
  return Type.Object(fields, {
    patternProperties: Object.fromEntries(families.map((family) => [`^${family}\\..+$`, family === 'metadata' ? Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: MAX_VALUES })]) : Type.String()])),
    additionalProperties: false,
    description: options.description ?? `Also ${families.map((family) => `\`${family}.<field>=<value>\``).join(' and ')} (a metadata field named more than once matches any of its values)`,
  });
}

/** The JSON values a query-string value may stand for. */
export function candidateValues(raw: string): unknown[] {
  const values: unknown[] = [raw];
  if (raw === 'true') values.push(true);
  if (raw === 'false') values.push(false);
  if (raw === 'null') values.push(null);
  // A number as JSON writes it, exactly: "3" finds 3, "03" and "3.0" only the strings.
  if (Number.isFinite(Number(raw)) && String(Number(raw)) === raw) values.push(Number(raw));
  return values;
}

/** `{"a":{"b":value}}` for the path `a.b`: a jsonb containment probe the GIN index answers. */
export function containment(path: string, value: unknown): string {
  let object: unknown = value;
  for (const part of path.split('.').reverse()) object = { [part]: object };
  return JSON.stringify(object);
}

function parseDate(name: string, raw: string): Date {
  const date = new Date(raw);
  if (!storable(date)) throw invalid(name, 'must be an ISO 8601 date-time in years 1 to 9999');
  return date;
}

/** The id of the latest transcript of the recording whose id is `recordingId` (a column reference), as a scalar subquery. */
export const latestTranscriptId = (recordingId: ReturnType<typeof sql.ref>) =>
  sql<string>`(SELECT lt.id FROM transcripts lt WHERE lt.recording_id = ${recordingId} ORDER BY lt.seq DESC LIMIT 1)`;

/** SQL conditions on the recordings table under `alias`, AND-ed by the caller. */
export function recordingConditions(filters: RecordingFilters, alias: string): RawBuilder<boolean>[] {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const conditions: RawBuilder<boolean>[] = [];
  if (filters.status) conditions.push(sql<boolean>`${column('status')} = ANY(${parseStatuses(filters.status, recordingStatuses)}::text[])`);
  if (filters.pipeline_status) conditions.push(pipelineIn(alias, parseStatuses(filters.pipeline_status, pipelineStatuses, 'pipeline_status')));
  if (filters.created_after !== undefined) conditions.push(sql<boolean>`${column('created_at')} > ${parseDate('created_after', filters.created_after)}`);
  if (filters.created_before !== undefined) conditions.push(sql<boolean>`${column('created_at')} < ${parseDate('created_before', filters.created_before)}`);
  if (filters.recorded_after !== undefined) conditions.push(sql<boolean>`${column('recorded_at')} > ${parseDate('recorded_after', filters.recorded_after)}`);
  if (filters.recorded_before !== undefined) conditions.push(sql<boolean>`${column('recorded_at')} < ${parseDate('recorded_before', filters.recorded_before)}`);
  if (filters.category !== undefined) {
    const ids = filters.category.split(',').map((id) => id.trim());
    if (ids.length === 0 || ids.length > 20 || ids.some((id) => !/^cat-[0-9a-f-]{36}$/.test(id))) throw invalid('category', 'must be up to 20 category ids (cat-…), comma-separated');
    conditions.push(sql<boolean>`EXISTS (SELECT 1 FROM recording_categories rc WHERE rc.recording_id = ${column('id')} AND rc.category_id = ANY(${ids}::text[]))`);
  }
  if (filters.sentiment_speaker !== undefined && filters.sentiment_min === undefined && filters.sentiment_max === undefined) throw invalid('sentiment_speaker', 'needs sentiment_min or sentiment_max');
  if (filters.sentiment_min !== undefined || filters.sentiment_max !== undefined) {
    const bound = (name: string, value: number | undefined, otherwise: number) => {
      if (value === undefined) return otherwise;
      if (!Number.isFinite(value) || value < -1 || value > 1) throw invalid(name, 'must be a number from -1 to 1');
      return value;
    };
    const min = bound('sentiment_min', filters.sentiment_min, -1);
    const max = bound('sentiment_max', filters.sentiment_max, 1);
    if (min > max) throw invalid('sentiment_min', 'must not be above sentiment_max');
    // A speaker in any case ("Customer" is the transcript's "customer"), as questions and categories read one.
    const speaker = filters.sentiment_speaker?.toLowerCase() ?? null;
    conditions.push(sql<boolean>`EXISTS (
      SELECT 1 FROM transcripts st, jsonb_array_elements(st.sentiment->'speakers') ss
      WHERE st.id = ${latestTranscriptId(column('id'))}
        AND (${speaker}::text IS NULL OR lower(ss->>'speaker') = ${speaker}::text)
        AND (ss->>'mean')::float8 BETWEEN ${min}::float8 AND ${max}::float8)`);
  }
  if (filters.topic !== undefined) {
    const words = filters.topic.trim().toLowerCase().split(/\s+/);
    if (filters.topic.length > 100 || words.some((word) => !/^[\p{L}\p{N}][\p{L}\p{N}'-]*$/u.test(word))) throw invalid('topic', 'must be words (letters, digits, apostrophes, hyphens), up to 100 characters');
    // Letters, digits, ' and - mean themselves in a regular expression; \m and \M are word bounds.
    const pattern = `\\m${words.join('\\s+')}\\M`;
    conditions.push(sql<boolean>`EXISTS (
      SELECT 1 FROM transcripts tt, jsonb_array_elements(tt.key_phrases) kp
      WHERE tt.id = ${latestTranscriptId(column('id'))}
        AND kp->>'text' ~* ${pattern})`);
  }
  if (filters.missing_speaker !== undefined) {
    const speaker = filters.missing_speaker.trim().toLowerCase();
    if (speaker === '' || speaker.length > 64) throw invalid('missing_speaker', 'must be a speaker\'s name, up to 64 characters');
    conditions.push(sql<boolean>`EXISTS (
      SELECT 1 FROM transcripts mt
      WHERE mt.id = ${latestTranscriptId(column('id'))}
        AND jsonb_array_length(coalesce(mt.stats->'speakers', '[]'::jsonb)) >= 2
        AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(mt.stats->'speakers') ms WHERE lower(ms->>'speaker') = ${speaker}::text))`);
  }
  if (filters.corrected !== undefined) {
    const corrected = sql<boolean>`EXISTS (SELECT 1 FROM transcripts ct WHERE ct.id = ${latestTranscriptId(column('id'))} AND ct.version > 1)`;
    conditions.push(filters.corrected === 'true' ? corrected : sql<boolean>`NOT ${corrected}`);
  }
  for (const [path, values] of Object.entries(filters.metadata)) {
    if (!/^[^.]+(\.[^.]+)*$/.test(path) || path.length > 200) throw invalid(`metadata.${path}`, 'is not a valid field path');
    // `a.b` is the field b inside a, or a field whose own name is "a.b" (metadata is kept as sent).
    const probes = values.flatMap(candidateValues).flatMap((value) => [containment(path, value), ...(path.includes('.') ? [JSON.stringify({ [path]: value })] : [])]);
    const alternatives = probes.map((probe) => sql<boolean>`${column('metadata')} @> ${probe}::jsonb`);
    conditions.push(sql<boolean>`(${sql.join(alternatives, sql` OR `)})`);
  }
  return conditions;
}

/**
 * Whether the filters read what the calls say (their topics, their speakers' sentiment, whom the
 * transcript names): a route that takes them asks for `transcripts:read` too, so a key meant to
 * count or list calls does not learn their content through a filter.
 */
export function readsWhatCallsSay(filters: RecordingFilters): boolean {
  return filters.topic !== undefined || filters.sentiment_min !== undefined || filters.sentiment_max !== undefined || filters.missing_speaker !== undefined;
}

/** The scope refusal's words for such a filter. */
export const CONTENT_FILTER_NEEDS = 'to filter by topic, sentiment or speaker';

/** The recording filters of a query string, as the list, the reports and the answer table read them. */
export function recordingFiltersOf(query: Record<string, unknown>): RecordingFilters {
  return {
    status: query.status as string | undefined,
    pipeline_status: query.pipeline_status as string | undefined,
    created_after: query.created_after as string | undefined,
    created_before: query.created_before as string | undefined,
    recorded_after: query.recorded_after as string | undefined,
    recorded_before: query.recorded_before as string | undefined,
    category: query.category as string | undefined,
    sentiment_min: query.sentiment_min === undefined ? undefined : Number(query.sentiment_min),
    sentiment_max: query.sentiment_max === undefined ? undefined : Number(query.sentiment_max),
    sentiment_speaker: query.sentiment_speaker as string | undefined,
    topic: query.topic as string | undefined,
    missing_speaker: query.missing_speaker as string | undefined,
    corrected: query.corrected as string | undefined,
    metadata: metadataFilters(query),
  };
}
