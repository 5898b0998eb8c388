-- A league's member names compare without case and without the spaces around them: "Bob",
-- "bob" and " Bob " name one player, whether a member is added, renamed, matched by an import
-- or by a finished table game's seat (src/leagues/README.md "Members").
--
-- Members that already share such a name are kept as they are, with their plays: merging them
-- here could join two people who happen to share a name, and cannot be done at all where both
-- sat in one play. One of each such group keeps the name for matching (the one linked to an
-- account, else the one with the most results, else the oldest); the others are marked
-- name_clash, left out of the unique index, and the league screen offers to merge or rename
-- them. Renaming one to a free name clears the mark.
ALTER TABLE league_members
    ADD COLUMN name_clash boolean NOT NULL DEFAULT false;

UPDATE league_members m
   SET name_clash = true
  FROM (SELECT x.id,
               row_number() OVER (PARTITION BY x.league_id, lower(btrim(x.name))
                                  ORDER BY x.account_id IS NULL,
                                           (SELECT count(*) FROM play_results r
                                             WHERE r.member_id = x.id) DESC,
                                           x.created_at, x.id) AS n
          FROM league_members x) k
 WHERE k.id = m.id AND k.n > 1;

CREATE UNIQUE INDEX league_members_name_key
    ON league_members (league_id, lower(btrim(name))) WHERE NOT name_clash;
