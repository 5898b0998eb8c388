/* The optimistic writes of several games in one statement (db_events_append_group, games.h):
 * the games' columns and their events' columns as binary arrays (db/f8array.h), each event
 * tagged with the place of its game in the group. */
#include "db/games.h"

#include "base/oom.h"
#include "db/rows.h"
#include "db/statements.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the places (1 …) of the writes that were applied */
#define EVENTS_APPEND_GROUP_COLUMNS(C) C(EVENTS_APPEND_GROUP_ITEM, item)
DB_COLUMNS(EVENTS_APPEND_GROUP_COLUMNS, EVENTS_APPEND_GROUP_NCOLS);

// clang-format off
const db_statement db_games_group_statements[] = {
	/* events_append_if's checks and writes, for every game of $1 … $8 (one array a column)
	 * with its events in $9 … $14 ($9: the game's place in $1) */
	{"events_append_group",
	 "WITH w AS ( "
	 "    SELECT * "
	 "      FROM unnest($1::text[], $2::int[], $3::text[], $4::jsonb[], $5::int[], $6::int[], "
	 "                  $7::text[], $8::int[]) "
	 "           WITH ORDINALITY AS w(id, version, status, result, expected, seat, hash, claim, i) "
	 "), u AS ( "
	 "    UPDATE games g "
	 "       SET version = w.version, "
	 "           status = w.status, "
	 "           result = w.result, "
	 "           updated_at = now() "
	 "      FROM w "
	 "     WHERE g.id = w.id "
	 "       AND g.version = w.expected "
	 "       AND g.status = 'playing' "
	 "       AND CASE WHEN w.seat = 0 "
	 "                THEN g.host_token_hash = decode(w.hash, 'hex') "
	 "                ELSE EXISTS (SELECT 1 "
	 "                               FROM seats s "
	 "                              WHERE s.game_id = g.id "
	 "                                AND s.seat = w.seat "
	 "                                AND (s.claimed OR w.claim = 1) "
	 "                                AND decode(w.hash, 'hex') IN (s.token_hash, s.link_hash)) "
	 "           END "
	 "    RETURNING g.id, w.i, w.seat, w.claim "
	 "), c AS ( "
	 "    UPDATE seats s "
	 "       SET claimed = true "
	 "      FROM u "
	 "     WHERE u.claim = 1 "
	 "       AND s.game_id = u.id "
	 "       AND s.seat = u.seat "
	 "       AND NOT s.claimed "
	 "    RETURNING 1 "
	 "), e AS ( "
	 "    INSERT INTO events (game_id, version, kind, seat, turn, payload) "
	 "    SELECT u.id, x.version, x.kind, x.seat, x.turn, x.payload "
	 "      FROM u "
	 "      JOIN unnest($9::int[], $10::int[], $11::text[], $12::int[], $13::int[], $14::jsonb[]) "
	 "           AS x(i, version, kind, seat, turn, payload) "
	 "        ON x.i = u.i "
	 "    RETURNING 1 "
	 ") "
	 "SELECT u.i AS item "
	 "  FROM u",
	 14, DB_COLUMN_NAMES(EVENTS_APPEND_GROUP_COLUMNS)},
	DB_STATEMENTS_END,
};
// clang-format on

enum { GAME_COLS = 8, EVENT_COLS = 6, NPARAMS = GAME_COLS + EVENT_COLS };

/* The statement's fourteen arrays, built from the writes. */
typedef struct {
	db_f8array col[NPARAMS];
} group_params;

static void params_build(group_params *gp, db_append_one *w, int n)
{
	static const unsigned oids[NPARAMS] = {
	    DB_ARRAY_TEXT, DB_ARRAY_INT4, DB_ARRAY_TEXT, DB_ARRAY_JSONB, DB_ARRAY_INT4,
	    DB_ARRAY_INT4, DB_ARRAY_TEXT, DB_ARRAY_INT4, DB_ARRAY_INT4,  DB_ARRAY_INT4,
	    DB_ARRAY_TEXT, DB_ARRAY_INT4, DB_ARRAY_INT4, DB_ARRAY_JSONB};
	db_f8array *a = gp->col;
	for (int k = 0; k < NPARAMS; k++)
		a[k].oid = oids[k];
	for (int i = 0; i < n; i++) {
		const char *status = w[i].finished ? "finished" : "playing";
		db_f8array_text(&a[0], w[i].id, strlen(w[i].id));
		db_f8array_int4(&a[1], w[i].version);
		db_f8array_text(&a[2], status, strlen(status));
		if (w[i].result)
			db_f8array_jsonb(&a[3], w[i].result, strlen(w[i].result));
		else
			db_f8array_null(&a[3]);
		db_f8array_int4(&a[4], w[i].expected);
		db_f8array_int4(&a[5], w[i].seat);
		db_f8array_text(&a[6], w[i].hash_hex, strlen(w[i].hash_hex));
		db_f8array_int4(&a[7], w[i].claim ? 1 : 0);
		db_event_batch *b = w[i].events;
		for (int e = 0; e < b->versions.n; e++)
			db_f8array_int4(&a[8], i + 1);
		db_f8array_append(&a[9], &b->versions);
		db_f8array_append(&a[10], &b->kinds);
		db_f8array_append(&a[11], &b->seats);
		db_f8array_append(&a[12], &b->turns);
		db_f8array_append(&a[13], &b->payloads);
	}
}

static void params_free(group_params *gp)
{
	for (int k = 0; k < NPARAMS; k++)
		db_f8array_free(&gp->col[k]);
}

db_status db_events_append_group(db_conn *c, db_append_one *w, int n)
{
	for (int i = 0; i < n; i++)
		w[i].applied = false;
	if (n <= 0)
		return DB_OK;
	group_params gp;
	memset(&gp, 0, sizeof gp);
	params_build(&gp, w, n);
	const char *p[NPARAMS];
	int len[NPARAMS], fmt[NPARAMS];
	for (int k = 0; k < NPARAMS; k++) {
		p[k] = db_f8array_done(&gp.col[k], &len[k]);
		fmt[k] = 1;
	}
	PGresult *r;
	db_status st = db_run_bin(c, "events_append_group", NPARAMS, p, len, fmt, &r);
	params_free(&gp);
	if (st != DB_OK)
		return st;
	for (int row = 0; row < db_nrows(r); row++) {
		int i = db_col_int(r, row, EVENTS_APPEND_GROUP_ITEM);
		if (i >= 1 && i <= n)
			w[i - 1].applied = true;
	}
	PQclear(r);
	return DB_OK;
}
