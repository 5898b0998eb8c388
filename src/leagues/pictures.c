/* The pictures of a league (pictures.h): the rows of db_league_stat_rows rated or read off the
 * kept lines, the members in standings order, head-to-head, and the JSON every picture shares. */
#include "leagues/pictures.h"
#include "leagues/rows.h"
#include "json/jx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pictures_free(stats *s)
{
	free(s->rows);
	free(s->mem);
	free(s->order);
	free(s->h2h);
	memset(s, 0, sizeof *s);
}

/* Standings order (standings.c standing_cmp): ordinal, then wins, then name. */
static int member_cmp(const void *a, const void *b)
{
	const smember *x = *(const smember *const *)a, *y = *(const smember *const *)b;
	double ox = rating_ordinal(x->r), oy = rating_ordinal(y->r);
	if (ox != oy)
		return ox > oy ? -1 : 1;
	if (x->wins != y->wins)
		return y->wins - x->wins;
	return strcmp(x->name, y->name);
}

/* Each row's rating after its play, for the rows of a filter (season, game): the kept line of
 * the filter's scope when it has one rating per row, else the selected plays rated here in
 * order from the starting rating (a scope that is not kept). */
static void stats_rate_filtered(stats *s, const db_scope_line *line)
{
	if (line && line->n == s->n) {
		for (int i = 0; i < s->n; i++) {
			s->rows[i].rated = !isnan(line->mu[i]);
			s->rows[i].after = s->rows[i].rated ? (rating){line->mu[i], line->sigma[i]}
			                                    : rating_default();
		}
		return;
	}
	league_row *lr = xcalloc((size_t)(s->n > 0 ? s->n : 1), sizeof *lr);
	for (int i = 0; i < s->n; i++)
		lr[i] = (league_row){.play = s->rows[i].y->play,
		                     .seq = s->rows[i].y->seq,
		                     .m = s->rows[i].y->m,
		                     .rank = s->rows[i].y->rank,
		                     .coop = s->rows[i].y->cooperative,
		                     .team = s->rows[i].y->team};
	league_rows lrs = {.rows = lr, .nrows = s->n, .nmembers = s->nm};
	rating *cur = xcalloc((size_t)(s->nm > 0 ? s->nm : 1), sizeof *cur);
	rows_rate(&lrs, cur);
	for (int i = 0; i < s->n; i++) {
		s->rows[i].after = lr[i].after;
		s->rows[i].rated = lr[i].rated;
	}
	free(cur);
	free(lr);
}

/* Each row's rating after its play: without filters (filtered false) the one stored after
 * it, else stats_rate_filtered with line (may be NULL). */
static void stats_rate(stats *s, bool filtered, const db_scope_line *line)
{
	if (filtered) {
		stats_rate_filtered(s, line);
		return;
	}
	rating *cur = xcalloc((size_t)(s->nm ? s->nm : 1), sizeof *cur);
	for (int m = 0; m < s->nm; m++)
		cur[m] = rating_default();
	for (int i = 0; i < s->n; i++) {
		const db_stat_row *y = s->rows[i].y;
		if (y->has_rating)
			cur[y->m] = (rating){y->mu, y->sigma};
		s->rows[i].after = cur[y->m];
		s->rows[i].rated = y->has_rating;
	}
	free(cur);
}

/* Every ordered pair of one play (cooperative plays have no rivals, teammates are not rivals):
 * A above B when A's rank is smaller, as GET …/head-to-head counts them. */
static void stats_h2h(stats *s)
{
	if (s->nm > H2H_MAX_PLAYERS) /* nm² cells: bounded memory */
		return;
	size_t nm = (size_t)s->nm;
	s->h2h = xcalloc(nm > 0 ? nm * nm : 1, sizeof *s->h2h);
	for (int i = 0; i < s->n;) {
		int j = i;
		while (j < s->n && strcmp(s->rows[j].y->play, s->rows[i].y->play) == 0)
			j++;
		for (int k = i; k < j && !s->rows[i].y->cooperative; k++)
			for (int l = i; l < j; l++) {
				const db_stat_row *x = s->rows[k].y, *o = s->rows[l].y;
				if (l == k)
					continue;
				sh2h *e = &s->h2h[(size_t)x->m * nm + (size_t)o->m];
				if (rows_teammates(x->team, o->team)) {
					e->teammate++;
					continue;
				}
				e->games++;
				e->above += x->rank < o->rank;
				e->below += x->rank > o->rank;
				e->ties += x->rank == o->rank;
			}
		i = j;
	}
}

