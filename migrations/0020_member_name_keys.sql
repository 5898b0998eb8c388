-- A league's member names compare by a key: the name trimmed of every Unicode white space
-- character (no-break and em spaces, tabs … not only " "), inner runs of it one space, in NFC,
-- without invisible characters, case-folded ("Bob", "bOb\t", "Bob\u00a0", "\u2003Bob" are one
-- member). The server computes the key (src/base/names.c, libunistring) and stores it with
-- every name it writes: PostgreSQL 15 has no Unicode case folding, and lower() follows the
-- database's collation, so a key computed here could differ from the server's.
--
-- The rows already stored get their key when the server starts, right after the migrations
-- and under their lock (src/db/member_keys.c: every row whose name_key is NULL, so also a row
-- an older server wrote meanwhile). Members whose names were two before and are one now
-- ("Bob" and "Bob\u00a0", each with plays) are kept as they are, with their plays, as
-- 0012_member_names.sql kept "Bob" and "bob": one of each group keeps the name for matching
-- (the one that already did, else the one linked to an account, else the one with most
-- results, else the oldest) and the others are marked name_clash, for the owner to merge or
-- rename. Names themselves are not rewritten.
ALTER TABLE league_members
    ADD COLUMN IF NOT EXISTS name_key text CHECK (name_key <> '');

DROP INDEX IF EXISTS league_members_name_key;

CREATE UNIQUE INDEX league_members_name_key
    ON league_members (league_id, name_key) WHERE NOT name_clash;

-- the rows the start-up pass has left to key (none once it has run)
CREATE INDEX IF NOT EXISTS league_members_unkeyed
    ON league_members (id) WHERE name_key IS NULL;
