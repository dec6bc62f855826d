// What a workspace can choose from: the engines of this server with their models (registered
// model files for the local ones), and the metadata fields its recordings carry, with their most
// frequent values (so filters and reports can suggest them).
import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import { analysisEngines } from '../../engines/analysis/registry.ts';
import { transcriptionEngines } from '../../engines/transcription/registry.ts';

export interface EngineInfo {
  kind: 'transcription' | 'analysis';
  engine: string;
  default_model: string;
  /** Models known to work here; an engine that takes any name (a remote server's) says so. */
  models: string[];
  any_model: boolean;
  languages: string[] | null;
  /** Transcription engines: it spots phrases in the audio (the scenario option `spot`). */
  spots?: boolean;
}

export async function listEngines(ctx: Context): Promise<EngineInfo[]> {
  const transcription = await Promise.all(
    Object.entries(transcriptionEngines).map(
      async ([engine, described]): Promise<EngineInfo> => ({
        kind: 'transcription',
        engine,
        default_model: described.defaultModel,
        models: await described.models(ctx.config),
        any_model: described.anyModel,
        languages: described.languages ? [...described.languages] : null,
        spots: described.spots,
      }),
    ),
  );
  const analysis = await Promise.all(
    Object.entries(analysisEngines).map(
      async ([engine, described]): Promise<EngineInfo> => ({ kind: 'analysis', engine, default_model: described.defaultModel, models: await described.models(ctx.config), any_model: described.anyModel, languages: null }),
    ),
  );
  return [...transcription, ...analysis];
}

export interface MetadataField {
  field: string;
  recordings: number;
  values: { value: string | number | boolean; recordings: number }[];
}

/** Fields of the newest recordings' metadata (a sample, so it stays fast on any number of them). */
const SAMPLE = 5000;
const TOP_VALUES = 10;

export async function metadataFields(ctx: Context, workspaceId: string): Promise<MetadataField[]> {
  const { rows } = await sql<{ field: string; value: unknown; kind: string; recordings: number }>`
    WITH recent AS (
      SELECT metadata FROM recordings WHERE workspace_id = ${workspaceId} ORDER BY seq DESC LIMIT ${SAMPLE}
    )
    SELECT e.key AS field, e.value, jsonb_typeof(e.value) AS kind, count(*)::int AS recordings
    FROM recent CROSS JOIN LATERAL jsonb_each(recent.metadata) e
    GROUP BY e.key, e.value
  `.execute(ctx.db);
  const fields = new Map<string, MetadataField>();
  for (const row of rows) {
    const field = fields.get(row.field) ?? { field: row.field, recordings: 0, values: [] };
    field.recordings += row.recordings;
    if (row.kind === 'string' || row.kind === 'number' || row.kind === 'boolean') field.values.push({ value: row.value as string | number | boolean, recordings: row.recordings });
    fields.set(row.field, field);
  }
  return [...fields.values()]
    .map((f) => ({ ...f, values: f.values.sort((a, b) => b.recordings - a.recordings || String(a.value).localeCompare(String(b.value))).slice(0, TOP_VALUES) }))
    .sort((a, b) => b.recordings - a.recordings || a.field.localeCompare(b.field));
}
