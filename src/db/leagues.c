/* Typed rows of leagues, members, seasons, plays, results, ratings and the play log (see
 * leagues.h; SQL in statements.c). Each accessor names its statement and reads its columns by
 * number here and nowhere else. */
#include "db/leagues.h"

#include "base/names.h"
#include "base/oom.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One text-column lookup: *found and out (fixed buffer of size n) from column col of row 0. */
static db_status one_text(db_conn *c, const char *stmt, int np, const char *const *p, int col,
                          bool *found, char *out, size_t n)
{
	PGresult *r;
	*found = false;
	db_status st = db_run(c, stmt, np, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		*found = true;
		if (out)
			db_col_copy(r, 0, col, out, n);
	}
	PQclear(r);
	return DB_OK;
}

/* A statement whose only answer is whether it returned a row (RETURNING / SELECT). */
static db_status some_row(db_conn *c, const char *stmt, int np, const char *const *p, bool *any)
{
	int n;
	db_status st = db_run_count(c, stmt, np, p, &n);
	*any = n > 0;
	return st;
}

/* Loads row set `set` from stmt (rd reads one row into its element type) and returns the
 * status from the calling accessor. */
#define RETURN_LOADED(c, stmt, np, p, set, rd)                                                     \
	do {                                                                                       \
		void *rows_;                                                                       \
		db_status st_ = db_load(c, stmt, np, p, sizeof *(set)->rows, rd, &(set)->res,      \
		                        &(set)->n, &rows_);                                        \
		(set)->rows = rows_;                                                               \
		return st_;                                                                        \
	} while (0)

/* ---- leagues ---- */

db_status db_league_insert(db_conn *c, const char *id, const char *name)
{
	const char *p[2] = {id, name}; /* league_insert */
	return db_run_count(c, "league_insert", 2, p, NULL);
}

db_status db_league_owner_insert(db_conn *c, const char *league, const char *account)
{
	const char *p[2] = {league, account}; /* league_owner_insert */
	return db_run_count(c, "league_owner_insert", 2, p, NULL);
}

db_status db_league_bump(db_conn *c, const char *league, long long *version)
{
	const char *p[1] = {league}; /* league_bump */
	PGresult *r;
	db_status st = db_run(c, "league_bump", 1, p, &r);
	if (version)
		*version = st == DB_OK && db_nrows(r) == 1 ? db_col_int64(r, 0, 0) : -1;
	PQclear(r);
	return st;
}

db_status db_league_rekey_games(db_conn *c, const char *league)
{
	const char *p[1] = {league}; /* league_rekey_games */
	return db_run_count(c, "league_rekey_games", 1, p, NULL);
}

db_status db_league_lock(db_conn *c, const char *league, bool *found)
{
	const char *p[1] = {league}; /* league_lock: 0 id */
	int n;
	db_status st = db_run_count(c, "league_lock", 1, p, &n);
	*found = n == 1;
	return st;
}

