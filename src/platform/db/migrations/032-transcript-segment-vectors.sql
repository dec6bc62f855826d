-- What each segment of a transcript means, as a sentence embedding (512 numbers, kept as bytes of
-- one scale and 512 signed bytes each, base64): made the first time a rule needs it (a call
-- category's `similar_to`), then read. Null until then.
ALTER TABLE transcripts ADD COLUMN segment_vectors text;
