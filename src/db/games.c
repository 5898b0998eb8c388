/* The table engine's statements (games, seats, events) and their typed rows (games.h): the SQL
 * of each statement, its columns and its reader, here and nowhere else. */
#include "db/games.h"
#include "db/games_sql.h"

#include "base/oom.h"
#include "db/rows.h"
#include "db/statements.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void itoa10(int v, char buf[16])
{
	snprintf(buf, 16, "%d", v);
}

/* ---- the statements ---- */

/* game_get / game_lock (the same row, the second locking the game): the game, and what the
 * token ($2, hex) is to it: the host's, a seat's (token_seat, NULL for none), one a join or a
 * new display link replaced (replaced_seat: NULL when not replaced, 0 the display's), the
 * display's. */
#define GAME_GET_COLUMNS(C)                                                                        \
	C(GAME_GET_KIND, kind)                                                                     \
	C(GAME_GET_CONFIG, config)                                                                 \
	C(GAME_GET_VERSION, version)                                                               \
	C(GAME_GET_FINISHED, finished)                                                             \
	C(GAME_GET_IS_HOST, is_host)                                                               \
	C(GAME_GET_TOKEN_SEAT, token_seat)                                                         \
	C(GAME_GET_TOKEN_CLAIMED, token_claimed)                                                   \
	C(GAME_GET_REPLACED_SEAT, replaced_seat)                                                   \
	C(GAME_GET_CODE, code)                                                                     \
	C(GAME_GET_LEAGUE, league)                                                                 \
	C(GAME_GET_CREATED_AT, created_at)                                                         \
	C(GAME_GET_FINISHED_AT, finished_at)                                                       \
	C(GAME_GET_IS_DISPLAY, is_display)
DB_COLUMNS(GAME_GET_COLUMNS, GAME_GET_NCOLS);
// clang-format off
#define GAME_GET_SQL \
	"SELECT g.kind, " \
	"       g.config, " \
	"       g.version, " \
	"       g.status = 'finished' AS finished, " \
	"       g.host_token_hash = decode($2, 'hex') AS is_host, " \
	"       s.seat AS token_seat, " \
	"       coalesce(s.claimed, false) AS token_claimed, " \
	"       (SELECT r.seat " \
	"          FROM replaced_tokens r " \
	"         WHERE r.game_id = g.id " \
	"           AND r.token_hash = decode($2, 'hex')) AS replaced_seat, " \
	"       g.code, " \
	"       coalesce(g.league, '') AS league, " \
	"       to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS created_at, " \
	"       coalesce(g.result->>'finished_at', '') AS finished_at, " \
	"       coalesce(g.display_token_hash = decode($2, 'hex'), false) AS is_display " \
	"  FROM games g " \
	"  LEFT JOIN seats s ON s.game_id = g.id " \
	"       AND decode($2, 'hex') IN (s.token_hash, s.link_hash) " \
	" WHERE g.id = $1"
// clang-format on

/* game_insert: the id when the game was inserted, no row when its code was taken */
#define GAME_INSERT_COLUMNS(C) C(GAME_INSERT_ID, id) C(GAME_INSERT_SEATS, seats)
DB_COLUMNS(GAME_INSERT_COLUMNS, GAME_INSERT_NCOLS);

/* seats_list: the seats of a game in order */
#define SEATS_LIST_COLUMNS(C)                                                                      \
	C(SEATS_LIST_SEAT, seat)                                                                   \
	C(SEATS_LIST_NAME, name)                                                                   \
	C(SEATS_LIST_BOT, bot)                                                                     \
	C(SEATS_LIST_CLAIMED, claimed)
DB_COLUMNS(SEATS_LIST_COLUMNS, SEATS_LIST_NCOLS);

/* join_lock: the seat of a game's code that a player joins, locked */
#define JOIN_LOCK_COLUMNS(C)                                                                       \
	C(JOIN_LOCK_GAME, game)                                                                    \
	C(JOIN_LOCK_KIND, kind)                                                                    \
	C(JOIN_LOCK_NAME, name)                                                                    \
	C(JOIN_LOCK_CLAIMED, claimed)
