// Where a call stands in the pipeline, for people: audio being prepared, audio ready, being
// transcribed, transcribed, being analysed, analysed, or failed with the reason. Derived in SQL
// from the recording and its latest runs (nothing stored that could drift), so the list, its
// filter and the card say the same. The specification's recording `status` stays as it is.
import { sql, type RawBuilder } from 'kysely';
import type { Pipeline } from './pipeline-card.ts';
import type { Db } from '../../platform/db/database.ts';
import { batchedById } from '../../platform/db/rows-by-id.ts';
import { failedRecordingStatuses } from '../../platform/db/tables.ts';
import type { Recording } from './recording-store.ts';

export { pipelineStatuses, type Pipeline, type PipelineStatus } from './pipeline-card.ts';

/**
 * The pipeline of the recording under `alias`, as a JSON object: its latest transcription run
 * counts, and, once that transcription completed, the latest analysis run of the recording's
 * latest transcript (a call transcribed again, or corrected, is "transcribed" until it is analysed
 * again). A cancelled run counts as none: the call stands where the run before it left it.
 */
export function pipelineSql(alias: string): RawBuilder<Pipeline> {
  const rec = (column: string) => sql.ref(`${alias}.${column}`);
  const failed = sql`${rec('status')} = ANY(${[...failedRecordingStatuses]}::text[])`;
  return sql<Pipeline>`(
    SELECT jsonb_build_object('status', p.status, 'error_code', p.error_code, 'error_message', p.error_message,
      'waiting', (p.status = 'transcribing' AND p.t_status = 'queued') OR (p.status = 'analysing' AND p.a_status = 'queued'))
    FROM (
      SELECT
        CASE
          WHEN ${failed} THEN 'failed'
          WHEN ${rec('status')} <> 'completed' THEN 'preparing'
          WHEN t.status IS NULL THEN 'audio_ready'
          WHEN t.status IN ('queued', 'running') THEN 'transcribing'
          WHEN t.status = 'failed' THEN 'failed'
          WHEN a.status IS NULL THEN 'transcribed'
          WHEN a.status IN ('queued', 'running') THEN 'analysing'
          WHEN a.status = 'failed' THEN 'failed'
          ELSE 'analysed'
        END AS status,
        CASE
          WHEN ${failed} THEN ${rec('error_code')}
          WHEN ${rec('status')} = 'completed' AND t.status = 'failed' THEN t.error_code
          WHEN ${rec('status')} = 'completed' AND t.status = 'completed' AND a.status = 'failed' THEN a.error_code
        END AS error_code,
        CASE
          WHEN ${failed} THEN ${rec('error_message')}
          WHEN ${rec('status')} = 'completed' AND t.status = 'failed' THEN t.error_message
          WHEN ${rec('status')} = 'completed' AND t.status = 'completed' AND a.status = 'failed' THEN a.error_message
        END AS error_message,
        t.status AS t_status,
        a.status AS a_status
      FROM (SELECT 1) AS one
      LEFT JOIN LATERAL (SELECT status, error_code, error_message FROM transcription_runs WHERE recording_id = ${rec('id')} AND status <> 'cancelled' ORDER BY seq DESC LIMIT 1) AS t ON true
      -- An analysis of an earlier transcript (the call transcribed again, or corrected) is out of date: none counts but those of the latest.
      LEFT JOIN LATERAL (SELECT status, error_code, error_message FROM analysis_runs WHERE recording_id = ${rec('id')} AND status <> 'cancelled'
        AND (transcript_id IS NULL OR transcript_id = (SELECT id FROM transcripts WHERE recording_id = ${rec('id')} ORDER BY seq DESC LIMIT 1))
        ORDER BY seq DESC LIMIT 1) AS a ON true
    ) AS p
  )`;
}

/** The condition of a `pipeline_status` filter on the recording under `alias`. */
export const pipelineIn = (alias: string, statuses: readonly string[]): RawBuilder<boolean> => sql<boolean>`(${pipelineSql(alias)} ->> 'status') = ANY(${[...statuses]}::text[])`;

/** The pipeline of each recording of `ids` (one query). */
export async function pipelinesOf(db: Db, ids: readonly string[]): Promise<Map<string, Pipeline>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: string; pipeline: Pipeline }>`SELECT rec.id, ${pipelineSql('rec')} AS pipeline FROM recordings rec WHERE rec.id = ANY(${[...ids]}::text[])`.execute(db);
  return new Map(rows.map((row) => [row.id, row.pipeline]));
}

/**
 * A recording of the workspace with its pipeline, for its card: one batched query for the reads
 * that arrive together, as rows by id are (rows-by-id.ts). The pipeline read by a second,
 * unbatched query per card had cut card reads to a fifth under load (bench/scale.ts).
 */
export async function recordingWithPipeline(db: Db, workspaceId: string, id: string): Promise<(Recording & { pipeline_now: Pipeline }) | undefined> {
  return batchedById(db, 'recording-card', workspaceId, id, async (ids, workspaceIds) => {
    // (`pipeline_now`: the recordings table has a column of its own named pipeline.)
    const { rows } = await sql<Recording & { pipeline_now: Pipeline }>`
      SELECT rec.*, ${pipelineSql('rec')} AS pipeline_now FROM recordings rec
      WHERE rec.id = ANY(${ids}::text[]) AND rec.workspace_id = ANY(${workspaceIds}::text[])`.execute(db);
    return rows;
  });
}
