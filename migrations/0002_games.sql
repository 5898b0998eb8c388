-- Games at the table, shared by every game kind (ER now; Dice Hospital and Clinic later):
-- the game row, its seats with token hashes, and the append-only event log whose replay is the
-- game state (engineering.md "Event log"). Tokens are stored only as BLAKE2b-256 hashes.
CREATE TABLE games (
    id              text PRIMARY KEY,
    kind            text NOT NULL CHECK (kind IN ('er', 'dh', 'clinic')),
    code            text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9]{6}$'),
    host_token_hash bytea NOT NULL UNIQUE CHECK (length(host_token_hash) = 32),
    config          jsonb NOT NULL,
    version         integer NOT NULL DEFAULT 0 CHECK (version >= 0),
    status          text NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'finished')),
    league          text,
    result          jsonb,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX games_league ON games (league) WHERE league IS NOT NULL;

CREATE TABLE seats (
    game_id    text NOT NULL REFERENCES games (id),
    seat       integer NOT NULL CHECK (seat BETWEEN 1 AND 6),
    name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
    bot        boolean NOT NULL DEFAULT false,
    token_hash bytea UNIQUE CHECK (token_hash IS NULL OR length(token_hash) = 32),
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE events (
    game_id    text NOT NULL REFERENCES games (id),
    version    integer NOT NULL CHECK (version >= 1),
    kind       text NOT NULL,
    seat       integer,
    turn       integer NOT NULL,
    payload    jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, version)
);

-- The log is append-only: history is never rewritten (undo is an event too).
CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only';
END
$$;
CREATE TRIGGER events_no_rewrite BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only();