DB_COLUMNS(JOIN_LOCK_COLUMNS, JOIN_LOCK_NCOLS);

/* token_replaced: has a join or a new display link replaced this token of the game? */
#define TOKEN_REPLACED_COLUMNS(C) C(TOKEN_REPLACED_REPLACED, replaced)
DB_COLUMNS(TOKEN_REPLACED_COLUMNS, TOKEN_REPLACED_NCOLS);

/* game_by_code */
#define GAME_BY_CODE_COLUMNS(C) C(GAME_BY_CODE_ID, id) C(GAME_BY_CODE_KIND, kind)
DB_COLUMNS(GAME_BY_CODE_COLUMNS, GAME_BY_CODE_NCOLS);

/* events_since_n, events_between, events_log: a game's events in order, each list the one
 * before and one more column (the payload, then when it was written); one enum for the three */
#define EVENTS_SINCE_COLUMNS(C)                                                                    \
	C(EVENT_VERSION, version)                                                                  \
	C(EVENT_KIND, kind)                                                                        \
	C(EVENT_SEAT, seat)                                                                        \
	C(EVENT_TURN, turn)
#define EVENTS_BETWEEN_COLUMNS(C) EVENTS_SINCE_COLUMNS(C) C(EVENT_PAYLOAD, payload)
#define EVENTS_LOG_COLUMNS(C)     EVENTS_BETWEEN_COLUMNS(C) C(EVENT_AT, at)
DB_COLUMNS(EVENTS_LOG_COLUMNS, EVENT_NCOLS);

/* events_append, events_append_if: how many events were written; events_append_if returns no
 * row when the game was not as expected (nothing written) */
#define EVENTS_APPEND_COLUMNS(C) C(EVENTS_APPEND_EVENTS, events)
DB_COLUMNS(EVENTS_APPEND_COLUMNS, EVENTS_APPEND_NCOLS);
/* events_append_if's: and how many seats it claimed (0 or 1, with claim) */
#define EVENTS_APPEND_IF_COLUMNS(C)                                                                \
	C(EVENTS_APPEND_IF_EVENTS, events) C(EVENTS_APPEND_IF_CLAIMED, claimed)
DB_COLUMNS(EVENTS_APPEND_IF_COLUMNS, EVENTS_APPEND_IF_NCOLS);

