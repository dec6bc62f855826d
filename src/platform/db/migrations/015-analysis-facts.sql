-- A narrow row per analysis result for reports: the recording's creation time and metadata (both
-- immutable) and the boolean answers as {"question_id": true|false}. A report over a million
-- results scans these instead of joining the wide results (answers with evidence) to recordings.
CREATE TABLE analysis_facts (
  analysis_run_id text PRIMARY KEY REFERENCES analysis_results (analysis_run_id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  analysis_scenario_id text NOT NULL,
  recording_id text NOT NULL,
  created_at timestamptz NOT NULL,
  metadata jsonb NOT NULL,
  booleans jsonb NOT NULL
);
CREATE INDEX analysis_facts_scenario ON analysis_facts (workspace_id, analysis_scenario_id);

INSERT INTO analysis_facts (analysis_run_id, workspace_id, analysis_scenario_id, recording_id, created_at, metadata, booleans)
SELECT res.analysis_run_id, res.workspace_id, res.analysis_scenario_id, res.recording_id, rec.created_at, rec.metadata,
  coalesce((SELECT jsonb_object_agg(a->>'question_id', a->'answer') FROM jsonb_array_elements(res.answers) a
            WHERE a->>'type' = 'boolean' AND jsonb_typeof(a->'answer') = 'boolean'), '{}'::jsonb)
FROM analysis_results res JOIN recordings rec ON rec.id = res.recording_id;
