-- The display token of a game (src/engine/README.md "Tokens"): read-only, for a tablet or TV in
-- the middle of the table. A game has at most one; the host asks for a new one, and the one it
-- replaces is remembered in replaced_tokens with seat 0, so the screen that still holds it is
-- told so (401 display-replaced) instead of a bare 401. Stored only as a BLAKE2b-256 hash, like
-- the host and seat tokens.
ALTER TABLE games ADD COLUMN display_token_hash bytea UNIQUE
    CHECK (display_token_hash IS NULL OR length(display_token_hash) = 32);
