-- A seat's team (BG Stats' playerScores[].team) in a play played in teams (the play's own
-- usesTeams, else its game's): teammates share a value, and the ratings rate them as one
-- team (src/rules/rating.h). NULL: the seat plays alone. The seat's JSON (extra) keeps the
-- member as the file wrote it. Filled here for the plays imported before; their leagues are
-- rated in teams from their next change of plays on.
-- Idempotent (a test replays the migrations from 0017).
ALTER TABLE play_results
    ADD COLUMN IF NOT EXISTS team text CHECK (team IS NULL OR length(team) BETWEEN 1 AND 64);

UPDATE play_results r
   SET team = r.extra->>'team'
  FROM plays p
  JOIN league_games g
    ON g.league_id = p.league_id
   AND g.name = p.game
   AND coalesce(g.uuid, '') = coalesce(p.game_uuid, '')
 WHERE r.play_id = p.id
   AND r.team IS NULL
   AND coalesce(p.extra -> 'usesTeams' = 'true'::jsonb, g.uses_teams)
   AND p.source = 'bgstats'
   AND length(r.extra->>'team') BETWEEN 1 AND 64
   AND jsonb_typeof(r.extra->'team') IN ('string', 'number');
