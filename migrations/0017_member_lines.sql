-- Each member's league rating after each of their rated results, one row per member: element k
-- of seqs, mus and sigmas is the member's k-th rated result in play order (plays.played_at,
-- plays.seq), named by its play's seq. A recompute writes a row per member instead of one row
-- per result (play_results.mu/sigma, dropped below): at 40,000 results, a few milliseconds
-- instead of a hundred. A result with no element is not rated (a solo or cooperative play,
-- an ignored or incomplete play, an unrated seat, an anonymous player).

-- A play's seq names it in the lines: one play each (bigserial, never set by hand).
CREATE UNIQUE INDEX plays_seq ON plays (seq);

CREATE TABLE member_lines (
    member_id text PRIMARY KEY REFERENCES league_members (id) ON DELETE CASCADE,
    league_id text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    seqs      bigint[] NOT NULL,
    mus       double precision[] NOT NULL,
    sigmas    double precision[] NOT NULL,
    CHECK (cardinality(seqs) = cardinality(mus) AND cardinality(mus) = cardinality(sigmas))
);
CREATE INDEX member_lines_league ON member_lines (league_id);
-- read whole and rewritten whole: stored uncompressed, out of line
ALTER TABLE member_lines ALTER COLUMN seqs SET STORAGE EXTERNAL,
    ALTER COLUMN mus SET STORAGE EXTERNAL, ALTER COLUMN sigmas SET STORAGE EXTERNAL;

INSERT INTO member_lines (member_id, league_id, seqs, mus, sigmas)
SELECT r.member_id, p.league_id,
       array_agg(p.seq ORDER BY p.played_at, p.seq),
       array_agg(r.mu ORDER BY p.played_at, p.seq),
       array_agg(r.sigma ORDER BY p.played_at, p.seq)
FROM play_results r
JOIN plays p ON p.id = r.play_id
WHERE r.mu IS NOT NULL AND r.sigma IS NOT NULL
GROUP BY r.member_id, p.league_id;

ALTER TABLE play_results DROP COLUMN mu, DROP COLUMN sigma;
-- its rows are no longer rewritten by every recompute: new pages are filled again
ALTER TABLE play_results RESET (fillfactor);

-- The stored ratings of a league's results, one row per rated result: its member, its play's
-- seq and the rating after it. Inlined by the planner into the reads that join it.
CREATE FUNCTION league_ratings(league text)
    RETURNS TABLE (member_id text, seq bigint, mu double precision, sigma double precision)
    LANGUAGE sql STABLE
    AS $$
    SELECT l.member_id, u.seq, u.mu, u.sigma
    FROM member_lines l, unnest(l.seqs, l.mus, l.sigmas) AS u(seq, mu, sigma)
    WHERE l.league_id = $1
$$;
