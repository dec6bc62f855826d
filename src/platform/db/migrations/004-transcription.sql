CREATE TABLE executions (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  kind text NOT NULL,
  scenario_id text NOT NULL,
  idempotency_key text NOT NULL,
  request_hash text NOT NULL,
  recording_ids text[] NOT NULL,
  finished_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX executions_idempotency ON executions (workspace_id, kind, scenario_id, idempotency_key);

CREATE TABLE transcription_runs (
  id text PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  recording_id text NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
  transcription_scenario_id text NOT NULL,
  execution_id text REFERENCES executions (id) ON DELETE SET NULL,
  transcript_id text,
  retry_of text,
  status text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  engine text NOT NULL,
  model text NOT NULL,
  scenario jsonb NOT NULL,
  progress double precision NOT NULL DEFAULT 0,
  error_code text,
  error_message text,
  retryable boolean,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transcription_runs_workspace ON transcription_runs (workspace_id, seq DESC);
CREATE INDEX transcription_runs_recording ON transcription_runs (recording_id, seq DESC);
CREATE INDEX transcription_runs_execution ON transcription_runs (execution_id) WHERE execution_id IS NOT NULL;

CREATE TABLE transcripts (
  id text PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  transcription_run_id text NOT NULL UNIQUE REFERENCES transcription_runs (id) ON DELETE CASCADE,
  recording_id text NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
  language text NOT NULL,
  duration_seconds double precision,
  text text NOT NULL,
  segments jsonb NOT NULL,
  words jsonb NOT NULL,
  summary text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transcripts_recording ON transcripts (recording_id, seq DESC);
