-- The search vector stored with each transcript: a search that walks transcripts newest first
-- (a common word) tests each row's vector instead of parsing its text again, and the GIN index
-- (a rare word) is on the column.
DROP INDEX IF EXISTS transcripts_search;
ALTER TABLE transcripts ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED;
CREATE INDEX transcripts_search ON transcripts USING gin (search_vector);
