-- The BG Stats files a league was fed, each as it came (its JSON as the parser read it, once
-- per distinct text), in import order: the export writes them back with the league's changes
-- applied (src/leagues/README.md "Formats"), so a league keeps what its files held beyond the
-- plays it models (tags, groups, challenges, deletedObjects, userInfo, games never played,
-- players and locations without plays, every object's ids).
CREATE TABLE IF NOT EXISTS league_files (
    league_id text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    seq       bigserial NOT NULL,
    body      text NOT NULL,
    PRIMARY KEY (league_id, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS league_files_body ON league_files (league_id, md5(body));
