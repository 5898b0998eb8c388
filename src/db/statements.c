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

	/* the table engine: games, seats, events (migrations 0002 and 0005; their rows are read in
	 * src/db/games.c and nowhere else) */
	{"game_insert", "INSERT INTO games (id, kind, code, host_token_hash, config, league) VALUES ($1, $2, $3, decode($4, 'hex'), $5::jsonb, $6) ON CONFLICT (code) DO NOTHING RETURNING id", 6},
	{"seat_insert", "INSERT INTO seats (game_id, seat, name, bot, token_hash) VALUES ($1, $2::int, $3, $4::boolean, decode($5, 'hex'))", 5},
	{"game_get", "SELECT g.kind, g.config, g.version, g.status = 'finished', g.host_token_hash = decode($2, 'hex'), s.seat, coalesce(s.claimed, false), (SELECT r.seat FROM replaced_tokens r WHERE r.game_id = g.id AND r.token_hash = decode($2, 'hex')), g.code, coalesce(g.league, ''), to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM games g LEFT JOIN seats s ON s.game_id = g.id AND s.token_hash = decode($2, 'hex') WHERE g.id = $1", 2},
	{"game_lock", "SELECT g.kind, g.config, g.version, g.status = 'finished', g.host_token_hash = decode($2, 'hex'), s.seat, coalesce(s.claimed, false), (SELECT r.seat FROM replaced_tokens r WHERE r.game_id = g.id AND r.token_hash = decode($2, 'hex')), g.code, coalesce(g.league, ''), to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM games g LEFT JOIN seats s ON s.game_id = g.id AND s.token_hash = decode($2, 'hex') WHERE g.id = $1 FOR UPDATE OF g", 2},
	{"seats_list", "SELECT seat, name, bot, claimed FROM seats WHERE game_id = $1 ORDER BY seat", 1},
	{"seat_claim", "UPDATE seats SET claimed = true WHERE game_id = $1 AND seat = $2::int AND NOT claimed", 2},
	{"join_lock", "SELECT g.id, g.kind, s.name, s.claimed, encode(s.token_hash, 'hex') FROM seats s JOIN games g ON g.id = s.game_id WHERE g.code = $1 AND s.seat = $2::int AND NOT s.bot FOR UPDATE OF s", 2},
	{"join_take", "WITH old AS (INSERT INTO replaced_tokens (token_hash, game_id, seat) SELECT decode($3, 'hex'), $1, $2::int WHERE $3::text IS NOT NULL ON CONFLICT DO NOTHING) UPDATE seats SET token_hash = decode($4, 'hex'), claimed = true WHERE game_id = $1 AND seat = $2::int", 4},
	{"game_by_code", "SELECT id, kind FROM games WHERE code = $1", 1},
	{"events_between", "SELECT version, kind, coalesce(seat, 0), turn, payload FROM events WHERE game_id = $1 AND version > $2::int AND version <= $3::int ORDER BY version", 3},
	{"events_log", "SELECT version, kind, coalesce(seat, 0), turn, payload, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM events WHERE game_id = $1 AND version <= $2::int ORDER BY version", 2},
	{"events_since_n", "SELECT version, kind, coalesce(seat, 0), turn FROM events WHERE game_id = $1 AND version > $2::int ORDER BY version LIMIT $3::int", 3},
	/* kept for src/api/live.c until it reads its rows through db_events_since */
	{"events_since", "SELECT version, kind, coalesce(seat, 0), turn FROM events WHERE game_id = $1 AND version > $2::int ORDER BY version LIMIT 64", 2},
	{"events_append_notify", "WITH e AS (INSERT INTO events (game_id, version, kind, seat, turn, payload) SELECT $1, x.version, x.kind, x.seat, x.turn, x.payload FROM jsonb_to_recordset($2::jsonb) AS x(version int, kind text, seat int, turn int, payload jsonb) RETURNING 1), u AS (UPDATE games SET version = $3::int, status = $4, result = $5::jsonb, updated_at = now() WHERE id = $1 RETURNING id) SELECT pg_notify('game_events', u.id || ':' || $3), (SELECT count(*) FROM e) FROM u", 5},
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
