CREATE TABLE recordings (
  id text PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  status text NOT NULL,
  filename text NOT NULL,
  content_type text,
  size_bytes bigint,
  duration_seconds double precision,
  metadata jsonb NOT NULL DEFAULT '{}',
  metadata_json text NOT NULL DEFAULT '{}',
  retention_days integer NOT NULL,
  expires_at timestamptz NOT NULL,
  audio_deleted_at timestamptz,
  source text NOT NULL,
  source_url text,
  download_attempts integer NOT NULL DEFAULT 0,
  error_code text,
  error_message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recordings_workspace_seq ON recordings (workspace_id, seq DESC);
CREATE INDEX recordings_metadata ON recordings USING gin (metadata jsonb_path_ops);
CREATE INDEX recordings_expiry ON recordings (expires_at) WHERE audio_deleted_at IS NULL;
