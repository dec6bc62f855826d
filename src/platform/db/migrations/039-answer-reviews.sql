-- A person's review of an answer (kept in the result's answer, as `review`) is what reports count
-- for it: {"question_id": "agreed" | "overturned"} for each reviewed yes/no answer of the result,
-- beside the answers (already the reviewed ones) and the uncertain ones (a reviewed answer is not).
ALTER TABLE analysis_facts ADD COLUMN reviews jsonb NOT NULL DEFAULT '{}'::jsonb;
