-- Which process executes (or last executed) a run: host and pid, for operators of several worker
-- hosts; set when the run is claimed.
ALTER TABLE transcription_runs ADD COLUMN worker text;
ALTER TABLE analysis_runs ADD COLUMN worker text;
