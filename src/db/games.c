/* Typed rows of the table engine's statements (games.h). The SQL of each statement is in
 * statements.c under the same name; its columns are read here and nowhere else. */
#include "db/games.h"

#include "base/oom.h"
#include "db/rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void itoa10(int v, char buf[16])
{
	snprintf(buf, 16, "%d", v);
}

/* ---- games ---- */

void db_game_row_clear(db_game_row *g)
{
	free(g->config);
	g->config = NULL;
}

/* game_get / game_lock: kind, config, version, finished, is_host, token_seat, token_claimed,
 * replaced seat (NULL: not replaced; 0: the display), code, league, created_at, is_display */
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
		db_col_copy(r, 0, 0, out->kind, sizeof out->kind);
		out->config = xstrdup(PQgetvalue(r, 0, 1));
		out->version = db_col_int(r, 0, 2);
		out->finished = db_col_bool(r, 0, 3);
		out->is_host = db_col_bool(r, 0, 4);
		out->token_seat = db_col_int(r, 0, 5);
		out->token_claimed = db_col_bool(r, 0, 6);
		out->replaced_seat = db_col_int(r, 0, 7);
		out->replaced_display = !PQgetisnull(r, 0, 7) && out->replaced_seat == 0;
		db_col_copy(r, 0, 8, out->code, sizeof out->code);
		db_col_copy(r, 0, 9, out->league, sizeof out->league);
		db_col_copy(r, 0, 10, out->created_at, sizeof out->created_at);
		out->is_display = db_col_bool(r, 0, 11);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_game_insert(db_conn *c, const char *id, const char *kind, const char *code,
                         const char *host_hash_hex, const char *config, const char *league,
                         bool *inserted)
{
	const char *p[6] = {id, kind, code, host_hash_hex, config, league};
	PGresult *r;
	*inserted = false;
	db_status st = db_run(c, "game_insert", 6, p, &r);
	if (st == DB_OK)
		*inserted = PQntuples(r) == 1;
	PQclear(r);
	return st;
}

/* ---- seats ---- */

db_status db_seat_insert(db_conn *c, const char *id, int seat, const char *name, bool bot,
                         const char *hash_hex)
{
	char s[16];
	itoa10(seat, s);
	const char *p[5] = {id, s, name, bot ? "t" : "f", hash_hex};
	return db_run_count(c, "seat_insert", 5, p, NULL);
}

/* seats_list: seat, name, bot, claimed */
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
		s->seat = db_col_int(r, i, 0);
		db_col_copy(r, i, 1, s->name, sizeof s->name);
		s->bot = db_col_bool(r, i, 2);
		s->claimed = db_col_bool(r, i, 3);
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

/* join_lock: game, kind, name, claimed, token hash (hex, NULL for none) */
db_status db_join_lock(db_conn *c, const char *code, int seat, db_join_row *out)
{
	char s[16];
	itoa10(seat, s);
	const char *p[2] = {code, s};
	PGresult *r;
	memset(out, 0, sizeof *out);
	db_status st = db_run(c, "join_lock", 2, p, &r);
	if (st != DB_OK)
		return st;
	if (PQntuples(r) == 1) {
		out->found = true;
		db_col_copy(r, 0, 0, out->game, sizeof out->game);
		db_col_copy(r, 0, 1, out->kind, sizeof out->kind);
		db_col_copy(r, 0, 2, out->name, sizeof out->name);
		out->claimed = db_col_bool(r, 0, 3);
		out->has_token = !PQgetisnull(r, 0, 4);
		db_col_copy(r, 0, 4, out->token_hash_hex, sizeof out->token_hash_hex);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_join_take(db_conn *c, const char *game, int seat, const char *old_hash_hex,
                       const char *new_hash_hex)
{
	char s[16];
	itoa10(seat, s);
	const char *p[4] = {game, s, old_hash_hex, new_hash_hex};
	return db_run_count(c, "join_take", 4, p, NULL);
}

db_status db_display_replace(db_conn *c, const char *id, const char *new_hash_hex)
{
	const char *p[2] = {id, new_hash_hex};
	return db_run_count(c, "display_replace", 2, p, NULL);
}

/* token_replaced: replaced */
db_status db_token_replaced(db_conn *c, const char *id, const char *hash_hex, bool *replaced)
{
	const char *p[2] = {id, hash_hex};
	PGresult *r;
	*replaced = false;
	db_status st = db_run(c, "token_replaced", 2, p, &r);
	if (st != DB_OK)
		return st;
	*replaced = PQntuples(r) == 1 && db_col_bool(r, 0, 0);
	PQclear(r);
	return DB_OK;
}

/* game_by_code: id, kind */
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
		db_col_copy(r, 0, 0, game, DB_NAME_MAX + 1);
		db_col_copy(r, 0, 1, kind, DB_KIND_MAX + 1);
	}
	PQclear(r);
	return DB_OK;
}