/* Builds s from rows[0..n) (borrowed; all of one league, in play order, member and game
 * indexes below nm and ng). filtered, line: see stats_rate. */
void pictures_build(stats *s, const db_stat_row *const *rows, int n, int nm, int ng, bool filtered,
                    const db_scope_line *line)
{
	memset(s, 0, sizeof *s);
	s->n = n;
	s->nm = nm;
	s->ng = ng;
	s->rows = xcalloc((size_t)(n ? n : 1), sizeof *s->rows);
	for (int i = 0; i < n; i++)
		s->rows[i].y = rows[i];
	stats_rate(s, filtered, line);
	s->mem = xcalloc((size_t)(nm ? nm : 1), sizeof *s->mem);
	for (int m = 0; m < nm; m++)
		s->mem[m].r = rating_default();
	for (int i = 0; i < n; i++) {
		const srow *x = &s->rows[i];
		smember *p = &s->mem[x->y->m];
		p->member = x->y->member;
		p->name = x->y->name;
		p->games++;
		p->wins += x->y->winner;
		p->streak = x->y->winner ? p->streak + 1 : 0;
		if (p->streak > p->longest)
			p->longest = p->streak;
		if (x->rated) {
			p->r = x->after;
			p->npoints++;
		}
	}
	const smember **by = xcalloc((size_t)(nm ? nm : 1), sizeof *by);
	for (int m = 0; m < nm; m++)
		if (s->mem[m].member)
			by[s->nplayers++] = &s->mem[m];
	qsort(by, (size_t)s->nplayers, sizeof *by, member_cmp);
	s->order = xcalloc((size_t)(nm ? nm : 1), sizeof *s->order);
	for (int k = 0; k < s->nplayers; k++)
		s->order[k] = (int)(by[k] - s->mem);
	free(by);
	stats_h2h(s);
}

/* Counts of a row set: members and games (1 + the largest index). */
void pictures_counts(const db_stat_rows *set, int *nm, int *ng)
{
	*nm = 0;
	*ng = 0;
	for (int i = 0; i < set->n; i++) {
		if (set->rows[i].m >= *nm)
			*nm = set->rows[i].m + 1;
		if (set->rows[i].g >= *ng)
			*ng = set->rows[i].g + 1;
	}
}

/* ---- JSON ---- */

/* A rating point: play, date, [game and rank], mu, sigma, ordinal, [provisional]. */
static json_object *point_json(const srow *x, bool full)
{
	json_object *o = jx_obj();
	jx_set(o, "play", jx_str(x->y->play));
	jx_set(o, "date", jx_str_or_null(x->y->date)); /* null: undated */
	if (full) {
		jx_set(o, "game", jx_str(x->y->game));
		jx_set(o, "rank", jx_int(x->y->rank));
	}
	jx_set(o, "mu", jx_double(x->after.mu));
	jx_set(o, "sigma", jx_double(x->after.sigma));
	jx_set(o, "ordinal", jx_double(rating_ordinal(x->after)));
	if (full)
		jx_set(o, "provisional", jx_bool(rating_provisional(x->after)));
	return o;
}

/* Member m's rating points: every one (cap 0), or at most cap evenly thinned, the first and
 * the last kept. */
json_object *pictures_points_json(const stats *s, int m, int cap, bool full)
{
	json_object *arr = jx_arr();
	int k = s->mem[m].npoints, seen = 0, next = 0;
	for (int i = 0; i < s->n && seen < k; i++) {
		const srow *x = &s->rows[i];
		if (x->y->m != m || !x->rated)
			continue;
		/* with thinning, point `next` of cap is rated play next·(k−1)/(cap−1) */
		bool keep = cap == 0 || k <= cap ||
		            (next < cap && (long long)next * (k - 1) / (cap - 1) == seen);
		if (keep) {
			jx_push(arr, point_json(x, full));
			next++;
		}
		seen++;
	}
	return arr;
}

