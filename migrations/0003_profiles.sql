-- Scoring profiles of Dice Hospital ('dh') and Clinic ('clinic') stored by users (issue 8):
-- the board-printed tables a league corrected to match its box. The shipped profiles live in
-- templates/dice-hospital/ and templates/clinic/ and are not stored here; a stored id never
-- shadows a shipped one (the API refuses it). body is the whole profile document, checked by
-- the rules loader (src/rules/dh.c, clinic.c) before it is stored; profiles are never edited
-- (a correction is a new id), so games that used one keep their numbers — games also copy the
-- profile into their own configuration.
CREATE TABLE profiles (
    game       text NOT NULL CHECK (game IN ('dh', 'clinic')),
    id         text NOT NULL CHECK (id ~ '^[a-z0-9-]{1,32}$'),
    name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 128),
    body       jsonb NOT NULL,
    league     text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game, id)
);
