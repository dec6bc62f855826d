-- A failed run is retried once: the retry of a run is looked up by it when a retry is asked for.
CREATE INDEX transcription_runs_retry_of ON transcription_runs (retry_of) WHERE retry_of IS NOT NULL;
CREATE INDEX analysis_runs_retry_of ON analysis_runs (retry_of) WHERE retry_of IS NOT NULL;
