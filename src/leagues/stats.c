/* The pictures of a league (stats.h): one pass over the rows of league_stat_rows builds a
 * `stats` (ratings, members in standings order, head-to-head), and the JSON of each route is
 * read off it.
 *
 * Ratings: nothing is rated per request. Without filters, each row's rating is the one
 * stored after its play (the member's line, member_lines, written by league_recompute); with a
 * season or game filter, the rating after each row of the filter's scope, kept by league_recompute
 * too (league_scope_lines, scopes.c), so the player page shows the rating the filtered standings
 * show. Only a scope that is not kept (a season added since the last change of the plays, a
 * game filter naming several games) has its plays rated here, as its standings are. */
#include "leagues/stats.h"
#include "base/oom.h"
#include "db/accounts.h"
#include "db/leagues.h"
#include "json/jx.h"
#include "leagues/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	STATS_POINTS = 200, /* a line's points on the league page, at most */
	STATS_VALUES = 200, /* scores listed per game, at most */
	STATS_TOP = 5,      /* players drawn on the league page's rating chart */
	STATS_RIVALS = 3,   /* plays together before a nemesis or a victim is named */
};

typedef struct {
	const db_stat_row *y; /* borrowed from the row set */
	rating after;         /* the player's rating after this play */
	bool rated;
} srow;

typedef struct {
	const char *member, *name; /* borrowed; NULL: no row of this member */
	int games, wins, streak, longest, npoints;
	rating r;
} smember;

typedef struct {
	int games, above, below, ties;
} sh2h;

typedef struct {
	srow *rows; /* owned */
	int n, nm, ng;
	smember *mem; /* owned; nm, by the rows' member index */
	int *order;   /* owned; member indexes with rows, in standings order */
	int nplayers; /* entries of order */
	sh2h *h2h;    /* owned; nm × nm, or NULL past H2H_MAX_PLAYERS */
} stats;

static void stats_free(stats *s)
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
		                     .coop = s->rows[i].y->cooperative};
	league_rows lrs = {.rows = lr, .nrows = s->n, .nmembers = s->nm};
	rating *cur = xcalloc((size_t)(s->nm > 0 ? s->nm : 1), sizeof *cur);
	league_rows_rate(&lrs, cur);
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

