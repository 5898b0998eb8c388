-- League challenges (src/leagues/README.md "Challenges"): an owner opens one ER draw (a seed,
-- the specialists, solo against ALICAT or plain solo) that every member plays once on their own
-- phone between `opens` and `closes`; once closed it is one play of the league among those who
-- finished. Idempotent: every statement applies again over itself.
--
-- er_challenges.body: the body of POST /api/v1/er/games each attempt is created from (the seed
-- included): never sent to a client. `code`: the link a guest joins by. `play_id`: the league
-- play the challenge became (set once, by the transaction that closes it, under the row lock).
-- `best_game`, `best_token`: the top finisher's game and a read-only (display) token of it, so
-- that the board can point every reader at that game's sheet and the coach's analysis.
CREATE TABLE IF NOT EXISTS er_challenges (
    id         text PRIMARY KEY,
    league_id  text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
    body       text NOT NULL,
    solo       boolean NOT NULL,
    opens      timestamptz NOT NULL,
    closes     timestamptz NOT NULL,
    code       text NOT NULL UNIQUE,
    created_by text REFERENCES accounts (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    closed_at  timestamptz,
    play_id    text REFERENCES plays (id) ON DELETE SET NULL,
    best_game  text REFERENCES games (id) ON DELETE SET NULL,
    best_token text,
    CHECK (closes > opens)
);
CREATE INDEX IF NOT EXISTS er_challenges_league ON er_challenges (league_id, opens);

-- One attempt per member and challenge (the primary key refuses a second one). `counted`: set
-- by the transaction that closes the challenge, true for the attempts its play holds, so the
-- board of a closed challenge says what the play says, whenever a game's finish committed.
CREATE TABLE IF NOT EXISTS er_challenge_games (
    challenge_id text NOT NULL REFERENCES er_challenges (id) ON DELETE CASCADE,
    member_id    text NOT NULL REFERENCES league_members (id) ON DELETE CASCADE,
    game_id      text NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    counted      boolean,
    PRIMARY KEY (challenge_id, member_id)
);
ALTER TABLE er_challenge_games ADD COLUMN IF NOT EXISTS counted boolean;

-- The challenges still to close, for the server's closer (src/leagues/challclose.c).
CREATE INDEX IF NOT EXISTS er_challenges_open ON er_challenges (closes) WHERE closed_at IS NULL;