db_status db_league_access_get(db_conn *c, const char *league, const char *account,
                               db_league_access *out)
{
	/* league_access: 0 is-owner, 1 member id or '', 2 version */
	const char *p[2] = {league, account};
	PGresult *r;
	out->found = out->owner = false;
	out->member[0] = '\0';
	out->version = 0;
	db_status st = db_run(c, "league_access", 2, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		out->found = true;
		out->owner = db_col_bool(r, 0, 0);
		db_col_copy(r, 0, 1, out->member, sizeof out->member);
		out->version = db_col_int64(r, 0, 2);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_league_get(db_conn *c, const char *league, db_league_row *out)
{
	/* league_get: 0 name, 1 created_at, 2 plays */
	const char *p[1] = {league};
	PGresult *r;
	out->found = false;
	db_status st = db_run(c, "league_get", 1, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		out->found = true;
		db_col_copy(r, 0, 0, out->name, sizeof out->name);
		db_col_copy(r, 0, 1, out->created_at, sizeof out->created_at);
		out->plays = db_col_int64(r, 0, 2);
	}
	PQclear(r);
	return DB_OK;
}

static void read_league_item(const PGresult *r, int i, void *row)
{
	/* league_list: 0 id, 1 name, 2 owner?, 3 plays */
	db_league_item *x = row;
	x->id = db_col_text(r, i, 0);
	x->name = db_col_text(r, i, 1);
	x->owner = db_col_bool(r, i, 2);
	x->plays = db_col_int64(r, i, 3);
}

db_status db_league_list(db_conn *c, const char *account, db_league_items *out)
{
	const char *p[1] = {account};
	RETURN_LOADED(c, "league_list", 1, p, out, read_league_item);
}

static void read_owner(const PGresult *r, int i, void *row)
{
	/* league_owners: 0 account id, 1 display_name */
	db_owner_row *x = row;
	x->account = db_col_text(r, i, 0);
	x->display_name = db_col_text(r, i, 1);
}

db_status db_league_owners(db_conn *c, const char *league, db_owner_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_owners", 1, p, out, read_owner);
}

static void read_member(const PGresult *r, int i, void *row)
{
	/* league_members and member_get: 0 id, 1 name, 2 account_id (NULL: guest), 3 plays */
	db_member_row *x = row;
	x->id = db_col_text(r, i, 0);
	x->name = db_col_text(r, i, 1);
	x->account = db_col_text_or_null(r, i, 2);
	x->plays = db_col_int64(r, i, 3);
}

db_status db_league_members(db_conn *c, const char *league, db_member_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_members", 1, p, out, read_member);
}

db_status db_member_get(db_conn *c, const char *league, const char *member, db_member_rows *out)
{
	const char *p[2] = {league, member};
	RETURN_LOADED(c, "member_get", 2, p, out, read_member);
}

static void read_game_name(const PGresult *r, int i, void *row)
{
	db_game_name_row *x = row; /* league_games: 0 game */
	x->game = db_col_text(r, i, 0);
}

db_status db_league_games(db_conn *c, const char *league, db_game_name_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_games", 1, p, out, read_game_name);
}

static void read_season(const PGresult *r, int i, void *row)
{
	/* league_seasons: 0 id, 1 name, 2 starts, 3 ends */
	db_season_row *x = row;
	x->id = db_col_text(r, i, 0);
	x->name = db_col_text(r, i, 1);
	x->starts = db_col_text(r, i, 2);
	x->ends = db_col_text(r, i, 3);
}

db_status db_league_seasons(db_conn *c, const char *league, db_season_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_seasons", 1, p, out, read_season);
}

/* ---- members ---- */

/* Every statement that stores or matches a member's name takes its display form and its key
 * from name_forms (base/names.h), whatever form the caller has: one name, one member on every
 * path a name comes in. */

db_status db_member_insert(db_conn *c, const char *id, const char *league, const char *name,
                           const char *account, bool *inserted)
{
	char *shown, *key;
	name_forms(name, &shown, &key);
	const char *p[5] = {id, league, shown, account, key}; /* member_insert … RETURNING id */
	db_status st = some_row(c, "member_insert", 5, p, inserted);
	free(shown);
	free(key);
	return st;
}

db_status db_member_insert_guest(db_conn *c, const char *id, const char *league, const char *name,
                                 bool *inserted)
{
	char *shown, *key;
	name_forms(name, &shown, &key);
	const char *p[4] = {id, league, shown, key}; /* member_insert_guest … RETURNING id */
	db_status st = some_row(c, "member_insert_guest", 4, p, inserted);
	free(shown);
	free(key);
	return st;
}

db_status db_member_by_name(db_conn *c, const char *league, const char *name, bool *found,
                            char id[DB_LG_ID_MAX + 1])
{
	char *shown, *key;
	name_forms(name, &shown, &key);
	const char *p[3] = {league, key, shown}; /* member_by_name: 0 id */
	db_status st = one_text(c, "member_by_name", 3, p, 0, found, id, DB_LG_ID_MAX + 1);
	free(shown);
	free(key);
	return st;
}

db_status db_member_delete(db_conn *c, const char *league, const char *member)
{
	const char *p[2] = {league, member}; /* member_delete */
	return db_run_count(c, "member_delete", 2, p, NULL);
}

db_status db_member_rename(db_conn *c, const char *league, const char *member, const char *name,
                           bool *renamed)
{
	char *shown, *key;
	name_forms(name, &shown, &key);
	const char *p[4] = {league, member, shown, key}; /* member_rename … RETURNING id */
	db_status st = some_row(c, "member_rename", 4, p, renamed);
	free(shown);
	free(key);
	return st;
}

db_status db_member_unclash(db_conn *c, const char *league)
{
	const char *p[1] = {league}; /* member_unclash */
	return db_run_count(c, "member_unclash", 1, p, NULL);
}

db_status db_member_merge(db_conn *c, const char *from, const char *to)
{
	const char *p[2] = {from, to}; /* member_merge */
	return db_run_count(c, "member_merge", 2, p, NULL);
}

db_status db_member_link(db_conn *c, const char *member, const char *account)
{
	const char *p[2] = {member, account}; /* member_link */
	return db_run_count(c, "member_link", 2, p, NULL);
}

db_status db_member_conflicts(db_conn *c, const char *a, const char *b, bool *clash)
{
	const char *p[2] = {a, b}; /* member_conflicts: 0 play_id (only counted) */
	return some_row(c, "member_conflicts", 2, p, clash);
}

db_status db_member_league_get(db_conn *c, const char *member, db_member_league *out)
{
	/* member_league: 0 league_id, 1 name */
	const char *p[1] = {member};
	PGresult *r;
	out->found = false;
	db_status st = db_run(c, "member_league", 1, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		out->found = true;
		db_col_copy(r, 0, 0, out->league, sizeof out->league);
		db_col_copy(r, 0, 1, out->name, sizeof out->name);
	}
	PQclear(r);
	return DB_OK;
}

/* ---- seasons ---- */

db_status db_season_insert(db_conn *c, const char *id, const char *league, const char *name,
                           const char *starts, const char *ends, bool *inserted)
{
	const char *p[5] = {id, league, name, starts, ends}; /* season_insert … RETURNING id */
	return some_row(c, "season_insert", 5, p, inserted);
}

db_status db_season_exists(db_conn *c, const char *league, const char *id, bool *found)
{
	const char *p[2] = {league, id}; /* season_get: 0 id */
	int n;
	db_status st = db_run_count(c, "season_get", 2, p, &n);
	*found = n == 1;
	return st;
}

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
	return one_text(c, "play_created_by", 1, p, 0, found, account, DB_LG_ID_MAX + 1);
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

/* ---- ratings and standings ---- */

static void read_league_result(const PGresult *r, int i, void *row)
{
	/* league_rows: 0 play_id, 1 member_id, 2 name, 3 rank, 4 score, 5 winner,
	 * 6 cooperative, 7 seq */
	db_league_result *x = row;
	x->play = db_col_text(r, i, 0);
	x->member = db_col_text(r, i, 1);
	x->name = db_col_text(r, i, 2);
	x->rank = db_col_int(r, i, 3);
	x->has_score = !db_col_null(r, i, 4);
	x->score = x->has_score ? db_col_double(r, i, 4) : 0;
	x->winner = db_col_bool(r, i, 5);
	x->cooperative = db_col_bool(r, i, 6);
	x->seq = db_col_int64(r, i, 7);
}

db_status db_league_rows(db_conn *c, const char *league, const char *season, const char *game,
                         db_league_results *out)
{
	const char *p[3] = {league, season, game};
	RETURN_LOADED(c, "league_rows", 3, p, out, read_league_result);
}

static void read_league_result_keyed(const PGresult *r, int i, void *row)
{
	/* league_rows_keyed: the columns of league_rows, 8 game key, 9 local date, 10 played_at
	 * (microseconds since 1970) */
	read_league_result(r, i, row);
	db_league_result *x = row;
	x->game_key = db_col_text(r, i, 8);
	x->local_date = db_col_text(r, i, 9);
	x->at_us = db_col_int64(r, i, 10);
}

db_status db_league_rows_keyed(db_conn *c, const char *league, db_league_results *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_rows_keyed", 1, p, out, read_league_result_keyed);
}

db_status db_league_play_rows_keyed(db_conn *c, const char *league, const char *play,
                                    db_league_results *out)
{
	const char *p[2] = {league, play};
	RETURN_LOADED(c, "league_play_rows_keyed", 2, p, out, read_league_result_keyed);
}

db_status db_league_scopes_clear(db_conn *c, const char *league, const char *seasons)
{
	const char *p[2] = {league, seasons}; /* league_scopes_clear */
	return db_run_count(c, "league_scopes_clear", 2, p, NULL);
}

db_status db_league_scopes_drop(db_conn *c, const char *league, const char *scopes)
{
	const char *p[2] = {league, scopes}; /* league_scopes_drop */
	return db_run_count(c, "league_scopes_drop", 2, p, NULL);
}

/* The numbers of a float8[] in text ("{1.5,NULL,2}"): a calloc'ed array (NAN for NULL), *n. */
static double *parse_float_array(const char *t, int *n)
{
	int cap = 1;
	for (const char *p = t; *p; p++)
		cap += *p == ',';
	double *v = xcalloc((size_t)cap, sizeof *v);
	*n = 0;
	const char *p = t + (*t == '{');
	while (*p && *p != '}' && *n < cap) {
		char *end;
		if (strncmp(p, "NULL", 4) == 0) {
			v[(*n)++] = NAN;
			end = (char *)p + 4;
		} else {
			v[(*n)++] = strtod(p, &end);
			if (end == p)
				break; /* not a number: stop (the caller compares the counts) */
		}
		p = end + (*end == ',');
	}
	return v;
}

db_status db_league_scope_line(db_conn *c, const char *league, const char *season, const char *game,
                               bool *kept, db_scope_line *out)
{
	/* league_scope_line: 0 kept, 1 mus, 2 sigmas (NULL: an empty scope) */
	const char *p[3] = {league, season, game};
	PGresult *r;
	memset(out, 0, sizeof *out);
	*kept = false;
	db_status st = db_run(c, "league_scope_line", 3, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1 && db_col_bool(r, 0, 0)) {
		*kept = true;
		int nm = 0, ns = 0;
		out->mu = parse_float_array(db_col_text(r, 0, 1), &nm);
		out->sigma = parse_float_array(db_col_text(r, 0, 2), &ns);
		out->n = nm < ns ? nm : ns;
	}
	PQclear(r);
	return DB_OK;
}

db_status db_league_game_keys(db_conn *c, const char *league, char **out)
{
	const char *p[1] = {league}; /* league_game_keys: 0 the text */
	PGresult *r;
	*out = NULL;
	db_status st = db_run(c, "league_game_keys", 1, p, &r);
	if (st != DB_OK)
		return st;
	*out = xstrdup(db_nrows(r) == 1 ? db_col_text(r, 0, 0) : "");
	PQclear(r);
	return DB_OK;
}

static void read_added_row(const PGresult *r, int i, void *row)
{
	/* league_added_rows: 0 last, 1 key, 2 local date, 3 seasons, 4 member, 5 name, 6 rank,
	 * 7 score, 8 winner, 9 cooperative */
	db_added_row *x = row;
	x->last = db_col_bool(r, i, 0);
	x->key = db_col_text(r, i, 1);
	x->local_date = db_col_text(r, i, 2);
	x->seasons = db_col_text(r, i, 3);
	x->member = db_col_text(r, i, 4);
	x->name = db_col_text(r, i, 5);
	x->rank = db_col_int(r, i, 6);
	x->has_score = !db_col_null(r, i, 7);
	x->score = x->has_score ? db_col_double(r, i, 7) : 0;
	x->winner = db_col_bool(r, i, 8);
	x->cooperative = db_col_bool(r, i, 9);
}

db_status db_league_added_rows(db_conn *c, const char *league, const char *play, db_added_rows *out)
{
	const char *p[2] = {league, play};
	RETURN_LOADED(c, "league_added_rows", 2, p, out, read_added_row);
}

db_status db_league_scopes_store(db_conn *c, const char *league, bool added,
                                 const char *const arrays[11])
{
	const char *p[12] = {league}; /* league_scopes_insert, league_scopes_upsert */
	for (int i = 0; i < 11; i++)
		p[i + 1] = arrays[i];
	return db_run_count(c, added ? "league_scopes_upsert" : "league_scopes_insert", 12, p,
	                    NULL);
}

db_status db_league_scope_lines_store(db_conn *c, const char *league, const char *scopes,
                                      const char *counts, db_f8array *mus, db_f8array *sigmas)
{
	int len[5] = {0}, fmt[5] = {0, 0, 0, 1, 1}; /* league_scope_lines_store */
	const char *p[5] = {league, scopes, counts, db_f8array_done(mus, &len[3]),
	                    db_f8array_done(sigmas, &len[4])};
	return db_run_bin(c, "league_scope_lines_store", 5, p, len, fmt, NULL);
}

static void read_scope_standing(const PGresult *r, int i, void *row);

static void read_scope_row(const PGresult *r, int i, void *row)
{
	/* league_scopes_of: 0 scope, then the columns of league_scope_standings from 1 on */
	db_scope_row *x = row;
	x->scope = db_col_text(r, i, 0);
	read_scope_standing(r, i, &x->x);
}

db_status db_league_scopes_of(db_conn *c, const char *league, const char *scopes,
                              const char *members, db_scope_rows *out)
{
	const char *p[3] = {league, scopes, members};
	RETURN_LOADED(c, "league_scopes_of", 3, p, out, read_scope_row);
}

static void read_scope_standing(const PGresult *r, int i, void *row)
{
	/* league_scope_standings: 0 kept, 1 member_id, 2 name, 3 games, 4 wins, 5 rank_sum,
	 * 6 scored, 7 score_sum, 8 best, 9 rated, 10 mu, 11 sigma (1..11 NULL: no member) */
	db_scope_standing *x = row;
	x->member = db_col_text_or_null(r, i, 1);
	x->name = db_col_text(r, i, 2);
	x->games = db_col_int(r, i, 3);
	x->wins = db_col_int(r, i, 4);
	x->rank_sum = db_col_int64(r, i, 5);
	x->scored = db_col_int(r, i, 6);
	x->score_sum = db_col_null(r, i, 7) ? 0 : db_col_double(r, i, 7);
	x->has_best = !db_col_null(r, i, 8);
	x->best = x->has_best ? db_col_double(r, i, 8) : 0;
	x->rated = db_col_bool(r, i, 9);
	x->mu = db_col_null(r, i, 10) ? 0 : db_col_double(r, i, 10);
	x->sigma = db_col_null(r, i, 11) ? 0 : db_col_double(r, i, 11);
}

db_status db_league_scope_standings(db_conn *c, const char *league, const char *season,
                                    const char *game, bool *kept, db_scope_standings *out)
{
	const char *p[3] = {league, season, game};
	memset(out, 0, sizeof *out);
	*kept = false;
	void *rows;
	db_status st = db_load(c, "league_scope_standings", 3, p, sizeof *out->rows,
	                       read_scope_standing, &out->res, &out->n, &rows);
	out->rows = rows;
	if (st != DB_OK)
		return st;
	*kept = out->n > 0 && db_col_bool(out->res, 0, 0);
	/* the one row of an empty scope carries no member */
	if (out->n == 1 && out->rows[0].member == NULL)
		out->n = 0;
	return DB_OK;
}

static void read_stat_row(const PGresult *r, int i, void *row)
{
	/* league_stat_rows: 0 play_id, 1 member_id, 2 name, 3 rank, 4 score, 5 winner,
	 * 6 cooperative, 7 the play's seq, 8 local time, 9 local date, 10 game key, 11 game name,
	 * 12 lowest wins (m and g: dense_index, the ratings: stat_rows_rate, below) */
	db_stat_row *x = row;
	x->play = db_col_text(r, i, 0);
	x->member = db_col_text(r, i, 1);
	x->name = db_col_text(r, i, 2);
	x->rank = db_col_int(r, i, 3);
	x->has_score = !db_col_null(r, i, 4);
	x->score = x->has_score ? db_col_double(r, i, 4) : 0;
	x->winner = db_col_bool(r, i, 5);
	x->cooperative = db_col_bool(r, i, 6);
	x->seq = db_col_int64(r, i, 7);
	x->date = db_col_text(r, i, 8);
	x->local_date = db_col_text(r, i, 9);
	x->game_key = db_col_text(r, i, 10);
	x->game = db_col_text(r, i, 11);
	x->lowest_wins = db_col_bool(r, i, 12);
}

typedef struct {
	const char *key;
	int row;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
	return strcmp(((const keyed *)a)->key, ((const keyed *)b)->key);
}

/* Dense indexes from 0 in the order of each row's key (member id, or game key): *index_of(row)
 * for every row. Sorting here, not in the statement, spares the database two sorts of every
 * row of the league. */
static void dense_index(db_stat_rows *set, bool by_member)
{
	keyed *k = xcalloc((size_t)(set->n ? set->n : 1), sizeof *k);
	for (int i = 0; i < set->n; i++)
		k[i] = (keyed){by_member ? set->rows[i].member : set->rows[i].game_key, i};
	qsort(k, (size_t)set->n, sizeof *k, keyed_cmp);
	int idx = -1;
	for (int i = 0; i < set->n; i++) {
		if (i == 0 || strcmp(k[i].key, k[i - 1].key) != 0)
			idx++;
		db_stat_row *x = &set->rows[k[i].row];
		*(by_member ? &x->m : &x->g) = idx;
	}
	free(k);
}

/* One element of a member's line, for stat_rows_rate's table. */
typedef struct {
	const char *member; /* borrowed from the lines' result */
	int64_t seq;
	double mu, sigma;
} line_elem;

static size_t seq_hash(int64_t seq)
{
	uint64_t h = (uint64_t)seq * 0x9E3779B97F4A7C15ull;
	return (size_t)(h ^ (h >> 29));
}

/* Each row's stored rating (has_rating, mu, sigma): the element of its member's line
 * (member_lines_of) for its play's seq; a row without one is not rated. One table over every
 * element of the league's lines (open addressing by seq). */
static db_status stat_rows_rate(db_conn *c, const char *league, db_stat_rows *set)
{
	const char *p[1] = {league}; /* member_lines_of: 0 member, 1 seqs, 2 mus, 3 sigmas */
	PGresult *r;
	db_status st = db_run(c, "member_lines_of", 1, p, &r);
	if (st != DB_OK)
		return st;
	int nl = db_nrows(r), total = 0;
	/* seqs are read as doubles too: a bigserial's values stay far below 2^53, exact there */
	double **seqs = xcalloc((size_t)nl + 1, sizeof *seqs);
	double **mus = xcalloc((size_t)nl + 1, sizeof *mus),
	       **sigmas = xcalloc((size_t)nl + 1, sizeof *sigmas);
	int *len = xcalloc((size_t)nl + 1, sizeof *len);
	for (int i = 0; i < nl; i++) {
		int a, b, d;
		seqs[i] = parse_float_array(db_col_text(r, i, 1), &a);
		mus[i] = parse_float_array(db_col_text(r, i, 2), &b);
		sigmas[i] = parse_float_array(db_col_text(r, i, 3), &d);
		len[i] = a < b ? (a < d ? a : d) : (b < d ? b : d);
		total += len[i];
	}
	size_t cap = 64;
	while (cap < 2 * (size_t)total)
		cap *= 2;
	line_elem *slot = xcalloc(cap, sizeof *slot);
	for (int i = 0; i < nl; i++)
		for (int k = 0; k < len[i]; k++) {
			int64_t seq = (int64_t)seqs[i][k];
			size_t h = seq_hash(seq) & (cap - 1);
			while (slot[h].member)
				h = (h + 1) & (cap - 1);
			slot[h] = (line_elem){db_col_text(r, i, 0), seq, mus[i][k], sigmas[i][k]};
		}
	for (int j = 0; j < set->n; j++) {
		db_stat_row *x = &set->rows[j];
		x->has_rating = false;
		for (size_t h = seq_hash(x->seq) & (cap - 1); slot[h].member;
		     h = (h + 1) & (cap - 1))
			if (slot[h].seq == x->seq && strcmp(slot[h].member, x->member) == 0) {
				x->has_rating = true;
				x->mu = slot[h].mu;
				x->sigma = slot[h].sigma;
				break;
			}
	}
	for (int i = 0; i < nl; i++) {
		free(seqs[i]);
		free(mus[i]);
		free(sigmas[i]);
	}
	free(seqs);
	free(mus);
	free(sigmas);
	free(len);
	free(slot);
	PQclear(r);
	return DB_OK;
}

db_status db_league_stat_rows(db_conn *c, const char *league, const char *season, const char *game,
                              db_stat_rows *out)
{
	const char *p[3] = {league, season, game};
	void *rows;
	db_status st = db_load(c, "league_stat_rows", 3, p, sizeof *out->rows, read_stat_row,
	                       &out->res, &out->n, &rows);
	out->rows = rows;
	if (st == DB_OK) {
		dense_index(out, true);
		dense_index(out, false);
		if (!season && !game) /* a filter's ratings are its scope's line (stats.c) */
			st = stat_rows_rate(c, league, out);
	}
	if (st != DB_OK)
		db_rowset_clear(out);
	return st;
}

db_status db_league_analyze(db_conn *c)
{
	return db_run_count(c, "analyze_league_tables", 0, NULL, NULL); /* analyze_league_tables */
}

db_status db_recompute_work_mem(db_conn *c)
{
	return db_run_count(c, "recompute_work_mem", 0, NULL, NULL); /* recompute_work_mem */
}

db_status db_member_lines_store(db_conn *c, const char *league, const db_member_lines *l)
{
	int len[9] = {0}, fmt[9] = {0, 0, 0, 1, 1, 1, 0, 1, 1}; /* member_lines_store */
	const char *p[9] = {league,
	                    l->members,
	                    l->counts,
	                    db_f8array_done(l->seqs, &len[3]),
	                    db_f8array_done(l->mus, &len[4]),
	                    db_f8array_done(l->sigmas, &len[5]),
	                    l->counts_all,
	                    db_f8array_done(l->all_seqs, &len[7]),
	                    db_f8array_done(l->rated_upto, &len[8])};
	return db_run_bin(c, "member_lines_store", 9, p, len, fmt, NULL);
}

db_status db_member_lines_append(db_conn *c, const char *league, const char *play,
                                 const char *members, db_f8array *mus, db_f8array *sigmas)
{
	int len[5] = {0}, fmt[5] = {0, 0, 0, 1, 1}; /* member_lines_append */
	const char *p[5] = {league, play, members, db_f8array_done(mus, &len[3]),
	                    db_f8array_done(sigmas, &len[4])};
	return db_run_bin(c, "member_lines_append", 5, p, len, fmt, NULL);
}

static void read_out_row(const PGresult *r, int i, void *row)
{
	/* league_rows_out: 0 member, 1 seq, 2 played_at µs */
	db_out_row *x = row;
	x->member = db_col_text(r, i, 0);
	x->seq = db_col_int64(r, i, 1);
	x->at_us = db_col_int64(r, i, 2);
}

db_status db_league_rows_out(db_conn *c, const char *league, db_out_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_rows_out", 1, p, out, read_out_row);
}

static void read_history(const PGresult *r, int i, void *row)
{
	/* player_history: 0 total, 1 mu, 2 sigma (the rating after every play; NULL: none yet),
	 * 3 play id (NULL: the page is empty), 4 game, 5 date, 6 cooperative, 7 score, 8 rank,
	 * 9 winner, 10 rated, 11 mu, 12 sigma (the rating after this play; NULL: none yet),
	 * 13 players */
	db_history_row *x = row;
	x->total = db_col_int64(r, i, 0);
	x->has_current = !db_col_null(r, i, 1);
	x->current_mu = x->has_current ? db_col_double(r, i, 1) : 0;
	x->current_sigma = x->has_current ? db_col_double(r, i, 2) : 0;
	x->play = db_col_text_or_null(r, i, 3);
	x->game = db_col_text(r, i, 4);
	x->date = db_col_text(r, i, 5);
	x->cooperative = db_col_bool(r, i, 6);
	x->has_score = !db_col_null(r, i, 7);
	x->score = x->has_score ? db_col_double(r, i, 7) : 0;
	x->rank = db_col_int(r, i, 8);
	x->winner = db_col_bool(r, i, 9);
	x->rated = db_col_bool(r, i, 10);
	x->has_rating = !db_col_null(r, i, 11);
	x->mu = x->has_rating ? db_col_double(r, i, 11) : 0;
	x->sigma = x->has_rating ? db_col_double(r, i, 12) : 0;
	x->players = db_col_int64(r, i, 13);
}

db_status db_player_history(db_conn *c, const char *member, const char *limit, const char *offset,
                            db_history_page *out)
{
	const char *p[3] = {member, limit, offset};
	void *rows;
	out->total = 0;
	out->has_current = false;
	out->current_mu = out->current_sigma = 0;
	db_status st = db_load(c, "player_history", 3, p, sizeof *out->items.rows, read_history,
	                       &out->items.res, &out->items.n, &rows);
	out->items.rows = rows;
	if (st == DB_OK && out->items.n > 0) {
		const db_history_row *x = &out->items.rows[0];
		out->total = x->total;
		out->has_current = x->has_current;
		out->current_mu = x->current_mu;
		out->current_sigma = x->current_sigma;
		if (x->play == NULL) /* the one row of an empty page */
			out->items.n = 0;
	}
	return st;
}

/* ---- export, backup, import ---- */

static void read_uuid(const PGresult *r, int i, void *row)
{
	db_uuid_row *x = row; /* league_uuids: 0 uuid */
	x->uuid = db_col_text(r, i, 0);
}

db_status db_league_uuids(db_conn *c, const char *league, db_uuid_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_uuids", 1, p, out, read_uuid);
}

static void read_bgg_play(const PGresult *r, int i, void *row)
{
	db_bgg_play_row *x = row; /* league_bgg_plays: 0 bgg_play_id, 1 source */
	x->bgg_play_id = db_col_int64(r, i, 0);
	x->source = db_col_text(r, i, 1);
}

db_status db_league_bgg_plays(db_conn *c, const char *league, db_bgg_play_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_bgg_plays", 1, p, out, read_bgg_play);
}

static void read_export(const PGresult *r, int i, void *row)
{
	/* league_export_rows: 0 play id, 1 uuid, 2 game, 3 bgg_id, 4 date (BG Stats form),
	 * 5 duration_min, 6 notes, 7 location, 8 cooperative, 9 source, 10 seat, 11 member name,
	 * 12 member id, 13 score, 14 rank, 15 winner, 16 breakdown, 17 mu, 18 sigma,
	 * 19 date (RFC 3339), 20 ignored, 21 bgg_play_id, 22 play extra, 23 result extra,
	 * 24 score_text, 25 player_uuid, 26 anonymous, 27 unrated, 28 incomplete, 29 game_uuid;
	 * 10 to 19 NULL for a play without results */
	db_export_row *x = row;
	x->play = db_col_text(r, i, 0);
	x->uuid = db_col_text(r, i, 1);
	x->game = db_col_text(r, i, 2);
	x->bgg_id = db_col_text_or_null(r, i, 3);
	x->date_bgs = db_col_text(r, i, 4);
	x->duration_min = db_col_text_or_null(r, i, 5);
	x->notes = db_col_text(r, i, 6);
	x->location = db_col_text(r, i, 7);
	x->cooperative = db_col_bool(r, i, 8);
	x->source = db_col_text(r, i, 9);
	x->seat = db_col_int(r, i, 10);
	x->name = db_col_text(r, i, 11);
	x->member = db_col_text(r, i, 12);
	x->score = db_col_text_or_null(r, i, 13);
	x->rank = db_col_int(r, i, 14);
	x->winner = db_col_bool(r, i, 15);
	x->breakdown = db_col_text_or_null(r, i, 16);
	x->mu = db_col_text_or_null(r, i, 17);
	x->sigma = db_col_text_or_null(r, i, 18);
	x->date = db_col_text(r, i, 19);
	x->ignored = db_col_bool(r, i, 20);
	x->bgg_play_id = db_col_text_or_null(r, i, 21);
	x->play_extra = db_col_text_or_null(r, i, 22);
	x->result_extra = db_col_text_or_null(r, i, 23);
	x->score_text = db_col_text_or_null(r, i, 24);
	x->player_uuid = db_col_text_or_null(r, i, 25);
	x->anonymous = db_col_bool(r, i, 26);
	x->has_result = !db_col_null(r, i, 12);
	x->unrated = db_col_bool(r, i, 27);
	x->incomplete = db_col_bool(r, i, 28);
	x->game_uuid = db_col_text_or_null(r, i, 29);
}

db_status db_league_export_rows(db_conn *c, const char *league, db_export_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_export_rows", 1, p, out, read_export);
}

static void read_league_game(const PGresult *r, int i, void *row)
{
	/* league_games_list: 0 name, 1 uuid, 2 bgg_id, 3 cooperative, 4 highest_wins,
	 * 5 no_points, 6 uses_teams, 7 source */
	db_league_game_row *x = row;
	x->name = db_col_text(r, i, 0);
	x->uuid = db_col_text_or_null(r, i, 1);
	x->bgg_id = db_col_text_or_null(r, i, 2);
	x->cooperative = db_col_bool(r, i, 3);
	x->highest_wins = db_col_bool(r, i, 4);
	x->no_points = db_col_bool(r, i, 5);
	x->uses_teams = db_col_bool(r, i, 6);
	x->source = db_col_text_or_null(r, i, 7);
}

db_status db_league_games_list(db_conn *c, const char *league, db_league_game_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_games_list", 1, p, out, read_league_game);
}

static void read_league_location(const PGresult *r, int i, void *row)
{
	db_league_location_row *x = row; /* league_locations_list: 0 name, 1 uuid, 2 source */
	x->name = db_col_text(r, i, 0);
	x->uuid = db_col_text_or_null(r, i, 1);
	x->source = db_col_text_or_null(r, i, 2);
}

db_status db_league_locations_list(db_conn *c, const char *league, db_league_location_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_locations_list", 1, p, out, read_league_location);
}

static void read_league_player(const PGresult *r, int i, void *row)
{
	db_league_player_row *x = row; /* league_players_list: 0 uuid, 1 source */
	x->uuid = db_col_text(r, i, 0);
	x->source = db_col_text(r, i, 1);
}

db_status db_league_players_list(db_conn *c, const char *league, db_league_player_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_players_list", 1, p, out, read_league_player);
}

db_status db_league_games_store(db_conn *c, const char *league, const char *const arrays[8])
{
	const char *p[9] = {league,    arrays[0], arrays[1], arrays[2], arrays[3],
	                    arrays[4], arrays[5], arrays[6], arrays[7]};
	return db_run_count(c, "league_games_store", 9, p, NULL); /* league_games_store */
}

db_status db_league_locations_store(db_conn *c, const char *league, const char *const arrays[3])
{
	const char *p[4] = {league, arrays[0], arrays[1], arrays[2]}; /* league_locations_store */
	return db_run_count(c, "league_locations_store", 4, p, NULL);
}

db_status db_league_players_store(db_conn *c, const char *league, const char *const arrays[2])
{
	const char *p[3] = {league, arrays[0], arrays[1]}; /* league_players_store */
	return db_run_count(c, "league_players_store", 3, p, NULL);
}

db_status db_member_mark_anonymous(db_conn *c, const char *member)
{
	const char *p[1] = {member}; /* member_mark_anonymous */
	return db_run_count(c, "member_mark_anonymous", 1, p, NULL);
}
