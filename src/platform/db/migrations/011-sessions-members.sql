-- People in workspaces: an account belongs to any number of workspaces with a role (owner,
-- member, viewer); the workspace it registered with stays its home. Browser sessions are stored
-- by the SHA-256 of their token.
CREATE TABLE memberships (
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'member', 'viewer')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, account_id)
);
CREATE INDEX memberships_account ON memberships (account_id);
INSERT INTO memberships (workspace_id, account_id, role, created_at)
  SELECT workspace_id, id, 'owner', created_at FROM accounts;

CREATE TABLE sessions (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);

ALTER TABLE workspaces ADD COLUMN default_retention_days integer;
