-- A seat's link made at creation keeps working when a phone joins that seat with the game's code
-- before anyone opened the link: the join's new token goes in token_hash and the link's token
-- moves to link_hash, and either plays the seat. Taking the seat over ("replace") retires both.
-- Idempotent (a test replays the migrations from 0017).
ALTER TABLE seats
    ADD COLUMN IF NOT EXISTS link_hash bytea
        CHECK (link_hash IS NULL OR length(link_hash) = 32);
