-- Full-text search over transcripts (GET P/search): an index on the English text search vector of
-- each transcript's text, which the search's WHERE clause repeats exactly.
CREATE INDEX transcripts_search ON transcripts USING gin (to_tsvector('english', text));
