-- Executions are listed newest first with a keyset cursor, like every other list.
ALTER TABLE executions ADD COLUMN seq bigserial;
CREATE INDEX executions_scenario ON executions (workspace_id, kind, scenario_id, seq DESC);