static double quantile(const double *v, int n, double p)
{
	double pos = (n - 1) * p;
	int lo = (int)floor(pos), hi = lo + 1 < n ? lo + 1 : lo;
	return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* One game's scores: n, min, quartiles (linear, as numpy's default), max, values. */
static json_object *spread_json(const char *game, bool lowest, double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, double_cmp);
	json_object *o = jx_obj();
	jx_set(o, "game", jx_str(game));
	jx_set(o, "lowest_wins", jx_bool(lowest));
	jx_set(o, "n", jx_int(n));
	jx_set(o, "min", rows_num_json(true, v[0]));
	jx_set(o, "q1", jx_double(quantile(v, n, 0.25)));
	jx_set(o, "median", jx_double(quantile(v, n, 0.5)));
	jx_set(o, "q3", jx_double(quantile(v, n, 0.75)));
	jx_set(o, "max", rows_num_json(true, v[n - 1]));
	json_object *vals = jx_arr();
	int k = n <= STATS_VALUES ? n : STATS_VALUES;
	for (int i = 0; i < k; i++) {
		long long at = n <= STATS_VALUES ? i : (long long)i * (n - 1) / (STATS_VALUES - 1);
		jx_push(vals, rows_num_json(true, v[at]));
	}
	jx_set(o, "values", vals);
	return o;
}

/* Per game with scores, by name. */
static json_object *scores_json(const stats *s)
{
	int *count = xcalloc((size_t)(s->ng ? s->ng : 1), sizeof *count);
	int *first = xcalloc((size_t)(s->ng ? s->ng : 1), sizeof *first);
	bool *lowest = xcalloc((size_t)(s->ng ? s->ng : 1), sizeof *lowest);
	for (int i = 0; i < s->n; i++) {
		const db_stat_row *y = s->rows[i].y;
		if (!y->has_score)
			continue;
		if (count[y->g]++ == 0)
			first[y->g] = i;
		lowest[y->g] = lowest[y->g] || y->lowest_wins;
	}
	int *games = xcalloc((size_t)(s->ng ? s->ng : 1), sizeof *games), ngames = 0;
	for (int g = 0; g < s->ng; g++)
		if (count[g])
			games[ngames++] = g;
	/* by shown name (insertion sort: a league has few games) */
	for (int a = 1; a < ngames; a++)
		for (int b = a; b > 0 && strcmp(s->rows[first[games[b - 1]]].y->game,
		                                s->rows[first[games[b]]].y->game) > 0;
		     b--) {
			int t = games[b];
			games[b] = games[b - 1];
			games[b - 1] = t;
		}
	json_object *arr = jx_arr();
	double *v = xcalloc((size_t)(s->n ? s->n : 1), sizeof *v);
	for (int k = 0; k < ngames; k++) {
		int g = games[k], nv = 0;
		for (int i = first[g]; i < s->n; i++)
			if (s->rows[i].y->g == g && s->rows[i].y->has_score)
				v[nv++] = s->rows[i].y->score;
		jx_push(arr, spread_json(s->rows[first[g]].y->game, lowest[g], v, nv));
	}
	free(v);
	free(games);
	free(lowest);
	free(first);
	free(count);
	return arr;
}

static json_object *h2h_json(const stats *s)
{
	json_object *arr = jx_arr();
	if (s->h2h == NULL)
		return arr;
	for (int a = 0; a < s->nplayers; a++)
		for (int b = 0; b < s->nplayers; b++) {
			int m = s->order[a], n = s->order[b];
			const sh2h *e = &s->h2h[(size_t)m * (size_t)s->nm + (size_t)n];
			if (e->games == 0)
				continue;
			json_object *o = jx_obj();
			jx_set(o, "player", jx_str(s->mem[m].member));
			jx_set(o, "name", jx_str(s->mem[m].name));
			jx_set(o, "opponent", jx_str(s->mem[n].member));
			jx_set(o, "opponent_name", jx_str(s->mem[n].name));
			jx_set(o, "games", jx_int(e->games));
			jx_set(o, "above", jx_int(e->above));
			jx_set(o, "below", jx_int(e->below));
			jx_set(o, "ties", jx_int(e->ties));
			jx_set(o, "share", jx_double((double)e->above / e->games));
			jx_set(o, "teammate", jx_int(e->teammate));
			jx_push(arr, o);
		}
	return arr;
}

