-- Leagues and history (api.md "Leagues and history"; issue 10): accounts with cookie sessions,
-- leagues with owners, members (accounts or guests by name) and seasons, plays (recorded from
-- finished table games, entered by hand or imported) with one result per member, the audit
-- log of edits, and the rating after each play (recomputed for the whole league in one pass).
CREATE TABLE accounts (
    id            text PRIMARY KEY,
    email         text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
    display_name  text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 256),
    password_hash text NOT NULL,            -- libsodium crypto_pwhash_str (Argon2id)
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- Session cookies are stored only as BLAKE2b-256 hashes.
CREATE TABLE sessions (
    token_hash bytea PRIMARY KEY CHECK (length(token_hash) = 32),
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_seen  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_account ON sessions (account_id);

-- version: bumped by every change of the league's plays (the standings/history cache key).
CREATE TABLE leagues (
    id         text PRIMARY KEY,
    name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
    version    bigint NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE league_owners (
    league_id  text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    PRIMARY KEY (league_id, account_id)
);
CREATE INDEX league_owners_account ON league_owners (account_id);

-- A league player: a registered account or a guest known by name.
CREATE TABLE league_members (
    id         text PRIMARY KEY,
    league_id  text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
    account_id text REFERENCES accounts (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (league_id, name),
    UNIQUE (league_id, account_id)
);

CREATE TABLE seasons (
    id        text PRIMARY KEY,
    league_id text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    name      text NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
    starts    date NOT NULL,
    ends      date NOT NULL CHECK (ends >= starts),
    UNIQUE (league_id, name)
);

-- A play. source: 'table' (a finished game of ours, game_id set, at most once), 'hand',
-- 'bgstats', 'bggxml' (a backup keeps each play's source). uuid: the play's identity across exports and imports (a BG
-- Stats play's uuid, "bgg-<id>" for a BGG play, else generated), imported at most once.
CREATE TABLE plays (
    id           text PRIMARY KEY,
    league_id    text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    seq          bigserial NOT NULL,        -- tie-break of equal played_at: entry order
    game         text NOT NULL CHECK (length(game) BETWEEN 1 AND 256),
    bgg_id       integer CHECK (bgg_id IS NULL OR bgg_id > 0),
    played_at    timestamptz NOT NULL,
    duration_min integer CHECK (duration_min IS NULL OR duration_min BETWEEN 0 AND 100000),
    notes        text NOT NULL DEFAULT '',
    cooperative  boolean NOT NULL DEFAULT false,
    location     text NOT NULL DEFAULT '',
    source       text NOT NULL DEFAULT 'hand' CHECK (source IN ('hand', 'table', 'bgstats', 'bggxml')),
    uuid         text NOT NULL CHECK (length(uuid) BETWEEN 1 AND 128),
    game_id      text UNIQUE REFERENCES games (id),
    created_by   text REFERENCES accounts (id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (league_id, uuid)
);
CREATE INDEX plays_league_order ON plays (league_id, played_at, seq);

-- One row per player of a play; mu/sigma: that player's league rating after the play (NULL
-- when the play is not rated: solo or cooperative).
CREATE TABLE play_results (
    play_id   text NOT NULL REFERENCES plays (id) ON DELETE CASCADE,
    member_id text NOT NULL REFERENCES league_members (id),
    seat      integer NOT NULL CHECK (seat >= 1),
    score     double precision,
    rank      integer NOT NULL CHECK (rank >= 1),
    winner    boolean NOT NULL,
    breakdown jsonb,
    mu        double precision,
    sigma     double precision,
    PRIMARY KEY (play_id, member_id),
    UNIQUE (play_id, seat)
);
CREATE INDEX play_results_member ON play_results (member_id);

-- Every edit and deletion of a play: who, when, and the play before and after.
CREATE TABLE play_log (
    id         bigserial PRIMARY KEY,
    league_id  text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    play_id    text NOT NULL,
    account_id text REFERENCES accounts (id) ON DELETE SET NULL,
    action     text NOT NULL CHECK (action IN ('create', 'edit', 'delete')),
    before     jsonb,
    after      jsonb,
    at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX play_log_league ON play_log (league_id, id);
