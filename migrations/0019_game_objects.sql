-- A BG Stats file can describe one game in two objects: the same name and BGG id, two uuids
-- (seen in a real export: tests/api/data/bgstats-real/deniedpluto-2025.json, 7 Wonders Duel),
-- each play naming one of them. The league keeps every game object a file described (one row
-- per name and uuid) and each imported play the uuid of the object it named, so that the
-- export writes every play back with its own object; standings, ratings and the pictures still
-- count them as one game (plays.game).
ALTER TABLE league_games DROP CONSTRAINT IF EXISTS league_games_pkey;
CREATE UNIQUE INDEX IF NOT EXISTS league_games_object ON league_games (league_id, name, (coalesce(uuid, '')));

-- game_uuid: the uuid of the file's game object the play named (BG Stats imports), or NULL (the
-- league's object of the play's game, by name).
ALTER TABLE plays
    ADD COLUMN IF NOT EXISTS game_uuid text CHECK (game_uuid IS NULL OR length(game_uuid) BETWEEN 1 AND 128);
UPDATE plays p SET game_uuid = g.uuid
FROM league_games g
WHERE p.game_uuid IS NULL AND p.source = 'bgstats' AND g.league_id = p.league_id AND g.name = p.game
  AND g.uuid IS NOT NULL;