/* "YYYY-MM…" → year·12 + month − 1. */
static int month_index(const char *date)
{
	return atoi(date) * 12 + atoi(date + 5) - 1;
}

/* Plays per month of their local date, every month from the first to the last. */
static json_object *months_json(const stats *s)
{
	json_object *arr = jx_arr();
	int lo = 0, hi = -1;
	for (int i = 0; i < s->n; i++) {
		if (s->rows[i].y->date == NULL) /* undated: in no month */
			continue;
		int k = month_index(s->rows[i].y->local_date);
		if (hi < lo || k < lo)
			lo = k;
		if (k > hi)
			hi = k;
	}
	if (hi < lo)
		return arr;
	int *count = xcalloc((size_t)(hi - lo + 1), sizeof *count);
	for (int i = 0; i < s->n; i++)
		if (s->rows[i].y->date &&
		    (i == 0 || strcmp(s->rows[i].y->play, s->rows[i - 1].y->play) != 0))
			count[month_index(s->rows[i].y->local_date) - lo]++;
	for (int k = lo; k <= hi; k++) {
		char month[16];
		snprintf(month, sizeof month, "%04d-%02d", k / 12, k % 12 + 1);
		json_object *o = jx_obj();
		jx_set(o, "month", jx_str(month));
		jx_set(o, "plays", jx_int(count[k - lo]));
		jx_push(arr, o);
	}
	free(count);
	return arr;
}

json_object *pictures_league_json(const stats *s)
{
	json_object *players = jx_arr();
	for (int k = 0; k < s->nplayers; k++) {
		int m = s->order[k];
		json_object *o = jx_obj();
		jx_set(o, "player", jx_str(s->mem[m].member));
		jx_set(o, "name", jx_str(s->mem[m].name));
		jx_set(o, "top", jx_bool(k < STATS_TOP));
		jx_set(o, "rating", rows_rating_json(s->mem[m].r));
		jx_set(o, "points", pictures_points_json(s, m, STATS_POINTS, false));
		jx_push(players, o);
	}
	json_object *o = jx_obj();
	jx_set(o, "players", players);
	jx_set(o, "scores", scores_json(s));
	jx_set(o, "head_to_head", h2h_json(s));
	jx_set(o, "months", months_json(s));
	return o;
}

/* The kept line of the scope of these filters, when there are filters (else, or when the
 * scope is not kept, out stays empty: see stats_rate). */
static db_status scope_line_get(db_conn *c, const char *league, const char *season,
                                const char *game, db_scope_line *out)
{
	memset(out, 0, sizeof *out);
	if (season == NULL && game == NULL)
		return DB_OK;
	bool kept;
	return db_league_scope_line(c, league, season, game, &kept, out);
}

void pictures_line_free(db_scope_line *l)
{
	free(l->mu);
	free(l->sigma);
	memset(l, 0, sizeof *l);
}

typedef struct {
	const char *league, *season, *game, *line_season;
	db_stat_rows *set;
	db_scope_line *line;
} pictures_read_arg;

static db_status pictures_read_tx(db_conn *c, void *arg)
{
	pictures_read_arg *a = arg;
	db_rowset_clear(a->set); /* a retry reads again */
	pictures_line_free(a->line);
	db_status st = db_league_stat_rows(c, a->league, a->season, a->game, a->set);
	if (st == DB_OK)
		st = scope_line_get(c, a->league, a->line_season, a->game, a->line);
	return st;
}

/* The rows of the pictures (filters season and game: NULL for none) and the kept line of the
 * scope of line_season and game, read in one snapshot: the rows, the members' lines and the
 * scope's line of one version of the league. On success the caller clears *set and frees
 * *line; on failure both are empty. */
db_status pictures_read(db_conn *c, const char *league, const char *season, const char *game,
                        const char *line_season, db_stat_rows *set, db_scope_line *line)
{
	*set = (db_stat_rows){0};
	memset(line, 0, sizeof *line);
	pictures_read_arg a = {league, season, game, line_season, set, line};
	db_status st = db_tx_snapshot(c, pictures_read_tx, &a);
	if (st != DB_OK) {
		db_rowset_clear(set);
		pictures_line_free(line);
	}
	return st;
}
