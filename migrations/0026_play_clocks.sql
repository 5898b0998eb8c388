-- What a play's time says (src/leagues/README.md "Plays and ratings"): clock 'offset', a local
-- time with its UTC offset (a play entered here, a finished table game, an RFC 3339 time);
-- 'local', a local time whose offset nobody wrote (BG Stats' playDate, a BGG date): kept as
-- that wall time at offset 0, shown without "Z"; 'undated', a play logged without a date (BGG's
-- date="0000-00-00"): played_at is 0001-01-01T00:00:00Z, so it comes before every dated play
-- (dates start in 1900) and its local date is in no season.
-- Idempotent (a test replays the migrations).
ALTER TABLE plays
    ADD COLUMN IF NOT EXISTS clock text NOT NULL DEFAULT 'offset'
        CHECK (clock IN ('offset', 'local', 'undated'));

-- Plays imported from BG Stats and BGG before the column, never edited since: local times.
UPDATE plays p
   SET clock = 'local'
 WHERE p.clock = 'offset'
   AND p.source IN ('bgstats', 'bggxml')
   AND p.utc_offset_min = 0
   AND NOT EXISTS (SELECT 1
                     FROM play_log l
                    WHERE l.play_id = p.id
                      AND l.action = 'edit');

-- A play's time as the API shows it: RFC 3339 with its offset ('offset'), the local time
-- without one ('local': "2024-12-07T22:08:41"), NULL when undated.
CREATE OR REPLACE FUNCTION play_date_text(at timestamptz, offset_min integer, clock text)
    RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE clock
               WHEN 'undated' THEN NULL
               WHEN 'local' THEN to_char(play_local(at, offset_min), 'YYYY-MM-DD"T"HH24:MI:SS')
               ELSE play_local_text(at, offset_min)
           END;