/* Every ordered pair of one play (cooperative plays have no rivals): A above B when A's rank
 * is smaller, as GET …/head-to-head counts them. */
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
static void stats_build(stats *s, const db_stat_row *const *rows, int n, int nm, int ng,
                        bool filtered, const db_scope_line *line)
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
static void stats_counts(const db_stat_rows *set, int *nm, int *ng)
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
	jx_set(o, "date", jx_str(x->y->date));
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
static json_object *points_json(const stats *s, int m, int cap, bool full)
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
	jx_set(o, "min", league_num_json(true, v[0]));
	jx_set(o, "q1", jx_double(quantile(v, n, 0.25)));
	jx_set(o, "median", jx_double(quantile(v, n, 0.5)));
	jx_set(o, "q3", jx_double(quantile(v, n, 0.75)));
	jx_set(o, "max", league_num_json(true, v[n - 1]));
	json_object *vals = jx_arr();
	int k = n <= STATS_VALUES ? n : STATS_VALUES;
	for (int i = 0; i < k; i++) {
		long long at = n <= STATS_VALUES ? i : (long long)i * (n - 1) / (STATS_VALUES - 1);
		jx_push(vals, league_num_json(true, v[at]));
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
		if (i == 0 || strcmp(s->rows[i].y->play, s->rows[i - 1].y->play) != 0)
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

static json_object *league_json(const stats *s)
{
	json_object *players = jx_arr();
	for (int k = 0; k < s->nplayers; k++) {
		int m = s->order[k];
		json_object *o = jx_obj();
		jx_set(o, "player", jx_str(s->mem[m].member));
		jx_set(o, "name", jx_str(s->mem[m].name));
		jx_set(o, "top", jx_bool(k < STATS_TOP));
		jx_set(o, "rating", league_rating_json(s->mem[m].r));
		jx_set(o, "points", points_json(s, m, STATS_POINTS, false));
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

static void scope_line_free(db_scope_line *l)
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
	scope_line_free(a->line);
	db_status st = db_league_stat_rows(c, a->league, a->season, a->game, a->set);
	if (st == DB_OK)
		st = scope_line_get(c, a->league, a->line_season, a->game, a->line);
	return st;
}

/* The rows of the pictures (filters season and game: NULL for none) and the kept line of the
 * scope of line_season and game, read in one snapshot: the rows, the members' lines and the
 * scope's line of one version of the league. On success the caller clears *set and frees
 * *line; on failure both are empty. */
static db_status pictures_read(db_conn *c, const char *league, const char *season, const char *game,
                               const char *line_season, db_stat_rows *set, db_scope_line *line)
{
	*set = (db_stat_rows){0};
	memset(line, 0, sizeof *line);
	pictures_read_arg a = {league, season, game, line_season, set, line};
	db_status st = db_tx_snapshot(c, pictures_read_tx, &a);
	if (st != DB_OK) {
		db_rowset_clear(set);
		scope_line_free(line);
	}
	return st;
}

json_object *league_stats_json(db_conn *c, const char *league, const char *season, const char *game,
                               db_status *st)
{
	db_stat_rows set;
	db_scope_line line;
	if ((*st = pictures_read(c, league, season, game, season, &set, &line)) != DB_OK)
		return NULL;
	const db_stat_row **rows = xcalloc((size_t)(set.n ? set.n : 1), sizeof *rows);
	for (int i = 0; i < set.n; i++)
		rows[i] = &set.rows[i];
	int nm, ng;
	stats_counts(&set, &nm, &ng);
	stats s;
	stats_build(&s, rows, set.n, nm, ng, season || game, &line);
	json_object *o = league_json(&s);
	stats_free(&s);
	free(rows);
	scope_line_free(&line);
	db_rowset_clear(&set);
	return o;
}

/* ---- a player's page ---- */

/* The player's games by shown name: plays, wins, best score, lowest wins. */
static json_object *player_games_json(const stats *s, int m)
{
	typedef struct {
		int plays, wins, first;
		bool scored, lowest;
		double best;
	} pg;
	pg *t = xcalloc((size_t)(s->ng ? s->ng : 1), sizeof *t);
	int *games = xcalloc((size_t)(s->ng ? s->ng : 1), sizeof *games), ngames = 0;
	for (int i = 0; i < s->n; i++) {
		const db_stat_row *y = s->rows[i].y;
		if (y->m != m)
			continue;
		pg *e = &t[y->g];
		if (e->plays++ == 0) {
			e->first = i;
			games[ngames++] = y->g;
		}
		e->wins += y->winner;
		e->lowest = e->lowest || y->lowest_wins;
	}
	for (int i = 0; i < s->n; i++) { /* best: once lowest wins is known for the game */
		const db_stat_row *y = s->rows[i].y;
		pg *e = &t[y->g];
		if (y->m != m || !y->has_score)
			continue;
		if (!e->scored || (e->lowest ? y->score < e->best : y->score > e->best))
			e->best = y->score;
		e->scored = true;
	}
	for (int a = 1; a < ngames; a++)
		for (int b = a; b > 0 && strcmp(s->rows[t[games[b - 1]].first].y->game,
		                                s->rows[t[games[b]].first].y->game) > 0;
		     b--) {
			int x = games[b];
			games[b] = games[b - 1];
			games[b - 1] = x;
		}
	json_object *arr = jx_arr();
	for (int k = 0; k < ngames; k++) {
		const pg *e = &t[games[k]];
		json_object *o = jx_obj();
		jx_set(o, "game", jx_str(s->rows[e->first].y->game));
		jx_set(o, "plays", jx_int(e->plays));
		jx_set(o, "wins", jx_int(e->wins));
		jx_set(o, "best_score", league_num_json(e->scored, e->best));
		jx_set(o, "lowest_wins", jx_bool(e->lowest));
		jx_push(arr, o);
	}
	free(games);
	free(t);
	return arr;
}

/* The opponent of m with at least STATS_RIVALS plays together and the highest share of plays
 * where the opponent finished above m (nemesis) or m above them (victim, !nemesis); ties: more
 * plays, then name. null when none. */
static json_object *rival_json(const stats *s, int m, bool nemesis)
{
	if (s->h2h == NULL || m < 0)
		return NULL;
	int best = -1;
	double best_share = 0;
	for (int n = 0; n < s->nm; n++) {
		const sh2h *e = &s->h2h[(size_t)m * (size_t)s->nm + (size_t)n];
		if (n == m || e->games < STATS_RIVALS)
			continue;
		double share = (double)(nemesis ? e->below : e->above) / e->games;
		const sh2h *b = best < 0 ? NULL : &s->h2h[(size_t)m * (size_t)s->nm + (size_t)best];
		if (b == NULL || share > best_share ||
		    (share == best_share &&
		     (e->games > b->games ||
		      (e->games == b->games && strcmp(s->mem[n].name, s->mem[best].name) < 0)))) {
			best = n;
			best_share = share;
		}
	}
	if (best < 0)
		return NULL;
	const sh2h *e = &s->h2h[(size_t)m * (size_t)s->nm + (size_t)best];
	json_object *o = jx_obj();
	jx_set(o, "player", jx_str(s->mem[best].member));
	jx_set(o, "name", jx_str(s->mem[best].name));
	jx_set(o, "games", jx_int(e->games));
	jx_set(o, "above", jx_int(nemesis ? e->below : e->above));
	jx_set(o, "share", jx_double(best_share));
	return o;
}

/* Member `member` (named name) of the stats; m: its index, −1 when it has no row. */
static json_object *player_json(const stats *s, const char *member, const char *name, int m)
{
	json_object *o = jx_obj();
	jx_set(o, "player", jx_str(member));
	jx_set(o, "name", jx_str(name));
	jx_set(o, "rating", league_rating_json(m < 0 ? rating_default() : s->mem[m].r));
	jx_set(o, "points", m < 0 ? jx_arr() : points_json(s, m, 0, true));
	jx_set(o, "games", m < 0 ? jx_arr() : player_games_json(s, m));
	json_object *streaks = jx_obj();
	jx_set(streaks, "current", jx_int(m < 0 ? 0 : s->mem[m].streak));
	jx_set(streaks, "longest", jx_int(m < 0 ? 0 : s->mem[m].longest));
	jx_set(o, "streaks", streaks);
	jx_set(o, "nemesis", rival_json(s, m, true));
	jx_set(o, "victim", rival_json(s, m, false));
	return o;
}

/* ---- a season's recap ---- */

/* The biggest rise of ordinal over the season, by the stored ratings of the whole league
 * (all[0..n), in play order): from the rating after the member's last rated play before the
 * season (else the starting rating) to the one after their last rated play in it. */
static json_object *climb_json(const db_stat_rows *all, int nm, const char *from, const char *to)
{
	rating *before = xcalloc((size_t)(nm ? nm : 1), sizeof *before),
	       *after = xcalloc((size_t)(nm ? nm : 1), sizeof *after);
	bool *in = xcalloc((size_t)(nm ? nm : 1), sizeof *in);
	const char **name = xcalloc((size_t)(nm ? nm : 1), sizeof *name),
	           **id = xcalloc((size_t)(nm ? nm : 1), sizeof *id);
	for (int m = 0; m < nm; m++)
		before[m] = rating_default();
	for (int i = 0; i < all->n; i++) {
		const db_stat_row *y = &all->rows[i];
		if (!y->has_rating)
			continue;
		if (strcmp(y->local_date, from) < 0) {
			before[y->m] = (rating){y->mu, y->sigma};
		} else if (strcmp(y->local_date, to) <= 0) {
			after[y->m] = (rating){y->mu, y->sigma};
			in[y->m] = true;
			name[y->m] = y->name;
			id[y->m] = y->member;
		}
	}
	int best = -1;
	double best_delta = 0;
	for (int m = 0; m < nm; m++) {
		if (!in[m])
			continue;
		double d = rating_ordinal(after[m]) - rating_ordinal(before[m]);
		if (best < 0 || d > best_delta ||
		    (d == best_delta && strcmp(name[m], name[best]) < 0)) {
			best = m;
			best_delta = d;
		}
	}
	json_object *o = NULL;
	if (best >= 0) {
		o = jx_obj();
		jx_set(o, "player", jx_str(id[best]));
		jx_set(o, "name", jx_str(name[best]));
		jx_set(o, "from", jx_double(rating_ordinal(before[best])));
		jx_set(o, "to", jx_double(rating_ordinal(after[best])));
		jx_set(o, "delta", jx_double(best_delta));
	}
	free(id);
	free(name);
	free(in);
	free(after);
	free(before);
	return o;
}

static json_object *most_played_json(const stats *s)
{
	int *count = xcalloc((size_t)(s->ng ? s->ng : 1), sizeof *count);
	const char **name = xcalloc((size_t)(s->ng ? s->ng : 1), sizeof *name);
	for (int i = 0; i < s->n; i++)
		if (i == 0 || strcmp(s->rows[i].y->play, s->rows[i - 1].y->play) != 0) {
			count[s->rows[i].y->g]++;
			name[s->rows[i].y->g] = s->rows[i].y->game;
		}
	int best = -1;
	for (int g = 0; g < s->ng; g++)
		if (count[g] && (best < 0 || count[g] > count[best] ||
		                 (count[g] == count[best] && strcmp(name[g], name[best]) < 0)))
			best = g;
	json_object *o = NULL;
	if (best >= 0) {
		o = jx_obj();
		jx_set(o, "game", jx_str(name[best]));
		jx_set(o, "plays", jx_int(count[best]));
	}
	free(name);
	free(count);
	return o;
}

static json_object *placed_json(const db_stat_row *y)
{
	json_object *o = jx_obj();
	jx_set(o, "player", jx_str(y->member));
	jx_set(o, "name", jx_str(y->name));
	jx_set(o, "score", league_num_json(true, y->score));
	return o;
}

/* The scored play (not cooperative, two scores or more) with the smallest gap between the
 * first and the second place (by rank, then seat); the earliest of equal gaps. */
static json_object *closest_json(const stats *s)
{
	const db_stat_row *bf = NULL, *bs = NULL;
	double best = 0;
	for (int i = 0; i < s->n;) {
		int j = i;
		while (j < s->n && strcmp(s->rows[j].y->play, s->rows[i].y->play) == 0)
			j++;
		const db_stat_row *f = NULL, *sec = NULL;
		for (int k = i; k < j && !s->rows[i].y->cooperative; k++) {
			const db_stat_row *y = s->rows[k].y;
			if (!y->has_score)
				continue;
			if (f == NULL || y->rank < f->rank) {
				sec = f;
				f = y;
			} else if (sec == NULL || y->rank < sec->rank) {
				sec = y;
			}
		}
		if (sec && (bf == NULL || fabs(f->score - sec->score) < best)) {
			bf = f;
			bs = sec;
			best = fabs(f->score - sec->score);
		}
		i = j;
	}
	if (bf == NULL)
		return NULL;
	json_object *o = jx_obj();
	jx_set(o, "play", jx_str(bf->play));
	jx_set(o, "date", jx_str(bf->date));
	jx_set(o, "game", jx_str(bf->game));
	jx_set(o, "margin", league_num_json(true, best));
	jx_set(o, "first", placed_json(bf));
	jx_set(o, "second", placed_json(bs));
	return o;
}

static json_object *streak_json(const stats *s)
{
	int best = -1;
	for (int k = 0; k < s->nplayers; k++) {
		int m = s->order[k];
		if (s->mem[m].longest > 0 &&
		    (best < 0 || s->mem[m].longest > s->mem[best].longest ||
		     (s->mem[m].longest == s->mem[best].longest &&
		      strcmp(s->mem[m].name, s->mem[best].name) < 0)))
			best = m;
	}
	if (best < 0)
		return NULL;
	json_object *o = jx_obj();
	jx_set(o, "player", jx_str(s->mem[best].member));
	jx_set(o, "name", jx_str(s->mem[best].name));
	jx_set(o, "wins", jx_int(s->mem[best].longest));
	return o;
}

static json_object *champion_json(const stats *s)
{
	if (s->nplayers == 0)
		return NULL;
	const smember *p = &s->mem[s->order[0]];
	json_object *o = jx_obj();
	jx_set(o, "player", jx_str(p->member));
	jx_set(o, "name", jx_str(p->name));
	jx_set(o, "rating", league_rating_json(p->r));
	return o;
}

static int count_plays(const stats *s)
{
	int n = 0;
	for (int i = 0; i < s->n; i++)
		n += i == 0 || strcmp(s->rows[i].y->play, s->rows[i - 1].y->play) != 0;
	return n;
}

json_object *league_recap_json(db_conn *c, const char *league, const char *season, bool *found,
                               db_status *st)
{
	*found = false;
	db_league_row lrow;
	if ((*st = db_league_get(c, league, &lrow)) != DB_OK)
		return NULL;
	db_season_rows seasons = {0};
	if ((*st = db_league_seasons(c, league, &seasons)) != DB_OK)
		return NULL;
	const db_season_row *sr = NULL;
	for (int i = 0; i < seasons.n; i++)
		if (strcmp(seasons.rows[i].id, season) == 0)
			sr = &seasons.rows[i];
	if (sr == NULL || !lrow.found) {
		db_rowset_clear(&seasons);
		return NULL;
	}
	*found = true;
	char from[16], to[16];
	snprintf(from, sizeof from, "%.10s", sr->starts);
	snprintf(to, sizeof to, "%.10s", sr->ends);
	db_stat_rows all;
	db_scope_line line;
	/* every row (a climb starts before the season), the season's line */
	if ((*st = pictures_read(c, league, NULL, NULL, season, &all, &line)) != DB_OK) {
		db_rowset_clear(&seasons);
		return NULL;
	}
	/* the season's rows: its plays' local dates, as the season filter selects them */
	const db_stat_row **rows = xcalloc((size_t)(all.n ? all.n : 1), sizeof *rows);
	int n = 0;
	for (int i = 0; i < all.n; i++)
		if (strcmp(all.rows[i].local_date, from) >= 0 &&
		    strcmp(all.rows[i].local_date, to) <= 0)
			rows[n++] = &all.rows[i];
	int nm, ng;
	stats_counts(&all, &nm, &ng);
	stats s;
	stats_build(&s, rows, n, nm, ng, true, &line);
	json_object *o = jx_obj(), *lg = jx_obj(), *so = jx_obj();
	jx_set(lg, "id", jx_str(league));
	jx_set(lg, "name", jx_str(lrow.name));
	jx_set(o, "league", lg);
	jx_set(so, "id", jx_str(sr->id));
	jx_set(so, "name", jx_str(sr->name));
	jx_set(so, "from", jx_str(from));
	jx_set(so, "to", jx_str(to));
	jx_set(o, "season", so);
	jx_set(o, "plays", jx_int(count_plays(&s)));
	jx_set(o, "champion", champion_json(&s));
	jx_set(o, "climb", climb_json(&all, nm, from, to));
	jx_set(o, "most_played", most_played_json(&s));
	jx_set(o, "closest", closest_json(&s));
	jx_set(o, "streak", streak_json(&s));
	jx_set(o, "stats", league_json(&s));
	stats_free(&s);
	free(rows);
	scope_line_free(&line);
	db_rowset_clear(&all);
	db_rowset_clear(&seasons);
	return o;
}

/* ---- the routes ---- */

/* The cached reply of key at the league's version, with its ETag (and 304 when the client
 * has it); build makes the JSON on a miss (NULL: a database failure). */
typedef json_object *(*stats_build_fn)(db_conn *c, const http_req *req, const char *season,
                                       const char *game, db_status *st);

static int cached_reply(const http_req *req, http_resp *resp, db_conn *c, long long version,
                        const char *key, stats_build_fn build, const char *season, const char *game)
{
	char etag[LEAGUE_ETAG_LEN];
	league_etag(etag, version, key);
	if (league_not_modified(req, resp, etag))
		return 0;
	if (!league_cache_get(req, key, version, resp)) {
		db_status st;
		json_object *o = build(c, req, season, game, &st);
		if (o == NULL) {
			league_cache_done(key, version);
			return acct_reply_db(resp);
		}
		league_cache_put(key, version, resp, o, NULL);
	}
	league_tag_reply(resp, etag);
	return 0;
}

static json_object *build_league(db_conn *c, const http_req *req, const char *season,
                                 const char *game, db_status *st)
{
	return league_stats_json(c, req->params[0], season, game, st);
}

static int stats_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	const char *season, *game;
	if (!league_access_as(resp, c, acc, req->params[0], false, &a) ||
	    !leagues_read_filters(req, resp, c, &season, &game))
		return 0;
	char key[LCACHE_KEY];
	league_cache_key(key, "stats\n%s\n%s\n%s", req->params[0], season ? season : "",
	                 game ? game : "");
	return cached_reply(req, resp, c, a.version, key, build_league, season, game);
}

int api_league_stats(const http_req *req, http_resp *resp)
{
	return league_read(req, resp, stats_read);
}

static json_object *build_player(db_conn *c, const http_req *req, const char *season,
                                 const char *game, db_status *st)
{
	db_member_league ml;
	if ((*st = db_member_league_get(c, req->params[1], &ml)) != DB_OK)
		return NULL;
	db_stat_rows set;
	db_scope_line line;
	if ((*st = pictures_read(c, req->params[0], season, game, season, &set, &line)) != DB_OK)
		return NULL;
	const db_stat_row **rows = xcalloc((size_t)(set.n ? set.n : 1), sizeof *rows);
	int m = -1;
	for (int i = 0; i < set.n; i++) {
		rows[i] = &set.rows[i];
		if (strcmp(set.rows[i].member, req->params[1]) == 0)
			m = set.rows[i].m;
	}
	int nm, ng;
	stats_counts(&set, &nm, &ng);
	stats s;
	stats_build(&s, rows, set.n, nm, ng, season || game, &line);
	json_object *o = player_json(&s, req->params[1], ml.name, m);
	stats_free(&s);
	free(rows);
	scope_line_free(&line);
	db_rowset_clear(&set);
	return o;
}

static int player_stats_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	const char *season, *game;
	if (!league_access_as(resp, c, acc, req->params[0], false, &a))
		return 0;
	db_member_league ml;
	if (league_member_at(c, req->params[1], a.version, &ml) != DB_OK)
		return acct_reply_db(resp);
	if (!ml.found || strcmp(ml.league, req->params[0]) != 0)
		return http_reply_problem(resp, 404, "no such player in this league", NULL, NULL);
	if (!leagues_read_filters(req, resp, c, &season, &game))
		return 0;
	char key[LCACHE_KEY];
	league_cache_key(key, "player-stats\n%s\n%s\n%s\n%s", req->params[0], req->params[1],
	                 season ? season : "", game ? game : "");
	return cached_reply(req, resp, c, a.version, key, build_player, season, game);
}

int api_league_player_stats(const http_req *req, http_resp *resp)
{
	return league_read(req, resp, player_stats_read);
}

static json_object *build_recap(db_conn *c, const http_req *req, const char *season,
                                const char *game, db_status *st)
{
	(void)game;
	bool found;
	json_object *o = league_recap_json(c, req->params[0], season, &found, st);
	if (o == NULL && *st == DB_OK) /* the season went between the check and the read */
		*st = DB_FAIL;
	return o;
}

static int recap_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	if (!league_access_as(resp, c, acc, req->params[0], false, &a))
		return 0;
	bool found;
	if (db_season_exists(c, req->params[0], req->params[1], &found) != DB_OK)
		return acct_reply_db(resp);
	if (!found)
		return http_reply_problem(resp, 404, "no such season in this league", NULL, NULL);
	char key[LCACHE_KEY];
	league_cache_key(key, "recap\n%s\n%s", req->params[0], req->params[1]);
	return cached_reply(req, resp, c, a.version, key, build_recap, req->params[1], NULL);
}

int api_league_recap(const http_req *req, http_resp *resp)
{
	return league_read(req, resp, recap_read);
}