/* The table engine's statements: games, seats, events (migrations 0002 and 0005). */
// clang-format off
const db_statement db_games_statements[] = {
	/* the game and its seats ($7 … $10, one array a column); no row when the code is taken */
	{"game_insert",
	 "WITH g AS ( "
	 "    INSERT INTO games (id, kind, code, host_token_hash, config, league) "
	 "    VALUES ($1, $2, $3, decode($4, 'hex'), $5::jsonb, $6) "
	 "    ON CONFLICT (code) DO NOTHING "
	 "    RETURNING id "
	 "), s AS ( "
	 "    INSERT INTO seats (game_id, seat, name, bot, token_hash) "
	 "    SELECT g.id, x.seat, x.name, x.bot <> 0, decode(x.hash, 'hex') "
	 "      FROM g, "
	 "           unnest($7::int[], $8::text[], $9::int[], $10::text[]) "
	 "           AS x(seat, name, bot, hash) "
	 "    RETURNING 1 "
	 ") "
	 "SELECT g.id, "
	 "       (SELECT count(*) FROM s) AS seats "
	 "  FROM g",
	 10, DB_COLUMN_NAMES(GAME_INSERT_COLUMNS)},
	{"game_get",
	 GAME_GET_SQL,
	 2, DB_COLUMN_NAMES(GAME_GET_COLUMNS)},
	{"game_lock",
	 GAME_GET_SQL " "
	 "   FOR UPDATE OF g",
	 2, DB_COLUMN_NAMES(GAME_GET_COLUMNS)},
	{"seats_list",
	 "SELECT seat, name, bot, claimed "
	 "  FROM seats "
	 " WHERE game_id = $1 "
	 " ORDER BY seat",
	 1, DB_COLUMN_NAMES(SEATS_LIST_COLUMNS)},
	{"seat_claim",
	 "UPDATE seats "
	 "   SET claimed = true "
	 " WHERE game_id = $1 "
	 "   AND seat = $2::int "
	 "   AND NOT claimed",
	 2, NULL},
	{"join_lock",
	 "SELECT g.id AS game, "
	 "       g.kind, "
	 "       s.name, "
	 "       s.claimed "
	 "  FROM seats s "
	 "  JOIN games g ON g.id = s.game_id "
	 " WHERE g.code = $1 "
	 "   AND s.seat = $2::int "
	 "   AND NOT s.bot "
	 "   FOR UPDATE OF s",
	 2, DB_COLUMN_NAMES(JOIN_LOCK_COLUMNS)},
	/* the seat gets token hash $3; with $4 (a seat no phone claimed) its link's token keeps
	 * playing it (link_hash), else the seat's tokens are kept as replaced */
	{"join_take",
	 "WITH old AS ( "
	 "    INSERT INTO replaced_tokens (token_hash, game_id, seat) "
	 "    SELECT t.hash, s.game_id, s.seat "
	 "      FROM seats s "
	 "     CROSS JOIN LATERAL (VALUES (s.token_hash), (s.link_hash)) AS t(hash) "
	 "     WHERE s.game_id = $1 "
	 "       AND s.seat = $2::int "
	 "       AND NOT $4::boolean "
	 "       AND t.hash IS NOT NULL "
	 "    ON CONFLICT DO NOTHING "
	 ") "
	 "UPDATE seats "
	 "   SET link_hash = CASE WHEN $4::boolean THEN coalesce(link_hash, token_hash) END, "
	 "       token_hash = decode($3, 'hex'), "
	 "       claimed = true "
	 " WHERE game_id = $1 "
	 "   AND seat = $2::int",
	 4, NULL},
	{"display_replace",
	 "WITH old AS ( "
	 "    INSERT INTO replaced_tokens (token_hash, game_id, seat) "
	 "    SELECT display_token_hash, id, 0 "
	 "      FROM games "
	 "     WHERE id = $1 "
	 "       AND display_token_hash IS NOT NULL "
	 "    ON CONFLICT DO NOTHING "
	 ") "
	 "UPDATE games "
	 "   SET display_token_hash = decode($2, 'hex') "
	 " WHERE id = $1",
	 2, NULL},
	{"token_replaced",
	 "SELECT EXISTS ( "
	 "           SELECT 1 "
	 "             FROM replaced_tokens "
	 "            WHERE token_hash = decode($2, 'hex') "
	 "              AND game_id = $1 "
	 "       ) AS replaced",
	 2, DB_COLUMN_NAMES(TOKEN_REPLACED_COLUMNS)},
	{"game_by_code",
	 "SELECT id, kind "
	 "  FROM games "
	 " WHERE code = $1",
	 1, DB_COLUMN_NAMES(GAME_BY_CODE_COLUMNS)},
	{"events_between",
	 "SELECT version, kind, coalesce(seat, 0) AS seat, turn, payload "
	 "  FROM events "
	 " WHERE game_id = $1 "
	 "   AND version > $2::int "
	 "   AND version <= $3::int "
	 " ORDER BY version",
	 3, DB_COLUMN_NAMES(EVENTS_BETWEEN_COLUMNS)},
	{"events_log",
	 "SELECT version, kind, coalesce(seat, 0) AS seat, turn, payload, "
	 "       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') AS at "
	 "  FROM events "
	 " WHERE game_id = $1 "
	 "   AND version <= $2::int "
	 " ORDER BY version",
	 2, DB_COLUMN_NAMES(EVENTS_LOG_COLUMNS)},
	{"events_since_n",
	 "SELECT version, kind, coalesce(seat, 0) AS seat, turn "
	 "  FROM events "
	 " WHERE game_id = $1 "
	 "   AND version > $2::int "
	 " ORDER BY version "
	 " LIMIT $3::int",
	 3, DB_COLUMN_NAMES(EVENTS_SINCE_COLUMNS)},
	/* the events of a batch ($2 … $6, one array a column) and the game's new state */
	{"events_append",
	 "WITH e AS ( "
	 "    INSERT INTO events (game_id, version, kind, seat, turn, payload) "
	 "    SELECT $1, x.version, x.kind, x.seat, x.turn, x.payload "
	 "      FROM unnest($2::int[], $3::text[], $4::int[], $5::int[], $6::jsonb[]) "
	 "           AS x(version, kind, seat, turn, payload) "
	 "    RETURNING 1 "
	 "), u AS ( "
	 "    UPDATE games "
	 "       SET version = $7::int, "
	 "           status = $8, "
	 "           result = $9::jsonb, "
	 "           updated_at = now() "
	 "     WHERE id = $1 "
	 "    RETURNING id "
	 ") "
	 "SELECT (SELECT count(*) FROM e) AS events "
	 "  FROM u",
	 9, DB_COLUMN_NAMES(EVENTS_APPEND_COLUMNS)},
	/* the same, only while the game is at version $10, playing, and $12 is the token of seat $11
	 * (0: the host) */
	{"events_append_if",
	 "WITH u AS ( "
	 "    UPDATE games g "
	 "       SET version = $7::int, "
	 "           status = $8, "
	 "           result = $9::jsonb, "
	 "           updated_at = now() "
	 "     WHERE g.id = $1 "
	 "       AND g.version = $10::int "
	 "       AND g.status = 'playing' "
	 "       AND " DB_GAME_TOKEN_OK_SQL("$11::int", "$12", "$13::boolean")
	 "    RETURNING g.id "
	 "), c AS ( "
	 "    UPDATE seats s "
	 "       SET claimed = true "
	 "      FROM u "
	 "     WHERE $13::boolean "
	 "       AND s.game_id = u.id "
	 "       AND s.seat = $11::int "
	 "       AND NOT s.claimed "
	 "    RETURNING 1 "
	 "), e AS ( "
	 "    INSERT INTO events (game_id, version, kind, seat, turn, payload) "
	 "    SELECT u.id, x.version, x.kind, x.seat, x.turn, x.payload "
	 "      FROM u, "
	 "           unnest($2::int[], $3::text[], $4::int[], $5::int[], $6::jsonb[]) "
	 "           AS x(version, kind, seat, turn, payload) "
	 "    RETURNING 1 "
	 ") "
	 "SELECT (SELECT count(*) FROM e) AS events, "
	 "       (SELECT count(*) FROM c) AS claimed "
	 "  FROM u",
	 13, DB_COLUMN_NAMES(EVENTS_APPEND_IF_COLUMNS)},
	DB_STATEMENTS_END,
};
// clang-format on

