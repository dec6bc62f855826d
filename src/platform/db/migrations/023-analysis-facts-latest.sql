-- Reports count calls, not runs: a scenario run again over the same recordings (a re-run, a
-- retry) replaces that recording's answers in the report instead of adding to them. Each
-- recording's latest completed result per scenario is flagged; reports read only those.
ALTER TABLE analysis_facts ADD COLUMN latest boolean NOT NULL DEFAULT false;
UPDATE analysis_facts f SET latest = true
FROM (
  SELECT DISTINCT ON (recording_id, analysis_scenario_id) analysis_run_id
  FROM analysis_results
  ORDER BY recording_id, analysis_scenario_id, created_at DESC, analysis_run_id DESC
) newest
WHERE f.analysis_run_id = newest.analysis_run_id;
CREATE INDEX analysis_facts_latest ON analysis_facts (workspace_id, analysis_scenario_id) WHERE latest;
