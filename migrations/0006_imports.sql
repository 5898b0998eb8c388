-- Plays as the apps that export them record them (api.md "Leagues and history"):
-- ignored: left out of standings and ratings (BG Stats "ignored", BGG nowinstats) but kept
-- and shown; incomplete: a play not finished (BGG incomplete), also out of standings;
-- bgg_play_id: the BoardGameGeek play this play is (a BGG import's play id, or the play id a
-- BG Stats export synced with BGG carries in plays[].bggId), so that the same play imported
-- from both sources is one play (several rows share it when BGG's quantity is above one).
ALTER TABLE plays
    ADD COLUMN ignored     boolean NOT NULL DEFAULT false,
    ADD COLUMN incomplete  boolean NOT NULL DEFAULT false,
    ADD COLUMN bgg_play_id bigint CHECK (bgg_play_id IS NULL OR bgg_play_id > 0);
CREATE INDEX plays_bgg_play ON plays (league_id, bgg_play_id) WHERE bgg_play_id IS NOT NULL;

-- score_text: the score as it was typed in the app it came from ("20+16+16"), when that
-- differs from the number stored in score.
ALTER TABLE play_results
    ADD COLUMN score_text text CHECK (score_text IS NULL OR length(score_text) BETWEEN 1 AND 256);
