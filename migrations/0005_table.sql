-- The table engine (src/engine/): any kind of game registered with the engine (er, dh, clinic,
-- and the minimal kind of the engine's own tests) is stored in the same three tables, so the
-- kind is a short name rather than a fixed list. Seats remember whether a phone has claimed them
-- (used the seat's token), and tokens replaced by a join are remembered so that the phone that
-- lost its seat is told so (401 seat-replaced) instead of a bare 401.
ALTER TABLE games DROP CONSTRAINT games_kind_check;
ALTER TABLE games ADD CONSTRAINT games_kind_check CHECK (kind ~ '^[a-z][a-z0-9_]{0,15}$');

ALTER TABLE seats ADD COLUMN claimed boolean NOT NULL DEFAULT false;

CREATE TABLE replaced_tokens (
    token_hash  bytea PRIMARY KEY CHECK (length(token_hash) = 32),
    game_id     text NOT NULL REFERENCES games (id),
    seat        integer NOT NULL,
    replaced_at timestamptz NOT NULL DEFAULT now()
);
