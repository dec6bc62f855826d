-- A reviewer's corrections make a new version of a transcript; the previous one is kept. The
-- run then points at its newest version (what reading, analysis and exports use), and search
-- reads only current versions.
ALTER TABLE transcripts ADD COLUMN version int NOT NULL DEFAULT 1;
ALTER TABLE transcripts ADD COLUMN previous_transcript_id text;
ALTER TABLE transcripts ADD COLUMN current boolean NOT NULL DEFAULT true;
ALTER TABLE transcripts ADD COLUMN corrected_by text;
-- A run has one transcript per version (it had exactly one).
ALTER TABLE transcripts DROP CONSTRAINT transcripts_transcription_run_id_key;
CREATE UNIQUE INDEX transcripts_run_version ON transcripts (transcription_run_id, version);
