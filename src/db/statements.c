/* The prepared statements: every SQL statement the server runs at request time.
 *
 * Each row is {name, sql, nparams}, ONE LINE PER STATEMENT (clang-format is off for the table so
 * long SQL stays on its line and `grep name src/db/statements.c` finds it):
 *   - name: "resource_action" (e.g. "er_game_get"), unique; handlers call db_exec(c, name, …);
 *   - sql: parameters $1 … $nparams, sent as text (cast in SQL where the type matters: $1::int);
 *   - nparams: checked by db_exec against the caller's count.
 * Every row is prepared on every new connection (db.c); a statement that fails to prepare is
 * logged as a bug at connect time and then fails each time it is used. Keep rows grouped by
 * resource, in the order of the migrations that create their tables. */
#include "db/db.h"

#include <string.h>

// clang-format off
const db_statement db_statements[] = {
	/* health (src/api/health.c) */
	{"health_ping", "SELECT 1", 0},

	/* games, seats, events (migrations/0002_games.sql; src/api/er_games.c, src/api/live.c) */
	{"game_insert", "INSERT INTO games (id, kind, code, host_token_hash, config, league) VALUES ($1, 'er', $2, decode($3, 'hex'), $4::jsonb, $5) ON CONFLICT (code) DO NOTHING RETURNING id", 5},
	{"seat_insert", "INSERT INTO seats (game_id, seat, name, bot, token_hash) VALUES ($1, $2::int, $3, $4::boolean, decode($5, 'hex'))", 5},
	{"game_get", "SELECT g.kind, g.config, g.version, g.host_token_hash = decode($2, 'hex'), (SELECT s.seat FROM seats s WHERE s.game_id = g.id AND s.token_hash = decode($2, 'hex')), g.code, coalesce(g.league, '') FROM games g WHERE g.id = $1", 2},
	{"game_lock", "SELECT g.kind, g.config, g.version, g.host_token_hash = decode($2, 'hex'), (SELECT s.seat FROM seats s WHERE s.game_id = g.id AND s.token_hash = decode($2, 'hex')), g.code, coalesce(g.league, '') FROM games g WHERE g.id = $1 FOR UPDATE", 2},
	{"seats_list", "SELECT seat, name, bot FROM seats WHERE game_id = $1 ORDER BY seat", 1},
	{"events_list", "SELECT version, kind, coalesce(seat, 0), turn, payload, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM events WHERE game_id = $1 ORDER BY version", 1},
	{"events_since", "SELECT version, kind, coalesce(seat, 0), turn FROM events WHERE game_id = $1 AND version > $2::int ORDER BY version LIMIT 64", 2},
	{"event_insert", "INSERT INTO events (game_id, version, kind, seat, turn, payload) VALUES ($1, $2::int, $3, $4::int, $5::int, $6::jsonb)", 6},
	{"events_after", "SELECT version, kind, coalesce(seat, 0), turn, payload FROM events WHERE game_id = $1 AND version > $2::int ORDER BY version", 2},
	{"game_update_notify", "WITH u AS (UPDATE games SET version = $2::int, status = $3, result = $4::jsonb, updated_at = now() WHERE id = $1 RETURNING id) SELECT pg_notify('game_events', u.id || ':' || $2) FROM u", 4},
	{"seat_join", "UPDATE seats s SET token_hash = decode($3, 'hex') FROM games g WHERE g.id = s.game_id AND g.code = $1 AND s.seat = $2::int AND NOT s.bot RETURNING g.id, g.kind, s.name", 3},

	/* accounts and sessions (migrations/0004_leagues.sql; src/api/accounts.c, issue 10) */
	{"account_insert", "INSERT INTO accounts (id, email, display_name, password_hash) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING RETURNING id", 4},
	{"account_by_email", "SELECT id, display_name, password_hash FROM accounts WHERE email = $1", 1},
	{"session_insert", "INSERT INTO sessions (token_hash, account_id) VALUES (decode($1, 'hex'), $2)", 2},
	{"session_delete", "DELETE FROM sessions WHERE token_hash = decode($1, 'hex')", 1},
	{"session_purge", "DELETE FROM sessions WHERE account_id = $1 AND (last_seen <= now() - $2::float8 * interval '1 second' OR created_at <= now() - $3::float8 * interval '1 second')", 3},
	{"session_get", "WITH s AS (SELECT token_hash, account_id, last_seen, (clock_timestamp() < last_seen + $2::float8 * interval '1 second' AND clock_timestamp() < created_at + $3::float8 * interval '1 second') AS valid FROM sessions WHERE token_hash = decode($1, 'hex')), u AS (UPDATE sessions t SET last_seen = clock_timestamp() FROM s WHERE t.token_hash = s.token_hash AND s.valid AND s.last_seen < clock_timestamp() - $4::float8 * interval '1 second' RETURNING 1) SELECT s.valid, a.id, a.email, a.display_name FROM s JOIN accounts a ON a.id = s.account_id", 4},
};
// clang-format on

const size_t db_nstatements = sizeof db_statements / sizeof db_statements[0];

const db_statement *db_statement_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < db_nstatements; i++)
		if (strcmp(db_statements[i].name, name) == 0)
			return &db_statements[i];
	return NULL;
}
