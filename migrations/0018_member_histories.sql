-- Each member's line holds all of their results, not only the rated ones, so a page of their
-- history is a slice of the line: element k of all_seqs is the member's k-th result in play
-- order (plays.played_at, plays.seq), named by its play's seq, and element k of rated_upto is
-- how many of the member's rated results are at or before it — the rating after it is element
-- rated_upto[k] of mus and sigmas (none while that is 0), and the result is rated when
-- rated_upto grows there. A member with results but none rated has a line with empty seqs.

ALTER TABLE member_lines
    ADD COLUMN all_seqs bigint[] NOT NULL DEFAULT '{}',
    ADD COLUMN rated_upto integer[] NOT NULL DEFAULT '{}',
    ADD CHECK (cardinality(all_seqs) = cardinality(rated_upto));
ALTER TABLE member_lines ALTER COLUMN all_seqs SET STORAGE EXTERNAL,
    ALTER COLUMN rated_upto SET STORAGE EXTERNAL;

WITH rated AS (
    SELECT l.member_id, u.seq FROM member_lines l, unnest(l.seqs) AS u(seq)
), results AS (
    SELECT r.member_id, p.league_id, p.seq, p.played_at,
           (count(rt.seq) OVER (PARTITION BY r.member_id ORDER BY p.played_at, p.seq))::integer
               AS upto
    FROM play_results r
    JOIN plays p ON p.id = r.play_id
    LEFT JOIN rated rt ON rt.member_id = r.member_id AND rt.seq = p.seq
)
INSERT INTO member_lines (member_id, league_id, seqs, mus, sigmas, all_seqs, rated_upto)
SELECT member_id, league_id, '{}', '{}', '{}',
       array_agg(seq ORDER BY played_at, seq), array_agg(upto ORDER BY played_at, seq)
FROM results
GROUP BY member_id, league_id
ON CONFLICT (member_id) DO UPDATE
    SET all_seqs = excluded.all_seqs, rated_upto = excluded.rated_upto;

ALTER TABLE member_lines ALTER COLUMN all_seqs DROP DEFAULT,
    ALTER COLUMN rated_upto DROP DEFAULT;

-- A recompute reads the results its rating leaves out (league_rows_out) to put them in the
-- lines: ignored and incomplete plays, unrated seats, anonymous members — a few, found by index.
CREATE INDEX plays_left_out ON plays (league_id) WHERE ignored OR incomplete;
CREATE INDEX play_results_unrated ON play_results (member_id) WHERE unrated;
