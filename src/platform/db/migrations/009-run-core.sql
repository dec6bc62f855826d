-- One run core for both kinds: analysis runs report progress like transcription runs, and
-- analysis scenario options get their own column instead of living inside `selection`.
ALTER TABLE analysis_runs ADD COLUMN progress double precision NOT NULL DEFAULT 0;
ALTER TABLE analysis_scenarios ADD COLUMN options jsonb NOT NULL DEFAULT '{}'::jsonb;
UPDATE analysis_scenarios SET options = COALESCE(selection -> 'options', '{}'::jsonb), selection = selection - 'options';
