-- Request counts of the rate limit's one-minute windows, shared by every API process on one
-- PostgreSQL: each process counts locally and adds its counts here several times a second.
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count integer NOT NULL
);
