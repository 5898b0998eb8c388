/* The optimistic writes of several games in one statement (db_events_append_group, games.h):
 * an entry's columns (its game, the version it goes from and to), its writes' token checks and
 * their events' columns as binary arrays (db/f8array.h), each check and event tagged with the
 * place of its entry in the group. */
#include "db/games.h"
#include "db/games_sql.h"

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
	/* events_append_if's checks (the same token check) and writes, for every entry of $1 … $5
	 * (one array a column; the version it goes from, $5, and the one it ends at, $2), with the
	 * token checks of its writes in $6 … $9 and its events in $10 … $15 ($6, $10: the entry's
	 * place in $1) */
	{"events_append_group",
	 "WITH w AS ( "
	 "    SELECT * "
	 "      FROM unnest($1::text[], $2::int[], $3::text[], $4::jsonb[], $5::int[]) "
	 "           WITH ORDINALITY AS w(id, version, status, result, expected, i) "
	 "), k AS ( "
	 "    SELECT * "
	 "      FROM unnest($6::int[], $7::int[], $8::text[], $9::int[]) "
	 "           AS k(i, seat, hash, claim) "
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
	 "       AND NOT EXISTS ( "
	 "           SELECT 1 "
	 "             FROM k "
	 "            WHERE k.i = w.i "
	 "              AND (" DB_GAME_TOKEN_OK_SQL("k.seat", "k.hash", "k.claim = 1") ") IS NOT TRUE) "
	 "    RETURNING g.id, w.i "
	 "), c AS ( "
	 "    UPDATE seats s "
	 "       SET claimed = true "
	 "      FROM u "
	 "      JOIN k "
	 "        ON k.i = u.i "
	 "     WHERE k.claim = 1 "
	 "       AND s.game_id = u.id "
	 "       AND s.seat = k.seat "
	 "       AND NOT s.claimed "
	 "    RETURNING 1 "
	 "), e AS ( "
	 "    INSERT INTO events (game_id, version, kind, seat, turn, payload) "
	 "    SELECT u.id, x.version, x.kind, x.seat, x.turn, x.payload "
	 "      FROM u "
	 "      JOIN unnest($10::int[], $11::int[], $12::text[], $13::int[], $14::int[], "
	 "                  $15::jsonb[]) "
	 "           AS x(i, version, kind, seat, turn, payload) "
	 "        ON x.i = u.i "
	 "    RETURNING 1 "
	 ") "
	 "SELECT u.i AS item "
	 "  FROM u",
	 15, DB_COLUMN_NAMES(EVENTS_APPEND_GROUP_COLUMNS)},
	DB_STATEMENTS_END,
};
// clang-format on

enum {
	ENTRY_COLS = 5,
	CHECK_COLS = 4,
	EVENT_COLS = 6,
	NPARAMS = ENTRY_COLS + CHECK_COLS + EVENT_COLS
};

/* The statement's fifteen arrays, built from the writes. */
typedef struct {
	db_f8array col[NPARAMS];
} group_params;

/* The last write of the entry that starts with w. */
static const db_append_one *entry_last(const db_append_one *w)
{
	while (w->next)
		w = w->next;
	return w;
}

/* Entry i's row (its game, the version it goes from and the one it ends at). */
static void entry_row(db_f8array *a, const db_append_one *w)
{
	const db_append_one *last = entry_last(w);
	const char *status = last->finished ? "finished" : "playing";
	db_f8array_text(&a[0], w->id, strlen(w->id));
	db_f8array_int4(&a[1], last->version);
	db_f8array_text(&a[2], status, strlen(status));
	if (last->result)
		db_f8array_jsonb(&a[3], last->result, strlen(last->result));
	else
		db_f8array_null(&a[3]);
	db_f8array_int4(&a[4], w->expected);
}

/* Write w's token check and its events, tagged with its entry's place i. */
static void write_rows(db_f8array *a, const db_append_one *w, int i)
{
	db_f8array *k = a + ENTRY_COLS, *x = k + CHECK_COLS;
	db_f8array_int4(&k[0], i);
	db_f8array_int4(&k[1], w->seat);
	db_f8array_text(&k[2], w->hash_hex, strlen(w->hash_hex));
	db_f8array_int4(&k[3], w->claim ? 1 : 0);
	const db_event_batch *b = w->events;
	for (int e = 0; e < b->versions.n; e++)
		db_f8array_int4(&x[0], i);
	db_f8array_append(&x[1], &b->versions);
	db_f8array_append(&x[2], &b->kinds);
	db_f8array_append(&x[3], &b->seats);
	db_f8array_append(&x[4], &b->turns);
	db_f8array_append(&x[5], &b->payloads);
}

static void params_build(group_params *gp, db_append_one *const *w, int n)
{
	static const unsigned oids[NPARAMS] = {
	    DB_ARRAY_TEXT, DB_ARRAY_INT4, DB_ARRAY_TEXT, DB_ARRAY_JSONB, DB_ARRAY_INT4,
	    DB_ARRAY_INT4, DB_ARRAY_INT4, DB_ARRAY_TEXT, DB_ARRAY_INT4,  DB_ARRAY_INT4,
	    DB_ARRAY_INT4, DB_ARRAY_TEXT, DB_ARRAY_INT4, DB_ARRAY_INT4,  DB_ARRAY_JSONB};
	db_f8array *a = gp->col;
	for (int k = 0; k < NPARAMS; k++)
		a[k].oid = oids[k];
	for (int i = 0; i < n; i++) {
		entry_row(a, w[i]);
		for (const db_append_one *x = w[i]; x; x = x->next)
			write_rows(a, x, i + 1);
	}
}

static void params_free(group_params *gp)
{
	for (int k = 0; k < NPARAMS; k++)
		db_f8array_free(&gp->col[k]);
}

/* Marks every write of entry w applied or not. */
static void entry_applied(db_append_one *w, bool applied)
{
	for (; w; w = w->next)
		w->applied = applied;
}

db_status db_events_append_group(db_conn *c, db_append_one *const *w, int n)
{
	for (int i = 0; i < n; i++)
		entry_applied(w[i], false);
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
			entry_applied(w[i - 1], true);
	}
	PQclear(r);
	return DB_OK;
}
