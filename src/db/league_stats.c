/* Typed rows of the league's pictures: league_stat_rows with each row's rating and dense indexes
 * of its member and game (see leagues.h; SQL in statements.c). */
#include "db/league_rows.h"
#include "db/leagues.h"

#include "base/oom.h"

#include <stdlib.h>
#include <string.h>

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
		seqs[i] = lg_parse_float_array(db_col_text(r, i, 1), &a);
		mus[i] = lg_parse_float_array(db_col_text(r, i, 2), &b);
		sigmas[i] = lg_parse_float_array(db_col_text(r, i, 3), &d);
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
