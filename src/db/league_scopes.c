/* Typed rows of the kept standings of every scope (see leagues.h; SQL in statements.c). */
#include "db/league_rows.h"
#include "db/leagues.h"

#include "base/oom.h"

#include <string.h>

/* ---- kept standings ---- */

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
		out->mu = lg_parse_float_array(db_col_text(r, 0, 1), &nm);
		out->sigma = lg_parse_float_array(db_col_text(r, 0, 2), &ns);
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
