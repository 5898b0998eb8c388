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

-- Every change of the plays rewrites the rating of each result after it (league_recompute):
-- with room left on each page, PostgreSQL writes the new version beside the old one and no
-- index changes (a heap-only update), about three times faster for a whole league's ratings.
-- Pages written before this keep their fill until they are rewritten.
ALTER TABLE play_results SET (fillfactor = 50);
