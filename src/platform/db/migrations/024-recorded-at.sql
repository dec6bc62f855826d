-- When a call took place, apart from when it was uploaded: a backlog of last month's calls
-- uploaded today belongs to last month's report. Given by the client, else read from the file's
-- container (its creation time) when prepared, else the upload time. Reports' recorded_at
-- periods read whole-number columns of the facts, as created_at's do (migration 021).
ALTER TABLE recordings ADD COLUMN recorded_at timestamptz;
UPDATE recordings SET recorded_at = created_at;
ALTER TABLE recordings ALTER COLUMN recorded_at SET NOT NULL, ALTER COLUMN recorded_at SET DEFAULT now();
-- 'client' (given), 'file' (the container's creation time) or 'upload' (none known).
ALTER TABLE recordings ADD COLUMN recorded_at_source text NOT NULL DEFAULT 'upload';
CREATE INDEX recordings_workspace_recorded ON recordings (workspace_id, recorded_at);

ALTER TABLE analysis_facts ADD COLUMN recorded_at timestamptz;
UPDATE analysis_facts f SET recorded_at = r.recorded_at FROM recordings r WHERE r.id = f.recording_id;
UPDATE analysis_facts SET recorded_at = created_at WHERE recorded_at IS NULL;
ALTER TABLE analysis_facts ALTER COLUMN recorded_at SET NOT NULL;
ALTER TABLE analysis_facts
  ADD COLUMN recorded_day int GENERATED ALWAYS AS (floor(date_part('epoch', recorded_at AT TIME ZONE 'UTC') / 86400)::int) STORED,
  ADD COLUMN recorded_week int GENERATED ALWAYS AS (floor((date_part('epoch', recorded_at AT TIME ZONE 'UTC') + 259200) / 604800)::int) STORED,
  ADD COLUMN recorded_month int GENERATED ALWAYS AS ((date_part('year', recorded_at AT TIME ZONE 'UTC') * 12 + date_part('month', recorded_at AT TIME ZONE 'UTC') - 1)::int) STORED;
