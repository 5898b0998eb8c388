/* Typed rows of plays, their results, the play log and the idempotency keys of plays entered by
 * hand (see leagues.h; SQL in statements.c). */
#include "db/league_rows.h"
#include "db/leagues.h"

#include <stdio.h>

/* ---- plays ---- */

db_status db_play_insert(db_conn *c, const char *const p[18], bool *inserted)
{
	int n; /* play_insert … RETURNING id */
	db_status st = db_run_count(c, "play_insert", 18, p, &n);
	*inserted = n == 1;
	return st;
}

db_status db_plays_insert_many(db_conn *c, const char *league, const char *author,
                               const char *const arrays[16])
{
	const char *p[18] = {league, author};
	for (int k = 0; k < 16; k++)
		p[2 + k] = arrays[k];
	return db_run_count(c, "plays_insert_many", 18, p, NULL); /* plays_insert_many */
}

db_status db_results_insert_many(db_conn *c, const char *const arrays[11])
{
	return db_run_count(c, "results_insert_many", 11, arrays, NULL); /* results_insert_many */
}

db_status db_play_update(db_conn *c, const char *const p[10])
{
	return db_run_count(c, "play_update", 10, p, NULL); /* play_update */
}

db_status db_results_delete(db_conn *c, const char *play)
{
	const char *p[1] = {play}; /* results_delete */
	return db_run_count(c, "results_delete", 1, p, NULL);
}

db_status db_play_delete(db_conn *c, const char *play, const char *league)
{
	const char *p[2] = {play, league}; /* play_delete */
	return db_run_count(c, "play_delete", 2, p, NULL);
}

static void read_play(const PGresult *r, int i, void *row)
{
	/* play_get: 0 id, 1 game, 2 bgg_id, 3 date, 4 duration_min, 5 notes, 6 location,
	 * 7 cooperative, 8 source, 9 uuid, 10 game_id, 11 ignored, 12 incomplete, 13 bgg_play_id,
	 * 14 created_by */
	db_play_row *x = row;
	x->id = db_col_text(r, i, 0);
	x->game = db_col_text(r, i, 1);
	x->has_bgg_id = !db_col_null(r, i, 2);
	x->bgg_id = x->has_bgg_id ? db_col_int64(r, i, 2) : 0;
	x->date = db_col_text(r, i, 3);
	x->has_duration = !db_col_null(r, i, 4);
	x->duration_min = x->has_duration ? db_col_int64(r, i, 4) : 0;
	x->notes = db_col_text(r, i, 5);
	x->location = db_col_text(r, i, 6);
	x->cooperative = db_col_bool(r, i, 7);
	x->source = db_col_text(r, i, 8);
	x->uuid = db_col_text(r, i, 9);
	x->game_id = db_col_text_or_null(r, i, 10);
	x->ignored = db_col_bool(r, i, 11);
	x->incomplete = db_col_bool(r, i, 12);
	x->bgg_play_id = db_col_null(r, i, 13) ? 0 : db_col_int64(r, i, 13);
	x->created_by = db_col_text_or_null(r, i, 14);
}

db_status db_play_get(db_conn *c, const char *league, const char *play, db_play_rows *out)
{
	const char *p[2] = {league, play};
	RETURN_LOADED(c, "play_get", 2, p, out, read_play);
}

static void read_result(const PGresult *r, int i, void *row)
{
	/* play_results: 0 member_id, 1 name, 2 seat, 3 score, 4 rank, 5 winner, 6 breakdown,
	 * 7 mu, 8 sigma, 9 score_text, 10 unrated */
	db_result_row *x = row;
	x->member = db_col_text(r, i, 0);
	x->name = db_col_text(r, i, 1);
	x->seat = db_col_int(r, i, 2);
	x->has_score = !db_col_null(r, i, 3);
	x->score = x->has_score ? db_col_double(r, i, 3) : 0;
	x->rank = db_col_int(r, i, 4);
	x->winner = db_col_bool(r, i, 5);
	x->breakdown = db_col_text_or_null(r, i, 6);
	x->has_rating = !db_col_null(r, i, 7);
	x->mu = x->has_rating ? db_col_double(r, i, 7) : 0;
	x->sigma = x->has_rating ? db_col_double(r, i, 8) : 0;
	x->score_text = db_col_text_or_null(r, i, 9);
	x->unrated = db_col_bool(r, i, 10);
}

