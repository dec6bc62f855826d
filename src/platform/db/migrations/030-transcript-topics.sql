-- What a call is about: its key phrases (ranked, with the segments that say them) and its chapters
-- (where the subject changes, each titled). Null for transcripts stored before them: key phrases
-- are then found on read, and the call is one chapter.
ALTER TABLE transcripts ADD COLUMN key_phrases jsonb;
ALTER TABLE transcripts ADD COLUMN chapters jsonb;
