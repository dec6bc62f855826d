-- Invitations by link: an owner invites an e-mail address with a role; whoever opens the link
-- joins with that address (creating the account if there is none). The token is stored hashed.
CREATE TABLE invitations (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'member', 'viewer')),
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz
);
CREATE INDEX invitations_workspace ON invitations (workspace_id, created_at);
