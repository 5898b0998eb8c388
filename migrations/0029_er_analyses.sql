-- The ER coach's analyses (src/games/er/coach_api.c): one per finished game, human seat and
-- search width, the reply of GET /api/v1/er/games/{id}/seats/{seat}/analysis as computed the
-- first time. A finished game never changes, so neither does its analysis at one width.
CREATE TABLE IF NOT EXISTS er_analyses (
    game_id    text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       integer NOT NULL CHECK (seat BETWEEN 1 AND 6),
    width      integer NOT NULL CHECK (width BETWEEN 1 AND 256),
    result     text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat, width)
);
