CREATE TABLE webhooks (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  events text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  secret text NOT NULL,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_workspace ON webhooks (workspace_id);

CREATE TABLE webhook_events (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  type text NOT NULL,
  payload text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  event_type text NOT NULL,
  attempt integer NOT NULL,
  status_code integer,
  success boolean NOT NULL,
  duration_ms integer NOT NULL,
  response_body text,
  error text,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, seq DESC);
