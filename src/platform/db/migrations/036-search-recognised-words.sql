-- Search finds the words as they were recognised as well as the text as it is shown: a transcript
-- formatted "$40" is found by "forty dollars". The stored vector is the text's and the recognised
-- words' (redaction and corrections change both, so neither keeps what they took out).
DROP INDEX IF EXISTS transcripts_search;
ALTER TABLE transcripts DROP COLUMN search_vector;
ALTER TABLE transcripts ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  to_tsvector('english', text) || to_tsvector('english', jsonb_path_query_array(words, '$[*].word')::text)
) STORED;
CREATE INDEX transcripts_search ON transcripts USING gin (search_vector);
