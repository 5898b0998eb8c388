-- The game filter of a league's plays, standings and pictures (?game=, src/leagues/README.md
-- "Games"), written once: the statements that filter plays by game and the key of a kept
-- scope (league_scope_key) read it from these two functions. Both are plain SQL the planner
-- inlines into the statement that calls them, so a filter costs what it cost written out in
-- each statement: the games it names are looked up once per statement, not once per play.

-- The games a filter names in a league: the key of every spelling of the league's plays that
-- the filter spells the same way (game_norm: case, spaces and dashes aside), and the key of the
-- product's game of that name. $1 league, $2 the filter (by number: a column of the same name
-- would win).
CREATE OR REPLACE FUNCTION league_filter_keys(league text, wanted text)
    RETURNS SETOF text
    LANGUAGE sql STABLE
    AS $$
    SELECT g.key
      FROM league_game_names g
     WHERE g.league_id = $1
       AND game_norm(g.game) = game_norm($2)
    UNION
    SELECT a.key
      FROM known_game_names a
     WHERE a.norm = game_norm($2)
$$;

-- The spellings (name and BGG id, 0 for none, as league_game_names keeps them) of the league's
-- plays of the games the filter names. A play is one of the filter's when its name and BGG id
-- are such a spelling; the statements also ask that its lower-case name be one of these, which
-- lets them walk the index plays_league_game_order (league, lower(game), played_at, seq).
CREATE OR REPLACE FUNCTION league_filter_games(league text, wanted text)
    RETURNS TABLE (name text, bgg integer)
    LANGUAGE sql STABLE
    AS $$
    SELECT g.game, g.bgg
      FROM league_game_names g
     WHERE g.league_id = $1
       AND g.key IN (SELECT k.key FROM league_filter_keys($1, $2) AS k(key))
$$;

-- The scope of the kept standings for a season and a game filter (migrations/0016), its game
-- keys from league_filter_keys.
CREATE OR REPLACE FUNCTION league_scope_key(league text, season text, game text) RETURNS text
    LANGUAGE sql STABLE
    AS $$
    -- $1 league, $2 season, $3 game (by number: a column of the same name would win)
    WITH k AS (
        SELECT coalesce(array_agg(DISTINCT x.key), '{}') AS keys
          FROM league_filter_keys($1, $3) AS x(key))
    SELECT CASE
        WHEN NOT EXISTS (SELECT 1 FROM league_scope_state t
                         WHERE t.league_id = $1 AND ($2 IS NULL OR $2 = ANY (t.seasons)))
            THEN NULL
        WHEN $3 IS NULL THEN coalesce('s:' || $2, '')
        WHEN cardinality(k.keys) > 1 THEN NULL
        WHEN cardinality(k.keys) = 0 THEN 'g:'
        ELSE coalesce('s:' || $2 || '|', '') || 'g:' || k.keys[1]
    END
    FROM k
$$;
