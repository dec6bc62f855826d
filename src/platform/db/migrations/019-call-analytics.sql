-- Call analytics: how many channels a recording's audio has (per-channel transcription), the talk
-- statistics of each transcript (reports aggregate them), and the redaction of a recording's audio.
ALTER TABLE recordings ADD COLUMN channels integer;
ALTER TABLE recordings ADD COLUMN audio_redacted_at timestamptz;
ALTER TABLE recordings ADD COLUMN original_audio_deleted_at timestamptz;
ALTER TABLE transcripts ADD COLUMN stats jsonb;
