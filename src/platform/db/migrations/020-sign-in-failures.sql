-- Failed sign-ins, shared by every API process so the throttle holds across them: one row per
-- failure under a hashed key (an account's e-mail, an address), kept for the throttle's window.
CREATE TABLE sign_in_failures (
  key text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_key ON sign_in_failures (key, failed_at);
CREATE INDEX sign_in_failures_at ON sign_in_failures (failed_at);
