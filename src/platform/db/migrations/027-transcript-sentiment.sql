-- Sentiment along a call (features/transcription/sentiment.ts), scored when the transcript is
-- stored: each segment's score and each speaker's mean and thirds. Null for transcripts stored
-- before it, which are scored when read.
ALTER TABLE transcripts ADD COLUMN sentiment jsonb;
