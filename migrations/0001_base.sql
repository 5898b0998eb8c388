-- 0001: the base every later migration builds on.
--
-- Each file in migrations/ runs in ONE transaction together with its schema_migrations row
-- (src/db/migrate.c): no BEGIN/COMMIT here, nothing that cannot run in a transaction block.
-- Files are applied once, in version order, and never edited after they shipped: a change is a
-- new file.

-- This installation: exactly one row, created with the schema. Lets an operator (and health
-- checks) tell a fresh database from an existing one and see when it was set up.
CREATE TABLE instance (
	id int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
	created_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO instance DEFAULT VALUES;
