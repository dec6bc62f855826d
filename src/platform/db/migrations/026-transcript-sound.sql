-- Where each channel of the audio has sound (voice-activity.ts), measured when the transcript is
-- made: talk statistics count words only there, and a corrected version computes them again
-- from the same measurements (the audio may be gone by then). {"<channel>": [[start, end], …]}.
ALTER TABLE transcripts ADD COLUMN sound jsonb;
