-- Recordings sent through /v1/files run the whole pipeline: the automatic scenarios, or the
-- workspace's first scenarios when none is automatic.
ALTER TABLE recordings ADD COLUMN pipeline boolean NOT NULL DEFAULT false;
