-- Failed log-ins per client address group and e-mail (src/leagues/accounts.c). After a few
-- failures of one pair, that pair waits a delay that doubles with each further failure (429
-- with Retry-After meanwhile); other addresses trying the same e-mail, its owner among them,
-- are not slowed by it. The e-mail is kept only as a BLAKE2b-128 hash, whether an account has
-- it or not, so the table answers alike for both. A success from the pair, or a day without a
-- failure, forgets it. Rows live in the database, not in a table of the process that other
-- traffic could push them out of, and every server on the database sees them.
CREATE TABLE IF NOT EXISTS login_failures (
    email_hash    bytea NOT NULL CHECK (length(email_hash) = 16),
    addr_group    text NOT NULL CHECK (length(addr_group) BETWEEN 1 AND 64),
    failures      integer NOT NULL CHECK (failures >= 1),
    last_failure  timestamptz NOT NULL,
    blocked_until timestamptz NOT NULL,
    PRIMARY KEY (email_hash, addr_group)
);
CREATE INDEX IF NOT EXISTS login_failures_last ON login_failures (last_failure);

-- The wait after the failures-th failure of a pair: none before the free-th, then base seconds
-- doubled with each further failure, at most max seconds.
CREATE OR REPLACE FUNCTION login_delay(failures integer, free integer, base float8, max float8)
RETURNS interval
LANGUAGE sql IMMUTABLE
AS $$
    SELECT CASE
               WHEN failures < free THEN interval '0'
               ELSE least(base * power(2, least(failures - free, 40)), max) * interval '1 second'
           END
$$;

-- A pair's count after one more failure: counting starts again after forget seconds without one.
CREATE OR REPLACE FUNCTION login_failures_next(failures integer, last_failure timestamptz, forget float8)
RETURNS integer
LANGUAGE sql STABLE
AS $$
    SELECT CASE
               WHEN last_failure < now() - forget * interval '1 second' THEN 1
               ELSE failures + 1
           END
$$;
