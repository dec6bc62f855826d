-- Every execution of a workspace, newest first (P/executions), without reading each scenario's.
CREATE INDEX executions_workspace ON executions (workspace_id, seq DESC);
