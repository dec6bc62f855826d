-- Reports say how many of the counted yes/no answers are uncertain (confidence below 0.6, the
-- API's `uncertain`): {"question_id": true} for each, beside the answers themselves.
ALTER TABLE analysis_facts ADD COLUMN uncertain jsonb NOT NULL DEFAULT '{}'::jsonb;
UPDATE analysis_facts f SET uncertain = u.uncertain
FROM (
  SELECT res.analysis_run_id, coalesce(jsonb_object_agg(a->>'question_id', true) FILTER (WHERE (a->>'confidence')::float8 < 0.6), '{}'::jsonb) AS uncertain
  FROM analysis_results res CROSS JOIN LATERAL jsonb_array_elements(res.answers) a
  WHERE a->>'type' = 'boolean' AND jsonb_typeof(a->'answer') = 'boolean' AND jsonb_typeof(a->'confidence') = 'number'
  GROUP BY res.analysis_run_id
) u
WHERE u.analysis_run_id = f.analysis_run_id;
