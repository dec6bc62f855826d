-- A scenario's version: 1 when created, one more at every change (an edit, or `auto` turned off
-- because another scenario took it). An update that names the version it edited is refused once
-- the scenario has moved on, so an editor left open cannot undo a change saved elsewhere.
ALTER TABLE transcription_scenarios ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE analysis_scenarios ADD COLUMN version integer NOT NULL DEFAULT 1;