/* ---- games ---- */

void db_game_row_clear(db_game_row *g)
{
	free(g->config);
	g->config = NULL;
}

db_status db_game_get(db_conn *c, const char *id, const char *hash_hex, bool lock, db_game_row *out)
{
	const char *p[2] = {id, hash_hex ? hash_hex : ""};
	PGresult *r;
	memset(out, 0, sizeof *out);
	db_status st = db_run(c, lock ? "game_lock" : "game_get", 2, p, &r);
	if (st != DB_OK)
		return st;
	if (PQntuples(r) == 1) {
		out->found = true;
		db_col_copy(r, 0, GAME_GET_KIND, out->kind, sizeof out->kind);
		out->config = xstrdup(db_col_text(r, 0, GAME_GET_CONFIG));
		out->version = db_col_int(r, 0, GAME_GET_VERSION);
		out->finished = db_col_bool(r, 0, GAME_GET_FINISHED);
		out->is_host = db_col_bool(r, 0, GAME_GET_IS_HOST);
		out->token_seat = db_col_int(r, 0, GAME_GET_TOKEN_SEAT);
		out->token_claimed = db_col_bool(r, 0, GAME_GET_TOKEN_CLAIMED);
		out->replaced_seat = db_col_int(r, 0, GAME_GET_REPLACED_SEAT);
		out->replaced_display =
		    !db_col_null(r, 0, GAME_GET_REPLACED_SEAT) && out->replaced_seat == 0;
		db_col_copy(r, 0, GAME_GET_CODE, out->code, sizeof out->code);
		db_col_copy(r, 0, GAME_GET_LEAGUE, out->league, sizeof out->league);
		db_col_copy(r, 0, GAME_GET_CREATED_AT, out->created_at, sizeof out->created_at);
		db_col_copy(r, 0, GAME_GET_FINISHED_AT, out->finished_at, sizeof out->finished_at);
		out->is_display = db_col_bool(r, 0, GAME_GET_IS_DISPLAY);
	}
	PQclear(r);
	return DB_OK;
}

