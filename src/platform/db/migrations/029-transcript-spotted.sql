-- Phrases found in the audio by keyword spotting (a transcription scenario's `spot`): phrase,
-- times, channel, speaker and confidence. Null for transcripts of scenarios that spot nothing.
ALTER TABLE transcripts ADD COLUMN spotted jsonb;
