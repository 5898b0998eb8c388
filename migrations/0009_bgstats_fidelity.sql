-- What a BG Stats export carries beyond the plays we model, kept so that exporting an imported
-- league writes back what BG Stats wrote (api.md "Leagues and history").
--
-- league_games: a game of the league as a file described it: its BG Stats uuid, BGG id, flags
-- (cooperative, highestWins, noPoints, usesTeams) and the whole source object for the fields we
-- do not model. Keyed by the name plays carry (plays.game).
CREATE TABLE league_games (
    league_id    text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
    uuid         text CHECK (uuid IS NULL OR length(uuid) BETWEEN 1 AND 128),
    bgg_id       integer CHECK (bgg_id IS NULL OR bgg_id > 0),
    cooperative  boolean NOT NULL DEFAULT false,
    highest_wins boolean NOT NULL DEFAULT true,
    no_points    boolean NOT NULL DEFAULT false,
    uses_teams   boolean NOT NULL DEFAULT false,
    source       jsonb,
    PRIMARY KEY (league_id, name)
);

-- league_locations: a location as a file described it (plays.location is its name).
CREATE TABLE league_locations (
    league_id text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    name      text NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
    uuid      text CHECK (uuid IS NULL OR length(uuid) BETWEEN 1 AND 128),
    source    jsonb,
    PRIMARY KEY (league_id, name)
);

-- league_players: a player object of a file (by its uuid) with its source object; a result
-- names it in play_results.player_uuid. BG Stats' anonymous player is one object that can sit
-- several times in one play: each seat is its own member, all of them naming this object.
CREATE TABLE league_players (
    league_id text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    uuid      text NOT NULL CHECK (length(uuid) BETWEEN 1 AND 128),
    source    jsonb NOT NULL,
    PRIMARY KEY (league_id, uuid)
);

-- anonymous: a seat of BG Stats' anonymous player; kept in its plays, never rated nor listed
-- in standings.
ALTER TABLE league_members
    ADD COLUMN anonymous boolean NOT NULL DEFAULT false;

-- extra: the members of the source play (or playerScore) we do not model, as they were.
ALTER TABLE plays
    ADD COLUMN extra jsonb;
ALTER TABLE play_results
    ADD COLUMN extra jsonb,
    ADD COLUMN player_uuid text CHECK (player_uuid IS NULL OR length(player_uuid) BETWEEN 1 AND 128);