void db_seat_batch_add(db_seat_batch *b, int seat, const char *name, bool bot, const char *hash_hex)
{
	db_f8array_int4(&b->seats, seat);
	db_f8array_text(&b->names, name, strlen(name));
	db_f8array_int4(&b->bots, bot ? 1 : 0);
	if (hash_hex)
		db_f8array_text(&b->hashes, hash_hex, strlen(hash_hex));
	else
		db_f8array_null(&b->hashes);
}

void db_seat_batch_free(db_seat_batch *b)
{
	db_f8array_free(&b->seats);
	db_f8array_free(&b->names);
	db_f8array_free(&b->bots);
	db_f8array_free(&b->hashes);
}

db_status db_game_insert(db_conn *c, const char *id, const char *kind, const char *code,
                         const char *host_hash_hex, const char *config, const char *league,
                         db_seat_batch *seats, bool *inserted)
{
	const char *p[10] = {id, kind, code, host_hash_hex, config, league};
	int len[10] = {0}, fmt[10] = {0};
	db_f8array *cols[4] = {&seats->seats, &seats->names, &seats->bots, &seats->hashes};
	const unsigned oids[4] = {DB_ARRAY_INT4, DB_ARRAY_TEXT, DB_ARRAY_INT4, DB_ARRAY_TEXT};
	for (int k = 0; k < 4; k++) {
		cols[k]->oid = oids[k];
		p[6 + k] = db_f8array_done(cols[k], &len[6 + k]);
		fmt[6 + k] = 1;
	}
	PGresult *r;
	*inserted = false;
	db_status st = db_run_bin(c, "game_insert", 10, p, len, fmt, &r);
	if (st == DB_OK)
		*inserted = PQntuples(r) == 1;
	PQclear(r);
	return st;
}

