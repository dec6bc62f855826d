CREATE TABLE transcription_scenarios (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL,
  engine text NOT NULL,
  model text NOT NULL,
  language text NOT NULL,
  options jsonb NOT NULL,
  auto boolean NOT NULL DEFAULT false,
  retry jsonb NOT NULL,
  selection jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transcription_scenarios_workspace ON transcription_scenarios (workspace_id, created_at);
CREATE UNIQUE INDEX transcription_scenarios_one_auto ON transcription_scenarios (workspace_id) WHERE auto;

CREATE TABLE analysis_scenarios (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL,
  engine text NOT NULL,
  model text NOT NULL,
  instructions text NOT NULL,
  questions jsonb NOT NULL,
  summary boolean NOT NULL,
  auto boolean NOT NULL DEFAULT false,
  retry jsonb NOT NULL,
  selection jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX analysis_scenarios_workspace ON analysis_scenarios (workspace_id, created_at);
CREATE UNIQUE INDEX analysis_scenarios_one_auto ON analysis_scenarios (workspace_id) WHERE auto;
