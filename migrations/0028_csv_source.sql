-- A play read from a spreadsheet (src/leagues/csvin.h) keeps 'csv' as its source, beside
-- 'hand', 'table', 'bgstats' and 'bggxml'. Idempotent: the check is replaced whole.
ALTER TABLE plays DROP CONSTRAINT IF EXISTS plays_source_check;
ALTER TABLE plays
    ADD CONSTRAINT plays_source_check
        CHECK (source IN ('hand', 'table', 'bgstats', 'bggxml', 'csv'));
