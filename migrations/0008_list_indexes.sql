-- The lists that grow, filtered by game (GET …/plays?game=, standings and the report with a
-- game): the plays of one league and one game in play order, so a page is read from the index
-- (forwards or backwards) instead of sorting every play of the league. The expression is the
-- statements' own (lower(game) = lower($n)).
CREATE INDEX plays_league_game_order ON plays (league_id, lower(game), played_at, seq);
