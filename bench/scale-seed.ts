// Seeds a workspace of the scale bench: one recording transcribed and analysed for real by a Hark
// process (so every row has the shape Hark writes), then cloned with generate_series into N
// recordings with varied metadata (agent, team, queue) spread over a year, N transcription runs
// and transcripts, N analysis runs and results with varied answers.
import type pg from 'pg';

export interface Template {
  workspaceId: string;
  recordingId: string;
  transcriptionRunId: string;
  analysisRunId: string;
}

const CHUNK = 100_000;

function bar(label: string, done: number, total: number, started: number): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(`\r  ${label.padEnd(22)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done.toLocaleString('en')}/${total.toLocaleString('en')} ${seconds.toFixed(0)} s `);
  if (done >= total) process.stderr.write('\n');
}

/** Runs `statement` for g in [from, to) chunk by chunk ($1, $2 are a chunk's bounds), with a progress bar. */
async function chunked(db: pg.Client, label: string, total: number, statement: string, values: unknown[]): Promise<void> {
  const started = performance.now();
  for (let from = 1; from <= total; from += CHUNK) {
    const to = Math.min(total + 1, from + CHUNK);
    await db.query(statement, [from, to, ...values]);
    bar(label, to - 1, total, started);
  }
}

export async function seed(db: pg.Client, template: Template, total: number): Promise<void> {
  const { recordingId, transcriptionRunId, analysisRunId } = template;
  // The clones keep their generation number in a temporary map, to link runs, transcripts and
  // results to their recording without a join on text.
  await db.query('CREATE TEMP TABLE seed_map (g int PRIMARY KEY, recording_id text, transcription_run_id text, transcript_id text, analysis_run_id text)');
  // Ids as Hark makes them: version 7 UUIDs of the row's creation time (src/ids.ts).
  await db.query(`CREATE FUNCTION pg_temp.uuid_v7(at timestamptz) RETURNS text LANGUAGE sql AS $$
    SELECT regexp_replace(lpad(to_hex((extract(epoch FROM at) * 1000)::bigint), 12, '0') || '7' || substr(h, 1, 3)
      || substr('89ab', 1 + floor(random() * 4)::int, 1) || substr(h, 4, 15), '^(.{8})(.{4})(.{4})(.{4})(.{12})$', '\\1-\\2-\\3-\\4-\\5')
    FROM (SELECT md5(random()::text) AS h) r $$`);
  await chunked(
    db,
    'ids',
    total,
    `INSERT INTO seed_map SELECT g, 'fl-' || pg_temp.uuid_v7(at), 'trn-' || pg_temp.uuid_v7(at), pg_temp.uuid_v7(at), 'anl-' || pg_temp.uuid_v7(at)
     FROM generate_series($1::int, $2::int - 1) g, LATERAL (SELECT now() - ($3::int - g) * interval '31 seconds' AS at) t`,
    [total],
  );
  // Oldest first, so that seq grows with created_at as it does in real use; one a ~31 s over a year.
  await chunked(
    db,
    'recordings',
    total,
    `INSERT INTO recordings (id, workspace_id, status, filename, content_type, size_bytes, duration_seconds, metadata, metadata_json,
       retention_days, expires_at, source, created_at, updated_at, recorded_at)
     SELECT m.recording_id, t.workspace_id, CASE WHEN m.g % 50 = 0 THEN 'failed' ELSE 'completed' END, 'call-' || m.g || '.wav', t.content_type,
       t.size_bytes, 60 + (m.g::bigint * 7919 % 600), md.metadata, md.metadata::text, 30, now() + interval '30 days', 'upload',
       now() - ($3::int - m.g) * interval '31 seconds', now() - ($3::int - m.g) * interval '31 seconds', now() - ($3::int - m.g) * interval '31 seconds'
     FROM seed_map m
     CROSS JOIN (SELECT * FROM recordings WHERE id = $4) t
     CROSS JOIN LATERAL (SELECT jsonb_build_object('agent', 'agent-' || (m.g * 31 % 200), 'team', 'team-' || (m.g * 17 % 12),
       'queue', (ARRAY['sales', 'support', 'billing', 'retention'])[1 + m.g % 4], 'customer_id', 'c' || (m.g::bigint * 104729 % 500000)) AS metadata) md
     WHERE m.g >= $1 AND m.g < $2`,
    [total, recordingId],
  );
  await chunked(
    db,
    'transcription runs',
    total,
    `INSERT INTO transcription_runs (id, workspace_id, recording_id, transcription_scenario_id, transcript_id, status, attempts, engine, model,
       scenario, progress, created_at, started_at, completed_at, updated_at, worker)
     SELECT m.transcription_run_id, t.workspace_id, m.recording_id, t.transcription_scenario_id, m.transcript_id, 'completed', 1, t.engine, t.model,
       t.scenario, 1, r.created_at, r.created_at, r.created_at + interval '20 seconds', r.created_at + interval '20 seconds', t.worker
     FROM seed_map m JOIN recordings r ON r.id = m.recording_id CROSS JOIN (SELECT * FROM transcription_runs WHERE id = $3) t
     WHERE m.g >= $1 AND m.g < $2`,
    [transcriptionRunId],
  );
  await chunked(
    db,
    'transcripts',
    total,
    `INSERT INTO transcripts (id, workspace_id, transcription_run_id, recording_id, language, duration_seconds, text, segments, words, summary, created_at)
     SELECT m.transcript_id, t.workspace_id, m.transcription_run_id, m.recording_id, t.language, r.duration_seconds, t.text, t.segments, t.words, t.summary,
       r.created_at + interval '20 seconds'
     FROM seed_map m JOIN recordings r ON r.id = m.recording_id
     CROSS JOIN (SELECT * FROM transcripts WHERE transcription_run_id = $3) t
     WHERE m.g >= $1 AND m.g < $2`,
    [transcriptionRunId],
  );
  await chunked(
    db,
    'analysis runs',
    total,
    `INSERT INTO analysis_runs (id, workspace_id, recording_id, analysis_scenario_id, transcript_id, transcription_run_id, status, attempts, engine,
       model, scenario, progress, created_at, started_at, completed_at, updated_at, worker)
     SELECT m.analysis_run_id, t.workspace_id, m.recording_id, t.analysis_scenario_id, m.transcript_id, m.transcription_run_id, 'completed', 1,
       t.engine, t.model, t.scenario, 1, r.created_at + interval '21 seconds', r.created_at + interval '21 seconds',
       r.created_at + interval '22 seconds', r.created_at + interval '22 seconds', t.worker
     FROM seed_map m JOIN recordings r ON r.id = m.recording_id CROSS JOIN (SELECT * FROM analysis_runs WHERE id = $3) t
     WHERE m.g >= $1 AND m.g < $2`,
    [analysisRunId],
  );
  // Boolean answers vary per call (about 60 % true, by agent), text answers are kept.
  await chunked(
    db,
    'analysis results',
    total,
    `INSERT INTO analysis_results (analysis_run_id, workspace_id, recording_id, transcript_id, transcription_run_id, analysis_scenario_id, engine,
       model, summary, answers, tokens_used, created_at)
     SELECT m.analysis_run_id, t.workspace_id, m.recording_id, m.transcript_id, m.transcription_run_id, t.analysis_scenario_id, t.engine, t.model,
       t.summary,
       (SELECT jsonb_agg(CASE WHEN a->>'type' = 'boolean' THEN jsonb_set(a, '{answer}', to_jsonb((m.g * 7 + (m.g * 31 % 200)) % 10 < 6)) ELSE a END ORDER BY i)
          FROM jsonb_array_elements(t.answers) WITH ORDINALITY AS e(a, i)),
       t.tokens_used, r.created_at + interval '22 seconds'
     FROM seed_map m JOIN recordings r ON r.id = m.recording_id CROSS JOIN (SELECT * FROM analysis_results WHERE analysis_run_id = $3) t
     WHERE m.g >= $1 AND m.g < $2`,
    [analysisRunId],
  );
  await chunked(
    db,
    'analysis facts',
    total,
    // As the service writes them: each recording's one result is its latest (migrations 023, 024, 037).
    `INSERT INTO analysis_facts (analysis_run_id, workspace_id, analysis_scenario_id, recording_id, created_at, recorded_at, metadata, booleans, uncertain, latest)
     SELECT res.analysis_run_id, res.workspace_id, res.analysis_scenario_id, res.recording_id, r.created_at, r.recorded_at, r.metadata,
       coalesce((SELECT jsonb_object_agg(a->>'question_id', a->'answer') FROM jsonb_array_elements(res.answers) a
                 WHERE a->>'type' = 'boolean' AND jsonb_typeof(a->'answer') = 'boolean'), '{}'::jsonb),
       coalesce((SELECT jsonb_object_agg(a->>'question_id', true) FROM jsonb_array_elements(res.answers) a
                 WHERE a->>'type' = 'boolean' AND jsonb_typeof(a->'answer') = 'boolean' AND (a->>'confidence')::float8 < 0.6), '{}'::jsonb),
       true
     FROM seed_map m JOIN analysis_results res ON res.analysis_run_id = m.analysis_run_id JOIN recordings r ON r.id = m.recording_id
     WHERE m.g >= $1 AND m.g < $2`,
    [],
  );
  await db.query('DROP TABLE seed_map');
  process.stderr.write('  vacuum analyze…\n');
  for (const table of ['recordings', 'transcription_runs', 'transcripts', 'analysis_runs', 'analysis_results', 'analysis_facts']) await db.query(`VACUUM ANALYZE ${table}`);
}