db_status db_seats_list(db_conn *c, const char *id, db_seat_row *out, int max, int *n)
{
	const char *p[1] = {id};
	PGresult *r;
	*n = 0;
	db_status st = db_run(c, "seats_list", 1, p, &r);
	if (st != DB_OK)
		return st;
	for (int i = 0; i < PQntuples(r) && *n < max; i++) {
		db_seat_row *s = &out[(*n)++];
		s->seat = db_col_int(r, i, SEATS_LIST_SEAT);
		db_col_copy(r, i, SEATS_LIST_NAME, s->name, sizeof s->name);
		s->bot = db_col_bool(r, i, SEATS_LIST_BOT);
		s->claimed = db_col_bool(r, i, SEATS_LIST_CLAIMED);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_seat_claim(db_conn *c, const char *id, int seat)
{
	char s[16];
	itoa10(seat, s);
	const char *p[2] = {id, s};
	return db_run_count(c, "seat_claim", 2, p, NULL);
}

static void read_join(const PGresult *r, int i, void *row)
{
	db_join_row *x = row;
	DB_COPY_COLUMN(JOIN_LOCK_GAME, game)
	DB_COPY_COLUMN(JOIN_LOCK_KIND, kind)
	DB_COPY_COLUMN(JOIN_LOCK_NAME, name)
	x->claimed = db_col_bool(r, i, JOIN_LOCK_CLAIMED);
}

db_status db_join_lock(db_conn *c, const char *code, int seat, db_join_row *out)
{
	char s[16];
	itoa10(seat, s);
	const char *p[2] = {code, s};
	memset(out, 0, sizeof *out);
	return db_get_one(c, "join_lock", 2, p, read_join, out, &out->found);
}

db_status db_join_take(db_conn *c, const char *game, int seat, const char *new_hash_hex,
                       bool keep_link)
{
	char s[16];
	itoa10(seat, s);
	const char *p[4] = {game, s, new_hash_hex, keep_link ? "t" : "f"};
	return db_run_count(c, "join_take", 4, p, NULL);
}

db_status db_display_replace(db_conn *c, const char *id, const char *new_hash_hex)
{
	const char *p[2] = {id, new_hash_hex};
	return db_run_count(c, "display_replace", 2, p, NULL);
}

db_status db_token_replaced(db_conn *c, const char *id, const char *hash_hex, bool *replaced)
{
	const char *p[2] = {id, hash_hex};
	PGresult *r;
	*replaced = false;
	db_status st = db_run(c, "token_replaced", 2, p, &r);
	if (st != DB_OK)
		return st;
	*replaced = PQntuples(r) == 1 && db_col_bool(r, 0, TOKEN_REPLACED_REPLACED);
	PQclear(r);
	return DB_OK;
}

db_status db_game_by_code(db_conn *c, const char *code, bool *found, char game[DB_NAME_MAX + 1],
                          char kind[DB_KIND_MAX + 1])
{
	const char *p[1] = {code};
	PGresult *r;
	*found = false;
	db_status st = db_run(c, "game_by_code", 1, p, &r);
	if (st != DB_OK)
		return st;
	if (PQntuples(r) == 1) {
		*found = true;
		db_col_copy(r, 0, GAME_BY_CODE_ID, game, DB_NAME_MAX + 1);
		db_col_copy(r, 0, GAME_BY_CODE_KIND, kind, DB_KIND_MAX + 1);
	}
	PQclear(r);
	return DB_OK;
}

/* ---- events ---- */

/* Walks the rows of an events_* statement: EVENTS_SINCE_COLUMNS, then the payload when
 * ncols > EVENT_PAYLOAD, then when it was written when ncols > EVENT_AT. */
static db_status walk_events(PGresult *r, int ncols, db_event_fn fn, void *arg, int *stopped_rc)
{
	if (stopped_rc)
		*stopped_rc = 0;
	for (int i = 0; i < PQntuples(r); i++) {
		db_event_row row = {
		    .version = db_col_int(r, i, EVENT_VERSION),
		    .kind = db_col_text(r, i, EVENT_KIND),
		    .seat = db_col_int(r, i, EVENT_SEAT),
		    .turn = db_col_int(r, i, EVENT_TURN),
		    .payload = ncols > EVENT_PAYLOAD ? db_col_text(r, i, EVENT_PAYLOAD) : "",
		    .at = ncols > EVENT_AT ? db_col_text(r, i, EVENT_AT) : "",
		};
		int rc = fn(&row, arg);
		if (rc != 0) {
			if (stopped_rc)
				*stopped_rc = rc;
			break;
		}
	}
	PQclear(r);
	return DB_OK;
}

/* Runs one of the events_* statements and walks its rows (ncols as walk_events). */
static db_status run_events(db_conn *c, const char *stmt, int np, const char *const *p, int ncols,
                            db_event_fn fn, void *arg, int *stopped_rc)
{
	PGresult *r;
	db_status st = db_run(c, stmt, np, p, &r);
	return st != DB_OK ? st : walk_events(r, ncols, fn, arg, stopped_rc);
}

db_status db_events_between(db_conn *c, const char *id, int after, int upto, db_event_fn fn,
                            void *arg, int *stopped_rc)
{
	char a[16], u[16];
	itoa10(after, a);
	itoa10(upto, u);
	const char *p[3] = {id, a, u};
	return run_events(c, "events_between", 3, p, EVENT_AT, fn, arg, stopped_rc);
}

db_status db_events_log(db_conn *c, const char *id, int upto, db_event_fn fn, void *arg,
                        int *stopped_rc)
{
	char u[16];
	itoa10(upto, u);
	const char *p[2] = {id, u};
	return run_events(c, "events_log", 2, p, EVENT_NCOLS, fn, arg, stopped_rc);
}

db_status db_events_since(db_conn *c, const char *id, int after, int limit, db_event_fn fn,
                          void *arg, int *stopped_rc)
{
	char a[16], l[16];
	itoa10(after, a);
	itoa10(limit, l);
	const char *p[3] = {id, a, l};
	return run_events(c, "events_since_n", 3, p, EVENT_PAYLOAD, fn, arg, stopped_rc);
}

void db_event_batch_add(db_event_batch *b, int version, const char *kind, int seat, int turn,
                        const char *payload, size_t len)
{
	db_f8array_int4(&b->versions, version);
	db_f8array_text(&b->kinds, kind, strlen(kind));
	if (seat)
		db_f8array_int4(&b->seats, seat);
	else
		db_f8array_null(&b->seats);
	db_f8array_int4(&b->turns, turn);
	db_f8array_jsonb(&b->payloads, payload, len);
}

void db_event_batch_free(db_event_batch *b)
{
	db_f8array_free(&b->versions);
	db_f8array_free(&b->kinds);
	db_f8array_free(&b->seats);
	db_f8array_free(&b->turns);
	db_f8array_free(&b->payloads);
}

/* The batch's five arrays as five binary parameters, each typed as its statement casts it. */
static void batch_params(db_event_batch *b, const char **p, int *len, int *fmt)
{
	db_f8array *cols[5] = {&b->versions, &b->kinds, &b->seats, &b->turns, &b->payloads};
	const unsigned oids[5] = {DB_ARRAY_INT4, DB_ARRAY_TEXT, DB_ARRAY_INT4, DB_ARRAY_INT4,
	                          DB_ARRAY_JSONB};
	for (int k = 0; k < 5; k++) {
		cols[k]->oid = oids[k];
		p[k] = db_f8array_done(cols[k], &len[k]);
		fmt[k] = 1;
	}
}

db_status db_events_append(db_conn *c, const char *id, db_event_batch *events, int version,
                           bool finished, const char *result)
{
	char v[16];
	itoa10(version, v);
	const char *p[9] = {
	    id, NULL, NULL, NULL, NULL, NULL, v, finished ? "finished" : "playing", result};
	int len[9] = {0}, fmt[9] = {0};
	batch_params(events, p + 1, len + 1, fmt + 1);
	return db_run_bin(c, "events_append", 9, p, len, fmt, NULL);
}

db_status db_events_append_if(db_conn *c, const char *id, db_event_batch *events, int version,
                              bool finished, const char *result, int expected, int seat, bool claim,
                              const char *hash_hex, bool *applied)
{
	char v[16], e[16], s[16];
	itoa10(version, v);
	itoa10(expected, e);
	itoa10(seat, s);
	const char *p[13] = {id,
	                     NULL,
	                     NULL,
	                     NULL,
	                     NULL,
	                     NULL,
	                     v,
	                     finished ? "finished" : "playing",
	                     result,
	                     e,
	                     s,
	                     hash_hex,
	                     claim ? "t" : "f"};
	int len[13] = {0}, fmt[13] = {0};
	batch_params(events, p + 1, len + 1, fmt + 1);
	PGresult *r;
	*applied = false;
	db_status st = db_run_bin(c, "events_append_if", 13, p, len, fmt, &r);
	if (st != DB_OK)
		return st;
	*applied = PQntuples(r) == 1;
	PQclear(r);
	return DB_OK;
}
