-- Idempotency keys of plays entered by hand (README "API", POST /api/v1/leagues/{id}/plays):
-- a client that lost the reply to a submission (a dropped connection, a 503 while the database
-- fails over) sends it again with the same Idempotency-Key header; the server answers with the
-- first reply instead of storing the play twice. The key is stored with the play, in the same
-- transaction, so a key is known exactly when its play is.
--
-- request_hash is BLAKE2b-256 (hex) of the request body, so the same key with another body is
-- told apart (409 idempotency-key-reused); reply is the 201 body as it was sent. Keys belong to
-- their league and go with it; deleting the play keeps the key (a late repeat of its submission
-- still gets the first reply, not a second play).
CREATE TABLE play_keys (
    league_id    text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    key          text NOT NULL CHECK (length(key) BETWEEN 1 AND 128),
    account_id   text REFERENCES accounts (id) ON DELETE SET NULL,
    request_hash text NOT NULL,
    status       integer NOT NULL,
    reply        text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (league_id, key)
);
