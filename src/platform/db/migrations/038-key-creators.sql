-- A key made by a person (at registration, from a browser, or by a key of theirs) grants no more
-- than that person's role in the workspace now: a member demoted or removed loses through their
-- keys what they lost in the workspace. Keys made before, or by an operator (hark admin), name no
-- one and keep their scopes.
ALTER TABLE api_keys ADD COLUMN created_by text REFERENCES accounts (id) ON DELETE CASCADE;
