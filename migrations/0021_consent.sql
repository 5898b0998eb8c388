-- Consent (api.md "Conventions": nobody is put into a league, made co-owner or given a guest's
-- history without the consent of the account concerned), and merges that can be undone
-- (src/leagues/README.md "Invitations, claims and merges"). Written to apply again over itself
-- (tests/api/test_member_lines.py replays the migrations from 0017 on a database that has them).
--
-- league_invitations: an owner asks an account to join a league, as a member (role 'member':
-- a new entry named `name`, or the guest entry `member_id` linked to the account) or as a
-- co-owner (role 'owner'). Nothing changes until the account accepts; declining, or the
-- owner withdrawing it, deletes the row. One pending invitation per league, account and role.
CREATE TABLE IF NOT EXISTS league_invitations (
    id         text PRIMARY KEY,
    league_id  text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    role       text NOT NULL CHECK (role IN ('member', 'owner')),
    name       text CHECK (name IS NULL OR length(name) BETWEEN 1 AND 256),
    member_id  text REFERENCES league_members (id) ON DELETE CASCADE,
    invited_by text REFERENCES accounts (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (role = 'owner' OR name IS NOT NULL OR member_id IS NOT NULL),
    UNIQUE (league_id, account_id, role)
);
CREATE INDEX IF NOT EXISTS league_invitations_account ON league_invitations (account_id);

-- member_claims: an account asks that a guest entry's history become its own ("this is me");
-- an owner approves (the guest is merged into the account's entry, or linked to the account
-- when it has none) or refuses (the row goes). One pending claim per guest and account.
CREATE TABLE IF NOT EXISTS member_claims (
    id         text PRIMARY KEY,
    league_id  text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    guest_id   text NOT NULL REFERENCES league_members (id) ON DELETE CASCADE,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (guest_id, account_id)
);
CREATE INDEX IF NOT EXISTS member_claims_league ON member_claims (league_id);

-- member_merges: what a merge did, so that it can be undone: the removed entry as it was
-- (id, name, account, flags, created_at) and the plays whose result moved to `into_id`. An undo
-- recreates the entry under its id, moves those results back, gives the account back, and
-- deletes the row. A merge whose surviving entry is removed (merged on, deleted) goes with it.
CREATE TABLE IF NOT EXISTS member_merges (
    id              text PRIMARY KEY,
    league_id       text NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    into_id         text NOT NULL REFERENCES league_members (id) ON DELETE CASCADE,
    from_id         text NOT NULL,
    from_name       text NOT NULL,
    from_account    text REFERENCES accounts (id) ON DELETE SET NULL,
    from_anonymous  boolean NOT NULL,
    from_created_at timestamptz NOT NULL,
    plays           text[] NOT NULL,
    by_account      text REFERENCES accounts (id) ON DELETE SET NULL,
    at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS member_merges_league ON member_merges (league_id, at);
