/* The list of the statement tables (db/statements.h): every table of src/db/, one line each, and
 * the lookup of a statement by name. db_statements_unsplit holds the statements not yet moved
 * into the file that runs them, one line each (clang-format is off for the table so long SQL
 * stays on its line). */
#include "db/statements.h"

#include <string.h>

/* Rows without their columns' names (NULL): the test of the columns does not hold them to it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
// clang-format off
const db_statement db_statements_unsplit[] = {


	/* the table engine: games, seats, events (migrations 0002 and 0005; their rows are read in
	 * src/db/games.c and nowhere else) */
	{"game_insert", "INSERT INTO games (id, kind, code, host_token_hash, config, league) VALUES ($1, $2, $3, decode($4, 'hex'), $5::jsonb, $6) ON CONFLICT (code) DO NOTHING RETURNING id", 6},
	{"seat_insert", "INSERT INTO seats (game_id, seat, name, bot, token_hash) VALUES ($1, $2::int, $3, $4::boolean, decode($5, 'hex'))", 5},
	{"game_get", "SELECT g.kind, g.config, g.version, g.status = 'finished', g.host_token_hash = decode($2, 'hex'), s.seat, coalesce(s.claimed, false), (SELECT r.seat FROM replaced_tokens r WHERE r.game_id = g.id AND r.token_hash = decode($2, 'hex')), g.code, coalesce(g.league, ''), to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), coalesce(g.display_token_hash = decode($2, 'hex'), false) FROM games g LEFT JOIN seats s ON s.game_id = g.id AND s.token_hash = decode($2, 'hex') WHERE g.id = $1", 2},
	{"game_lock", "SELECT g.kind, g.config, g.version, g.status = 'finished', g.host_token_hash = decode($2, 'hex'), s.seat, coalesce(s.claimed, false), (SELECT r.seat FROM replaced_tokens r WHERE r.game_id = g.id AND r.token_hash = decode($2, 'hex')), g.code, coalesce(g.league, ''), to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), coalesce(g.display_token_hash = decode($2, 'hex'), false) FROM games g LEFT JOIN seats s ON s.game_id = g.id AND s.token_hash = decode($2, 'hex') WHERE g.id = $1 FOR UPDATE OF g", 2},
	{"seats_list", "SELECT seat, name, bot, claimed FROM seats WHERE game_id = $1 ORDER BY seat", 1},
	{"seat_claim", "UPDATE seats SET claimed = true WHERE game_id = $1 AND seat = $2::int AND NOT claimed", 2},
	{"join_lock", "SELECT g.id, g.kind, s.name, s.claimed, encode(s.token_hash, 'hex') FROM seats s JOIN games g ON g.id = s.game_id WHERE g.code = $1 AND s.seat = $2::int AND NOT s.bot FOR UPDATE OF s", 2},
	{"join_take", "WITH old AS (INSERT INTO replaced_tokens (token_hash, game_id, seat) SELECT decode($3, 'hex'), $1, $2::int WHERE $3::text IS NOT NULL ON CONFLICT DO NOTHING) UPDATE seats SET token_hash = decode($4, 'hex'), claimed = true WHERE game_id = $1 AND seat = $2::int", 4},
	{"display_replace", "WITH old AS (INSERT INTO replaced_tokens (token_hash, game_id, seat) SELECT display_token_hash, id, 0 FROM games WHERE id = $1 AND display_token_hash IS NOT NULL ON CONFLICT DO NOTHING) UPDATE games SET display_token_hash = decode($2, 'hex') WHERE id = $1", 2},
	/* db_token_replaced: has a join or a new display link replaced this token of the game? */
	{"token_replaced", "SELECT EXISTS (SELECT 1 FROM replaced_tokens WHERE token_hash = decode($2, 'hex') AND game_id = $1) AS replaced", 2},
	{"game_by_code", "SELECT id, kind FROM games WHERE code = $1", 1},
	{"events_between", "SELECT version, kind, coalesce(seat, 0), turn, payload FROM events WHERE game_id = $1 AND version > $2::int AND version <= $3::int ORDER BY version", 3},
	{"events_log", "SELECT version, kind, coalesce(seat, 0), turn, payload, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM events WHERE game_id = $1 AND version <= $2::int ORDER BY version", 2},
	{"events_since_n", "SELECT version, kind, coalesce(seat, 0), turn FROM events WHERE game_id = $1 AND version > $2::int ORDER BY version LIMIT $3::int", 3},
	{"events_append", "WITH e AS (INSERT INTO events (game_id, version, kind, seat, turn, payload) SELECT $1, x.version, x.kind, x.seat, x.turn, x.payload FROM unnest($2::int[], $3::text[], $4::int[], $5::int[], $6::jsonb[]) AS x(version, kind, seat, turn, payload) RETURNING 1), u AS (UPDATE games SET version = $7::int, status = $8, result = $9::jsonb, updated_at = now() WHERE id = $1 RETURNING id) SELECT (SELECT count(*) FROM e) FROM u", 9},
	{"events_append_if", "WITH u AS (UPDATE games g SET version = $7::int, status = $8, result = $9::jsonb, updated_at = now() WHERE g.id = $1 AND g.version = $10::int AND g.status = 'playing' AND CASE WHEN $11::int = 0 THEN g.host_token_hash = decode($12, 'hex') ELSE EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.seat = $11::int AND s.claimed AND s.token_hash = decode($12, 'hex')) END RETURNING g.id), e AS (INSERT INTO events (game_id, version, kind, seat, turn, payload) SELECT u.id, x.version, x.kind, x.seat, x.turn, x.payload FROM u, unnest($2::int[], $3::text[], $4::int[], $5::int[], $6::jsonb[]) AS x(version, kind, seat, turn, payload) RETURNING 1) SELECT (SELECT count(*) FROM e) FROM u", 12},

	/* accounts and sessions (migrations/0004_leagues.sql; src/leagues/accounts.c; rows read in src/db/accounts.c) */
	{"account_insert", "INSERT INTO accounts (id, email, display_name, password_hash) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING RETURNING id", 4},
	{"account_by_email", "SELECT id, display_name, password_hash FROM accounts WHERE email = $1", 1},
	{"session_insert", "INSERT INTO sessions (token_hash, account_id) VALUES (decode($1, 'hex'), $2)", 2},
	{"session_delete", "DELETE FROM sessions WHERE token_hash = decode($1, 'hex')", 1},
	{"session_purge", "DELETE FROM sessions WHERE account_id = $1 AND (last_seen <= now() - $2::float8 * interval '1 second' OR created_at <= now() - $3::float8 * interval '1 second')", 3},
	{"session_get", "WITH s AS (SELECT token_hash, account_id, last_seen, (clock_timestamp() < last_seen + $2::float8 * interval '1 second' AND clock_timestamp() < created_at + $3::float8 * interval '1 second') AS valid FROM sessions WHERE token_hash = decode($1, 'hex')), u AS (UPDATE sessions t SET last_seen = clock_timestamp() FROM s WHERE t.token_hash = s.token_hash AND s.valid AND s.last_seen < clock_timestamp() - $4::float8 * interval '1 second' RETURNING 1) SELECT s.valid, a.id, a.email, a.display_name, l.id IS NOT NULL, EXISTS (SELECT 1 FROM league_owners o WHERE o.league_id = l.id AND o.account_id = a.id), coalesce((SELECT m.id FROM league_members m WHERE m.league_id = l.id AND m.account_id = a.id), ''), l.version FROM s JOIN accounts a ON a.id = s.account_id LEFT JOIN leagues l ON l.id = $5", 5},

	/* failed log-ins per address group and e-mail hash (migrations/0022_login_failures.sql;
	 * src/leagues/accounts.c; rows read in src/db/accounts.c) */
	/* db_login_wait */
	{"login_wait",
	 "SELECT greatest(0, ceil(extract(epoch FROM blocked_until - now())))::int AS wait_s "
	 "  FROM login_failures "
	 " WHERE email_hash = decode($2, 'hex') "
	 "   AND addr_group = $1", 2},
	/* db_login_failed: $3 free failures, $4 base and $5 longest delay, $6 forget after (s) */
	{"login_failed",
	 "WITH gone AS ( "
	 "    DELETE FROM login_failures "
	 "     WHERE last_failure < now() - $6::float8 * interval '1 second' "
	 "       AND NOT (email_hash = decode($2, 'hex') AND addr_group = $1) "
	 ") "
	 "INSERT INTO login_failures AS f "
	 "       (email_hash, addr_group, failures, last_failure, blocked_until) "
	 "VALUES (decode($2, 'hex'), $1, 1, now(), "
	 "        now() + login_delay(1, $3::int, $4::float8, $5::float8)) "
	 "ON CONFLICT (email_hash, addr_group) DO UPDATE "
	 "   SET failures = login_failures_next(f.failures, f.last_failure, $6::float8), "
	 "       last_failure = now(), "
	 "       blocked_until = now() + login_delay( "
	 "           login_failures_next(f.failures, f.last_failure, $6::float8), "
	 "           $3::int, $4::float8, $5::float8) "
	 "RETURNING f.failures", 6},
	/* db_login_forget */
	{"login_forget",
	 "DELETE FROM login_failures "
	 " WHERE email_hash = decode($2, 'hex') "
	 "   AND addr_group = $1", 2},

	/* an account by id or e-mail, for the leagues (rows read in src/db/accounts.c) */
	{"account_find", "SELECT id FROM accounts WHERE id = $1 OR email = lower($1)", 1},
	/* consent: invitations, claims of guests, merges kept to be undone (migrations/0021_consent.sql; src/leagues/consent.c; rows read in src/db/consent.c) */
	{"invitation_insert", "WITH i AS (INSERT INTO league_invitations (id, league_id, account_id, role, name, member_id, invited_by) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (league_id, account_id, role) DO NOTHING RETURNING id) SELECT id, true FROM i UNION ALL SELECT o.id, false FROM league_invitations o WHERE o.league_id = $2 AND o.account_id = $3 AND o.role = $4", 7},
	{"invitations_of_account", "SELECT i.id, i.league_id, l.name, i.role, coalesce(i.name, m.name, ''), coalesce(i.member_id, ''), coalesce(a.display_name, ''), to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM league_invitations i JOIN leagues l ON l.id = i.league_id LEFT JOIN league_members m ON m.id = i.member_id LEFT JOIN accounts a ON a.id = i.invited_by WHERE i.account_id = $1 ORDER BY i.created_at, i.id", 1},
	{"invitations_of_league", "SELECT i.id, i.account_id, a.email, a.display_name, i.role, coalesce(i.name, m.name, ''), coalesce(i.member_id, ''), to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM league_invitations i JOIN accounts a ON a.id = i.account_id LEFT JOIN league_members m ON m.id = i.member_id WHERE i.league_id = $1 ORDER BY i.created_at, i.id", 1},
	{"invitation_get", "SELECT i.league_id, i.account_id, i.role, i.name, i.member_id FROM league_invitations i WHERE i.id = $1", 1},
	{"invitation_delete", "DELETE FROM league_invitations WHERE id = $1 AND league_id = $2 RETURNING id", 2},
	{"claim_insert", "WITH i AS (INSERT INTO member_claims (id, league_id, guest_id, account_id) VALUES ($1, $2, $3, $4) ON CONFLICT (guest_id, account_id) DO NOTHING RETURNING id) SELECT id, true FROM i UNION ALL SELECT o.id, false FROM member_claims o WHERE o.guest_id = $3 AND o.account_id = $4", 4},
	{"claims_of_league", "SELECT c.id, c.guest_id, g.name, (SELECT count(*) FROM play_results r WHERE r.member_id = c.guest_id), c.account_id, a.display_name, coalesce(y.id, ''), coalesce(y.name, ''), to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM member_claims c JOIN league_members g ON g.id = c.guest_id JOIN accounts a ON a.id = c.account_id LEFT JOIN league_members y ON y.league_id = c.league_id AND y.account_id = c.account_id WHERE c.league_id = $1 AND ($2::text IS NULL OR c.account_id = $2) ORDER BY c.created_at, c.id", 2},
	{"claim_get", "SELECT c.guest_id, c.account_id FROM member_claims c WHERE c.id = $1 AND c.league_id = $2", 2},
	{"claim_delete", "DELETE FROM member_claims WHERE id = $1 AND league_id = $2 AND ($3::text IS NULL OR account_id = $3) RETURNING id", 3},
	{"claims_drop_guest", "DELETE FROM member_claims WHERE guest_id = $1", 1},
	{"merge_insert", "INSERT INTO member_merges (id, league_id, into_id, from_id, from_name, from_account, from_anonymous, from_created_at, plays, by_account) SELECT $1, m.league_id, $4, m.id, m.name, m.account_id, m.anonymous, m.created_at, ARRAY(SELECT r.play_id FROM play_results r WHERE r.member_id = m.id ORDER BY r.play_id), $5 FROM league_members m WHERE m.league_id = $2 AND m.id = $3 RETURNING id", 5},
	{"merges_of_league", "SELECT g.id, g.from_id, g.from_name, g.into_id, m.name, cardinality(g.plays), coalesce(a.display_name, ''), to_char(g.at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM member_merges g JOIN league_members m ON m.id = g.into_id LEFT JOIN accounts a ON a.id = g.by_account WHERE g.league_id = $1 ORDER BY g.at DESC, g.id", 1},
	{"merge_get", "SELECT g.from_id, g.from_name, g.into_id FROM member_merges g WHERE g.id = $1 AND g.league_id = $2", 2},
	{"merge_restore_member", "INSERT INTO league_members (id, league_id, name, anonymous, created_at, name_clash) SELECT g.from_id, g.league_id, g.from_name, g.from_anonymous, g.from_created_at, $3::boolean FROM member_merges g WHERE g.id = $1 AND g.league_id = $2 ON CONFLICT DO NOTHING RETURNING id", 3},
	{"merge_restore_results", "UPDATE play_results r SET member_id = g.from_id FROM member_merges g WHERE g.id = $1 AND r.member_id = g.into_id AND r.play_id = ANY (g.plays)", 1},
	{"merge_unlink_into", "UPDATE league_members m SET account_id = NULL FROM member_merges g WHERE g.id = $1 AND m.id = g.into_id AND m.account_id = g.from_account RETURNING g.from_id, g.from_account", 1},
	{"merge_delete", "DELETE FROM member_merges WHERE id = $1", 1},
	/* scoring profiles of Dice Hospital and Clinic (db/profiles.c, migration 0003) */
	{"profile_insert", "INSERT INTO profiles (game, id, name, body, league) VALUES ($1, $2, $3, $4::jsonb, $5) ON CONFLICT (game, id) DO NOTHING RETURNING id", 5},
	{"profile_get", "SELECT body::text FROM profiles WHERE game = $1 AND id = $2", 2},
	{"profiles_list", "SELECT game, id, body::text, league, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM profiles WHERE $1::text IS NULL OR game = $1 ORDER BY game, id", 1},
	DB_STATEMENTS_END,
};
// clang-format on
#pragma GCC diagnostic pop

const db_statement *const db_statement_tables[] = {
    db_health_statements,         db_readpool_statements,     db_leagues_statements,
    db_league_members_statements, db_league_plays_statements, db_league_ratings_statements,
    db_league_scopes_statements,  db_league_stats_statements, db_league_export_statements,
    db_league_files_statements,   db_statements_unsplit,      NULL,
};

const db_statement *db_statement_find(const char *name)
{
	if (!name)
		return NULL;
	for (const db_statement *const *t = db_statement_tables; *t; t++)
		for (const db_statement *s = *t; s->name; s++)
			if (strcmp(s->name, name) == 0)
				return s;
	return NULL;
}
