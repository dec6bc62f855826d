-- Call categories: a workspace's rules over what was said (phrases, by whom, when), talk statistics
-- and sentiment, evaluated on each new transcript; the categories a recording's latest transcript
-- meets are kept per recording, to filter the list and to group reports by.
CREATE TABLE categories (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL,
  rule jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX categories_workspace ON categories (workspace_id, created_at);

CREATE TABLE recording_categories (
  recording_id text NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
  category_id text NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  transcript_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (recording_id, category_id)
);
CREATE INDEX recording_categories_category ON recording_categories (category_id);
