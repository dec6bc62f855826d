-- Failed sign-ins counted per account and address pair (an attacker's guesses slow down their own
-- address, never the account's owner elsewhere) and per address, and kept a day so an owner can see
-- the recent failures against the workspace's members. Earlier rows counted otherwise: dropped.
DELETE FROM sign_in_failures;
ALTER TABLE sign_in_failures
  ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY,
  ADD COLUMN address_key text NOT NULL,
  ADD COLUMN address text NOT NULL,
  ADD COLUMN account_id text;
CREATE INDEX sign_in_failures_address ON sign_in_failures (address_key, failed_at);
CREATE INDEX sign_in_failures_account ON sign_in_failures (account_id, failed_at) WHERE account_id IS NOT NULL;
