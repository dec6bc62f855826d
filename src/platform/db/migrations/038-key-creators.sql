-- A key made by a person (at registration, from a browser, or by a key of theirs) grants no more
-- than that person's role in the workspace now: a member demoted keeps only what the role allows
-- through their keys, a removed member's keys are deleted. Keys made before, or by an operator
-- (the admin command), name no one and keep their scopes. A key made by another key goes with it
-- (revoked, or expired: its expiry is capped at the other's). An invitation is as good as its
-- sender's role when it is accepted.
ALTER TABLE api_keys ADD COLUMN created_by text REFERENCES accounts (id) ON DELETE CASCADE;
ALTER TABLE api_keys ADD COLUMN created_by_key text REFERENCES api_keys (id) ON DELETE CASCADE;
ALTER TABLE invitations ADD COLUMN created_by text REFERENCES accounts (id) ON DELETE CASCADE;
CREATE INDEX api_keys_created_by_key ON api_keys (created_by_key) WHERE created_by_key IS NOT NULL;
-- A registration key is made in its account's transaction (the same now()): it answers to that account.
UPDATE api_keys k SET created_by = a.id
FROM accounts a
WHERE k.created_by IS NULL AND k.name = 'Registration key' AND a.workspace_id = k.workspace_id AND k.created_at = a.created_at;
