/* Typed rows of what the ratings are computed from and kept in: the league's results in play
 * order, the members' lines, a member's history (see leagues.h; SQL in statements.c). */
#include "db/league_rows.h"
#include "db/leagues.h"

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