/* ---- events ---- */

/* Walks rows of version, kind, seat, turn[, payload[, at]] (ncols 4, 5 or 6). */
static db_status walk_events(PGresult *r, int ncols, db_event_fn fn, void *arg, int *stopped_rc)
{
	if (stopped_rc)
		*stopped_rc = 0;
	for (int i = 0; i < PQntuples(r); i++) {
		db_event_row row = {
		    .version = db_col_int(r, i, 0),
		    .kind = PQgetvalue(r, i, 1),
		    .seat = db_col_int(r, i, 2),
		    .turn = db_col_int(r, i, 3),
		    .payload = ncols > 4 ? PQgetvalue(r, i, 4) : "",
		    .at = ncols > 5 ? PQgetvalue(r, i, 5) : "",
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

db_status db_events_between(db_conn *c, const char *id, int after, int upto, db_event_fn fn,
                            void *arg, int *stopped_rc)
{
	char a[16], u[16];
	itoa10(after, a);
	itoa10(upto, u);
	const char *p[3] = {id, a, u};
	PGresult *r;
	db_status st = db_run(c, "events_between", 3, p, &r);
	return st != DB_OK ? st : walk_events(r, 5, fn, arg, stopped_rc);
}

db_status db_events_log(db_conn *c, const char *id, int upto, db_event_fn fn, void *arg,
                        int *stopped_rc)
{
	char u[16];
	itoa10(upto, u);
	const char *p[2] = {id, u};
	PGresult *r;
	db_status st = db_run(c, "events_log", 2, p, &r);
	return st != DB_OK ? st : walk_events(r, 6, fn, arg, stopped_rc);
}

db_status db_events_since(db_conn *c, const char *id, int after, int limit, db_event_fn fn,
                          void *arg, int *stopped_rc)
{
	char a[16], l[16];
	itoa10(after, a);
	itoa10(limit, l);
	const char *p[3] = {id, a, l};
	PGresult *r;
	db_status st = db_run(c, "events_since_n", 3, p, &r);
	return st != DB_OK ? st : walk_events(r, 4, fn, arg, stopped_rc);
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

/* events_append_if: one row (the count of events) when applied, none otherwise */
db_status db_events_append_if(db_conn *c, const char *id, db_event_batch *events, int version,
                              bool finished, const char *result, int expected, int seat,
                              const char *hash_hex, bool *applied)
{
	char v[16], e[16], s[16];
	itoa10(version, v);
	itoa10(expected, e);
	itoa10(seat, s);
	const char *p[12] = {id,     NULL, NULL, NULL,
	                     NULL,   NULL, v,    finished ? "finished" : "playing",
	                     result, e,    s,    hash_hex};
	int len[12] = {0}, fmt[12] = {0};
	batch_params(events, p + 1, len + 1, fmt + 1);
	PGresult *r;
	*applied = false;
	db_status st = db_run_bin(c, "events_append_if", 12, p, len, fmt, &r);
	if (st != DB_OK)
		return st;
	*applied = PQntuples(r) == 1;
	PQclear(r);
	return DB_OK;
}
