-- Migrations are recorded by Kysely's Migrator in kysely_migration from now on; the hand-made
-- ledger of earlier versions has been read by then (see db/migrate.ts) and goes.
DROP TABLE IF EXISTS hark_migrations;