db_status db_play_results(db_conn *c, const char *play, db_result_rows *out)
{
	const char *p[1] = {play};
	RETURN_LOADED(c, "play_results", 1, p, out, read_result);
}

db_status db_play_created_by(db_conn *c, const char *play, bool *found,
                             char account[DB_LG_ID_MAX + 1])
{
	const char *p[1] = {play}; /* play_created_by: 0 created_by or '' */
	return lg_one_text(c, "play_created_by", 1, p, 0, found, account, DB_LG_ID_MAX + 1);
}

static void read_play_item(const PGresult *r, int i, void *row)
{
	/* play_list: 0 total, 1 id (NULL: the page is empty), 2 game, 3 date, 4 cooperative,
	 * 5 source, 6 ignored, 7 incomplete, 8 players (JSON text) */
	db_play_item *x = row;
	x->total = db_col_int64(r, i, 0);
	x->id = db_col_text_or_null(r, i, 1);
	x->game = db_col_text(r, i, 2);
	x->date = db_col_text(r, i, 3);
	x->cooperative = db_col_bool(r, i, 4);
	x->source = db_col_text(r, i, 5);
	x->ignored = db_col_bool(r, i, 6);
	x->incomplete = db_col_bool(r, i, 7);
	x->players = db_col_text(r, i, 8);
}

db_status db_play_list(db_conn *c, const char *league, const char *season, const char *game,
                       const char *limit, const char *offset, db_play_page *out)
{
	const char *p[5] = {league, season, game, limit, offset};
	void *rows;
	out->total = 0;
	db_status st = db_load(c, "play_list", 5, p, sizeof *out->items.rows, read_play_item,
	                       &out->items.res, &out->items.n, &rows);
	out->items.rows = rows;
	if (st == DB_OK && out->items.n > 0) {
		out->total = out->items.rows[0].total;
		if (out->items.rows[0].id == NULL) /* the one row of an empty page */
			out->items.n = 0;
	}
	return st;
}

db_status db_play_log_insert(db_conn *c, const char *league, const char *play, const char *account,
                             const char *action, const char *before, const char *after)
{
	const char *p[6] = {league, play, account, action, before, after}; /* play_log_insert */
	return db_run_count(c, "play_log_insert", 6, p, NULL);
}

static void read_play_key(const PGresult *r, int i, void *row)
{
	/* play_key_get: 0 account, 1 request_hash, 2 status, 3 reply */
	db_play_key_row *x = row;
	x->account = db_col_text(r, i, 0);
	x->request_hash = db_col_text(r, i, 1);
	x->status = db_col_int(r, i, 2);
	x->reply = db_col_text(r, i, 3);
}

db_status db_play_key_get(db_conn *c, const char *league, const char *key, db_play_key_rows *out)
{
	const char *p[2] = {league, key};
	RETURN_LOADED(c, "play_key_get", 2, p, out, read_play_key);
}

db_status db_play_key_insert(db_conn *c, const char *league, const char *key, const char *account,
                             const char *request_hash, int status, const char *reply)
{
	char st[16];
	snprintf(st, sizeof st, "%d", status);
	const char *p[6] = {league, key, account, request_hash, st, reply}; /* play_key_insert */
	return db_run_count(c, "play_key_insert", 6, p, NULL);
}

static void read_log(const PGresult *r, int i, void *row)
{
	/* play_log_list: 0 play_id, 1 account_id, 2 action, 3 at, 4 before, 5 after */
	db_log_row *x = row;
	x->play = db_col_text(r, i, 0);
	x->account = db_col_text_or_null(r, i, 1);
	x->action = db_col_text(r, i, 2);
	x->at = db_col_text(r, i, 3);
	x->before = db_col_text_or_null(r, i, 4);
	x->after = db_col_text_or_null(r, i, 5);
}

db_status db_play_log_list(db_conn *c, const char *league, db_log_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "play_log_list", 1, p, out, read_log);
}
