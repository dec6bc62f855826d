CREATE TABLE analysis_runs (
  id text PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  recording_id text NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
  analysis_scenario_id text NOT NULL,
  transcript_id text REFERENCES transcripts (id) ON DELETE SET NULL,
  transcription_run_id text,
  execution_id text REFERENCES executions (id) ON DELETE SET NULL,
  retry_of text,
  status text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  engine text NOT NULL,
  model text NOT NULL,
  scenario jsonb NOT NULL,
  error_code text,
  error_message text,
  retryable boolean,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX analysis_runs_workspace ON analysis_runs (workspace_id, seq DESC);
CREATE INDEX analysis_runs_recording ON analysis_runs (recording_id, seq DESC);
CREATE INDEX analysis_runs_execution ON analysis_runs (execution_id) WHERE execution_id IS NOT NULL;

CREATE TABLE analysis_results (
  analysis_run_id text PRIMARY KEY REFERENCES analysis_runs (id) ON DELETE CASCADE,
  seq bigserial NOT NULL UNIQUE,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  recording_id text NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
  transcript_id text NOT NULL,
  transcription_run_id text NOT NULL,
  analysis_scenario_id text NOT NULL,
  engine text NOT NULL,
  model text NOT NULL,
  summary text,
  answers jsonb NOT NULL,
  tokens_used integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX analysis_results_workspace ON analysis_results (workspace_id, seq DESC);
CREATE INDEX analysis_results_recording ON analysis_results (recording_id);
CREATE INDEX analysis_results_scenario ON analysis_results (analysis_scenario_id);
