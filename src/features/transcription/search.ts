// Search across a workspace's transcripts: PostgreSQL full-text search (English stemming, words,
// "exact phrases", or, -excluded, as websearch_to_tsquery reads them) over each transcript's text
// and its words as recognised (a formatted "$40" is found by "forty dollars"), stored with each transcript and indexed with GIN (migration 018), over each recording's latest
// transcript, then the first segment of each matching transcript that
// matches by itself, with its times and the match marked in a snippet, and how many segments
// match. Newest transcripts first.
import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import { invalid } from '../../errors.ts';
import { decodeCursor, encodeCursor } from '../../core/cursor.ts';
import { recordingConditions, type RecordingFilters } from '../../core/recordings/recording-filters.ts';

export interface SearchQuery extends RecordingFilters {
  q: string;
  speaker?: string | undefined;
  limit: number;
  offset?: number | undefined;
  cursor?: string | undefined;
}

export interface SearchHit {
  recording_id: string;
  transcript_id: string;
  start: number;
  end: number;
  /** Where the match is said: its first word's start, else the segment's. */
  at: number;
  speaker: string | null;
  snippet: string;
  /** How many segments of the transcript match; the hit is the first. */
  matches: number;
  /** The call the hit is in, to tell hits apart without opening them. */
  recording: { filename: string; recorded_at: Date; metadata: Record<string, unknown> };
}

const MARK_START = '<mark>';
const MARK_END = '</mark>';

export async function searchTranscripts(ctx: Context, workspaceId: string, query: SearchQuery): Promise<{ data: SearchHit[]; next_cursor: string | null }> {
  const q = query.q.trim();
  if (!q) throw invalid('q', 'must contain a word to search for');
  const conditions = recordingConditions(query, 'rec');
  const tsquery = sql`websearch_to_tsquery('english', ${q})`;
  const speakerIs = query.speaker === undefined ? sql`` : sql`AND segment->>'speaker' = ${query.speaker}`;
  // The per-transcript subqueries make the planner's cost estimate huge (about 150 million for a
  // page of 20) though the page is read in 2 ms: past jit_above_cost, PostgreSQL compiled the query
  // to machine code first, 50 ms of every search (bench/scale.ts). Off, in the query's transaction.
  const rows = await ctx.db.transaction().execute(async (trx) => {
    await sql`SET LOCAL jit = off`.execute(trx);
    const { rows } = await sql<{ seq: number; transcript_id: string; recording_id: string; start: number; end: number; at: number | null; matches: number; speaker: string | null; snippet: string; filename: string; recorded_at: Date; metadata_json: string }>`
    SELECT t.seq, t.id AS transcript_id, t.recording_id, (s.segment->>'start')::float8 AS start, (s.segment->>'end')::float8 AS "end",
      -- The first word of the segment (its channel, its time span) that matches a search word.
      (SELECT (w->>'start')::float8 FROM jsonb_array_elements(t.words) AS x(w)
        WHERE coalesce((w->>'channel')::int, 0) = coalesce((s.segment->>'channel')::int, 0)
          AND (w->>'start')::float8 >= (s.segment->>'start')::float8 - 0.01 AND (w->>'start')::float8 < (s.segment->>'end')::float8
          AND to_tsvector('english', w->>'word') @@ ${tsquery}
        ORDER BY (w->>'start')::float8 LIMIT 1) AS at,
      -- How many segments match by their text (the hit shows the first). Counted here, for the
      -- page's rows only, not in the lateral below: that one runs for every transcript the scan
      -- reads (a filter may drop many) and stops at the first matching segment.
      (SELECT count(*) FROM jsonb_array_elements(t.segments) AS e(segment)
        WHERE to_tsvector('english', segment->>'text') @@ ${tsquery} ${speakerIs})::int AS matches,
      rec.filename, rec.recorded_at, rec.metadata_json,
      s.segment->>'speaker' AS speaker,
      ts_headline('english', s.segment->>'text', ${tsquery}, ${`StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=20, MinWords=6, MaxFragments=1`}) AS snippet
    FROM transcripts t
    JOIN recordings rec ON rec.id = t.recording_id
    CROSS JOIN LATERAL (
      -- The first segment whose text matches; only where none does (COALESCE reads its second
      -- argument only then), the first whose words as recognised match ("forty dollars", shown "$40").
      SELECT coalesce(
        (SELECT segment FROM jsonb_array_elements(t.segments) AS e(segment)
          WHERE to_tsvector('english', segment->>'text') @@ ${tsquery} ${speakerIs}
          LIMIT 1),
        (SELECT segment FROM jsonb_array_elements(t.segments) AS e(segment)
          WHERE to_tsvector('english', coalesce((SELECT string_agg(w->>'word', ' ' ORDER BY (w->>'start')::float8) FROM jsonb_array_elements(t.words) AS x(w)
            WHERE coalesce((w->>'channel')::int, 0) = coalesce((segment->>'channel')::int, 0)
              AND (w->>'start')::float8 >= (segment->>'start')::float8 - 0.01 AND (w->>'start')::float8 < (segment->>'end')::float8), '')) @@ ${tsquery} ${speakerIs}
          LIMIT 1)
      ) AS segment
    ) s
    WHERE s.segment IS NOT NULL AND t.workspace_id = ${workspaceId}
      -- Each recording's latest transcript only (what the recording answers with): a call
      -- transcribed again, or corrected, is not found by the words it no longer has. Written as
      -- "no newer one" (an anti-join), the plan walks the transcripts newest first and stops at
      -- the page's end; as "= the latest one's id" it sorted every match (0.4 s over 100,000).
      AND NOT EXISTS (SELECT 1 FROM transcripts newer WHERE newer.recording_id = t.recording_id AND newer.seq > t.seq)
      AND t.search_vector @@ ${tsquery}
      ${conditions.length ? sql`AND ${sql.join(conditions, sql` AND `)}` : sql``}
      ${query.cursor ? sql`AND t.seq < ${decodeCursor(query.cursor, 'search')}` : sql``}
    ORDER BY t.seq DESC
    OFFSET ${query.offset ?? 0} LIMIT ${query.limit + 1}`.execute(trx);
    return rows;
  });
  const data = rows.slice(0, query.limit).map(({ seq: _, filename, recorded_at, metadata_json, ...hit }) => ({
    ...hit,
    start: Number(hit.start),
    end: Number(hit.end),
    at: hit.at === null ? Number(hit.start) : Number(hit.at),
    // A hit found only by the words as recognised ("forty dollars" shown "$40") is one place at least.
    matches: Math.max(1, Number(hit.matches)),
    recording: { filename, recorded_at, metadata: JSON.parse(metadata_json) as Record<string, unknown> },
  }));
  const last = rows.length > query.limit ? rows[query.limit - 1] : undefined;
  return { data, next_cursor: last ? encodeCursor(last.seq, 'search') : null };
}
