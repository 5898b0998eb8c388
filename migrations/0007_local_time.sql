-- A play keeps the local time and UTC offset it was recorded with (api.md "Conventions"):
-- played_at is the instant (play order), utc_offset_min the offset of the players' clock
-- then, so the local time is played_at + offset. BG Stats and BoardGameGeek give local times
-- without an offset: they are kept as that wall time with offset 0. Seasons compare the
-- play's local date (a game at 23:30 on 31 December belongs to that year wherever it is).
CREATE FUNCTION play_local(at timestamptz, offset_min integer) RETURNS timestamp
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (at AT TIME ZONE 'UTC') + make_interval(mins => offset_min);

-- The local time as RFC 3339 with its offset ("2026-12-31T23:30:00-05:00", "…Z" for 0).
CREATE FUNCTION play_local_text(at timestamptz, offset_min integer) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN to_char(play_local(at, offset_min), 'YYYY-MM-DD"T"HH24:MI:SS') ||
           CASE WHEN offset_min = 0 THEN 'Z'
                ELSE CASE WHEN offset_min < 0 THEN '-' ELSE '+' END ||
                     lpad((abs(offset_min) / 60)::text, 2, '0') || ':' ||
                     lpad((abs(offset_min) % 60)::text, 2, '0') END;

ALTER TABLE plays
    ADD COLUMN utc_offset_min integer NOT NULL DEFAULT 0
        CHECK (utc_offset_min BETWEEN -1439 AND 1439),
    ADD COLUMN local_date date GENERATED ALWAYS AS (play_local(played_at, utc_offset_min)::date) STORED;
CREATE INDEX plays_league_local_date ON plays (league_id, local_date);
