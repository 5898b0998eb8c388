-- unrated: a seat kept in its play but out of standings and ratings, because nothing says
-- who sat there: an anonymous player (BGG writes "Anonymous player", or no name at all), or a
-- second seat under a name the play already has (BGG's "Redacted", "B." twice). Each such seat
-- is its own member entry ("Anonymous player", "Anonymous player (seat 3)"), never one rated
-- person made of many unknown ones.
ALTER TABLE play_results
    ADD COLUMN unrated boolean NOT NULL DEFAULT false;
