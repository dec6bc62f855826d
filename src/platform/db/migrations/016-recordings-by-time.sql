-- Recording lists are ordered by creation time (then seq): a created_after/created_before range is
-- an index range, whatever else is filtered.
CREATE INDEX recordings_workspace_created ON recordings (workspace_id, created_at DESC, seq DESC);
