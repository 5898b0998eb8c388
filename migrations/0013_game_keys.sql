-- One game, however its plays spell it (src/leagues/README.md "Games"): "Dice Hospital: ER"
-- typed by hand and "Dice Hospital: ER – Emergency Roll" imported from BoardGameGeek are one
-- game in the standings' game filter and the league's list of games. Each play keeps the name
-- it was recorded with (exports write it back as it came); league_game_names says which game
-- each spelling is, and every change of a league's plays recomputes it (league_rekey_games,
-- called by league_recompute).

-- A name as compared: lower case, the spaces around it and repeated inside it dropped, dashes
-- (– — − ‐ ‑) as "-" without spaces around them, "’" as "'", a colon followed by one space.
CREATE FUNCTION game_norm(name text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN lower(btrim(regexp_replace(regexp_replace(regexp_replace(
               translate(name, E'\u2013\u2014\u2212\u2010\u2011\u2019\u00a0', '-----'' '),
               '\s*-\s*', '-', 'g'), '\s*:\s*', ': ', 'g'), '\s+', ' ', 'g')));

-- The product's own games: their names as the app records them (src/leagues/ratings.c) and
-- their BoardGameGeek ids where known (boardgamegeek.com/boardgame/218121 Dice Hospital,
-- /272739 Clinic: Deluxe Edition; none is recorded here for Dice Hospital: ER, which its
-- names identify).
CREATE TABLE known_games (
    key    text PRIMARY KEY,
    name   text NOT NULL,
    bgg_id integer UNIQUE CHECK (bgg_id IS NULL OR bgg_id > 0)
);
INSERT INTO known_games (key, name, bgg_id) VALUES
    ('product:er', 'Dice Hospital: ER – Emergency Roll', NULL),
    ('product:dh', 'Dice Hospital', 218121),
    ('product:clinic', 'Clinic', 272739);

-- The names the product's games go by (as game_norm writes them): English and French titles,
-- short forms, the Deluxe Edition.
CREATE TABLE known_game_names (
    norm text PRIMARY KEY,
    key  text NOT NULL REFERENCES known_games (key)
);
INSERT INTO known_game_names (norm, key)
SELECT DISTINCT game_norm(n), k FROM (VALUES
    ('Dice Hospital: ER – Emergency Roll', 'product:er'),
    ('Dice Hospital: ER', 'product:er'),
    ('Dice Hospital ER', 'product:er'),
    ('Dice Hospital ER – Emergency Roll', 'product:er'),
    ('Dice Hospital: ER Emergency Roll', 'product:er'),
    ('Dice Hospital ER Emergency Roll', 'product:er'),
    ('Dice Hospital: Emergency Roll', 'product:er'),
    ('Dice Hospital Emergency Roll', 'product:er'),
    ('Dice Hospital: Service d''Urgence', 'product:er'),
    ('Dice Hospital: Service d''Urgences', 'product:er'),
    ('Dice Hospital', 'product:dh'),
    ('Clinic', 'product:clinic'),
    ('Clinic: Deluxe Edition', 'product:clinic'),
    ('Clinic Deluxe Edition', 'product:clinic'),
    ('Clinic Deluxe', 'product:clinic'),
    ('Clinic: Deluxe', 'product:clinic')) AS v(n, k);

-- A league's games as its plays spell them: each spelling (name and BGG id, 0 for none) with
-- the game it is (key) and how many plays spell it so (the list of games shows a game under
-- its most used spelling). Small: one row per spelling, whatever the number of plays.
CREATE TABLE league_game_names (
    league_id text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    game      text NOT NULL,
    bgg       integer NOT NULL,
    key       text NOT NULL,
    plays     integer NOT NULL,
    PRIMARY KEY (league_id, game, bgg)
);

-- The spellings of a league's plays and their keys, written where they changed. A spelling
-- with a BGG id is the game of that id: the product game one of the id's spellings names,
-- else 'bgg:<id>'. A spelling without one is the product game of that name, else the game of
-- the BGG id its name has most often in the league, else 'name:<normalised name>'. Two games
-- of one name and different BGG ids stay two games.
CREATE FUNCTION league_rekey_games(league text) RETURNS void
    LANGUAGE sql AS $$
WITH d AS (
    SELECT game, coalesce(bgg_id, 0) AS bgg, game_norm(game) AS n, count(*)::integer AS c
      FROM plays WHERE league_id = league GROUP BY game, coalesce(bgg_id, 0)),
k1 AS (
    SELECT d.*, coalesce((SELECT g.key FROM known_games g WHERE g.bgg_id = d.bgg),
                         (SELECT a.key FROM known_game_names a WHERE a.norm = d.n)) AS known
      FROM d),
ids AS (
    SELECT bgg, coalesce(min(known), 'bgg:' || bgg) AS key FROM k1 WHERE bgg > 0 GROUP BY bgg),
names AS (
    SELECT DISTINCT ON (n) n, key
      FROM (SELECT k1.n, ids.key, ids.bgg, sum(k1.c) AS c
              FROM k1 JOIN ids ON ids.bgg = k1.bgg
             GROUP BY k1.n, ids.key, ids.bgg) x
     ORDER BY n, c DESC, bgg),
k AS (
    SELECT k1.game, k1.bgg, k1.c,
           CASE WHEN k1.bgg > 0 THEN ids.key
                ELSE coalesce(k1.known, names.key, 'name:' || k1.n) END AS key
      FROM k1 LEFT JOIN ids ON ids.bgg = k1.bgg LEFT JOIN names ON names.n = k1.n),
gone AS (
    DELETE FROM league_game_names g
     WHERE g.league_id = league
       AND NOT EXISTS (SELECT 1 FROM k WHERE k.game = g.game AND k.bgg = g.bgg))
INSERT INTO league_game_names (league_id, game, bgg, key, plays)
SELECT league, k.game, k.bgg, k.key, k.c FROM k
    ON CONFLICT (league_id, game, bgg) DO UPDATE SET key = EXCLUDED.key, plays = EXCLUDED.plays
 WHERE (league_game_names.key, league_game_names.plays)
       IS DISTINCT FROM (EXCLUDED.key, EXCLUDED.plays)
$$;

SELECT league_rekey_games(id) FROM leagues;
