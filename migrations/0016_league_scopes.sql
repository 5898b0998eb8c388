-- Standings kept, not recomputed per read: every change of a league's plays ends with
-- league_recompute (src/leagues/ratings.c), which rates the plays once for the whole league and
-- once for each scope a filter can ask for, and rewrites these rows in the same transaction.
-- A scope is '' (the whole league), 's:<season id>', 'g:<game key>' (league_game_names.key) or
-- 's:<season id>|g:<game key>'; one row per member who has a result in it.
CREATE TABLE league_scopes (
    league_id text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    scope     text NOT NULL,
    member_id text NOT NULL REFERENCES league_members (id) ON DELETE CASCADE,
    games     integer NOT NULL,
    wins      integer NOT NULL,
    rank_sum  bigint NOT NULL,
    scored    integer NOT NULL,
    score_sum double precision NOT NULL,
    best      double precision,
    rated     boolean NOT NULL,
    mu        double precision NOT NULL,
    sigma     double precision NOT NULL,
    PRIMARY KEY (league_id, scope, member_id)
);

-- Which leagues have their scopes kept, and for which seasons (seasons are only ever added:
-- a season added since the last recompute is not among them, and its standings are computed
-- from its plays until the next change of the plays). A league without a row here has not
-- been recomputed since this migration: its standings are computed until then.
CREATE TABLE league_scope_state (
    league_id text PRIMARY KEY REFERENCES leagues (id) ON DELETE CASCADE,
    seasons   text[] NOT NULL
);

-- The rating after each row of a scope other than the whole league (whose ratings are
-- play_results.mu/sigma), for the league's pictures: element k belongs to the scope's k-th
-- result in play order (league_stat_rows with the scope's filters), NULL for a result of an
-- unrated play. Written with league_scopes.
CREATE TABLE league_scope_lines (
    league_id text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    scope     text NOT NULL,
    mus       double precision[] NOT NULL,
    sigmas    double precision[] NOT NULL,
    PRIMARY KEY (league_id, scope)
);
ALTER TABLE league_scope_lines ALTER COLUMN mus SET STORAGE EXTERNAL,
    ALTER COLUMN sigmas SET STORAGE EXTERNAL;

-- The kept scope a standings-like read with these filters (NULL: none) takes, or NULL when it
-- is not kept: the league not recomputed since, a season added since, or a game filter that
-- names several games (their plays are then selected and rated per read). A game filter that
-- names no game of the league gives 'g:', a scope without rows.
CREATE FUNCTION league_scope_key(league text, season text, game text) RETURNS text
    LANGUAGE sql STABLE
    AS $$
    -- $1 league, $2 season, $3 game (by number: a column of the same name would win)
    WITH k AS (
        SELECT coalesce(array_agg(DISTINCT x.key), '{}') AS keys
        FROM (SELECT g.key FROM league_game_names g
              WHERE g.league_id = $1 AND game_norm(g.game) = game_norm($3)
              UNION
              SELECT a.key FROM known_game_names a WHERE a.norm = game_norm($3)) x)
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

-- Every change of the plays rewrites the rating of each result after it (league_recompute):
-- with room left on each page, PostgreSQL writes the new version beside the old one and no
-- index changes (a heap-only update), about three times faster for a whole league's ratings.
-- Pages written before this keep their fill until they are rewritten.
ALTER TABLE play_results SET (fillfactor = 50);
