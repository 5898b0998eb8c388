/* The kept standings of every scope a standings filter can ask for: the whole league, each
 * season, each game, each season's game (migrations/0016_league_scopes.sql). league_recompute
 * calls league_scopes_keep with the league's rows after every change of its plays, in the same
 * transaction, so a standings read is one indexed query at any size (standings.c). */
#include "base/oom.h"
#include "base/sbuf.h"
#include "db/leagues.h"
#include "leagues/internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SCOPE_COLS = 11 }; /* the arrays of league_scopes_insert */

/* The rows of one scope, in play order. */
typedef struct {
	int *idx; /* owned */
	int n, cap;
} scope_rows;

static void scope_push(scope_rows *sc, int row)
{
	if (sc->n == sc->cap) {
		sc->cap = sc->cap ? 2 * sc->cap : 64;
		sc->idx = xrealloc(sc->idx, (size_t)sc->cap * sizeof *sc->idx);
	}
	sc->idx[sc->n++] = row;
}

/* Index of key among keys[0..*n) (added when new; borrowed pointers). */
static int key_index(const char **keys, int *n, const char *key)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(keys[i], key) == 0)
			return i;
	keys[*n] = key;
	return (*n)++;
}

/* The layout of the scopes: 0 the league, 1 + s season s, 1 + S + g game g, then
 * 1 + S + G + s·G + g season s's game g. */
typedef struct {
	int nseasons, ngames, n;
	scope_rows *rows;  /* n of them, owned */
	const char **keys; /* ngames, borrowed from the rows */
} scope_set;

/* Sorts every row of s into the scopes it belongs to. */
static void scopes_fill(scope_set *ss, const league_rows *s, const db_season_rows *seasons)
{
	int S = seasons->n;
	ss->keys = xcalloc((size_t)(s->nrows ? s->nrows : 1), sizeof *ss->keys);
	int *gk = xcalloc((size_t)(s->nrows ? s->nrows : 1), sizeof *gk);
	ss->ngames = 0;
	for (int i = 0; i < s->nrows; i++) /* a play's rows share its game */
		gk[i] = i > 0 && strcmp(s->rows[i].play, s->rows[i - 1].play) == 0 ? gk[i - 1]
		        : s->rows[i].key[0] ? key_index(ss->keys, &ss->ngames, s->rows[i].key)
		                            : -1;
	int G = ss->ngames;
	ss->nseasons = S;
	ss->n = 1 + S + G + S * G;
	ss->rows = xcalloc((size_t)ss->n, sizeof *ss->rows);
	for (int i = 0; i < s->nrows; i++) {
		const league_row *x = &s->rows[i];
		scope_push(&ss->rows[0], i);
		if (gk[i] >= 0)
			scope_push(&ss->rows[1 + S + gk[i]], i);
		for (int k = 0; k < S; k++) {
			const db_season_row *z = &seasons->rows[k];
			if (strcmp(x->date, z->starts) < 0 || strcmp(x->date, z->ends) > 0)
				continue;
			scope_push(&ss->rows[1 + k], i);
			if (gk[i] >= 0)
				scope_push(&ss->rows[1 + S + G + k * G + gk[i]], i);
		}
	}
	free(gk);
}

static void scopes_free(scope_set *ss)
{
	for (int i = 0; i < ss->n; i++)
		free(ss->rows[i].idx);
	free(ss->rows);
	free(ss->keys);
}

/* The name of scope k (league_scopes.scope) into out. */
static void scope_name(const scope_set *ss, const db_season_rows *seasons, int k, sbuf *out)
{
	int S = ss->nseasons, G = ss->ngames;
	out->len = 0;
	sb_str(out, ""); /* allocates: the name of scope 0 is "" */
	if (k == 0)
		return;
	if (k <= S) {
		sb_str(out, "s:");
		sb_str(out, seasons->rows[k - 1].id);
	} else if (k <= S + G) {
		sb_str(out, "g:");
		sb_str(out, ss->keys[k - 1 - S]);
	} else {
		int j = k - 1 - S - G;
		sb_str(out, "s:");
		sb_str(out, seasons->rows[j / G].id);
		sb_str(out, "|g:");
		sb_str(out, ss->keys[j % G]);
	}
}

/* Appends the standings t[0..nm) of scope name to the insert's arrays (members without
 * games left out), counting rows. */
static void scope_rows_add(sbuf arr[SCOPE_COLS], int *rows, const char *name,
                           const league_standing *t, int nm)
{
	for (int m = 0; m < nm; m++) {
		const league_standing *p = &t[m];
		if (p->games == 0)
			continue;
		char games[16], wins[16], rank_sum[24], scored[16], sum[40], best[40], mu[40],
		    sigma[40];
		snprintf(games, sizeof games, "%d", p->games);
		snprintf(wins, sizeof wins, "%d", p->wins);
		snprintf(rank_sum, sizeof rank_sum, "%" PRId64, p->rank_sum);
		snprintf(scored, sizeof scored, "%d", p->scored);
		snprintf(sum, sizeof sum, "%.17g", p->score_sum);
		snprintf(best, sizeof best, "%.17g", p->best);
		snprintf(mu, sizeof mu, "%.17g", p->r.mu);
		snprintf(sigma, sizeof sigma, "%.17g", p->r.sigma);
		const char *v[SCOPE_COLS] = {name,
		                             p->member,
		                             games,
		                             wins,
		                             rank_sum,
		                             scored,
		                             sum,
		                             p->has_best ? best : NULL,
		                             p->rated ? "t" : "f",
		                             mu,
		                             sigma};
		for (int k = 0; k < SCOPE_COLS; k++)
			league_array_elem(&arr[k], *rows == 0, v[k]);
		(*rows)++;
	}
}

/* Appends the line of scope name (the rating after each of its rows idx[0..n) of s, as
 * league_rows_rate_some left them) to the arrays of league_scope_lines_insert. */
static void scope_line_add(sbuf line[3], int *lines, const char *name, const league_rows *s,
                           const int *idx, int n)
{
	sbuf mu = {0}, sigma = {0};
	sb_str(&mu, "{");
	sb_str(&sigma, "{");
	for (int i = 0; i < n; i++) {
		const league_row *x = &s->rows[idx[i]];
		char num[40];
		sb_str(&mu, i ? "," : "");
		sb_str(&sigma, i ? "," : "");
		if (!x->rated) {
			sb_str(&mu, "NULL");
			sb_str(&sigma, "NULL");
			continue;
		}
		snprintf(num, sizeof num, "%.17g", x->after.mu);
		sb_str(&mu, num);
		snprintf(num, sizeof num, "%.17g", x->after.sigma);
		sb_str(&sigma, num);
	}
	sb_str(&mu, "}");
	sb_str(&sigma, "}");
	league_array_elem(&line[0], *lines == 0, name);
	league_array_elem(&line[1], *lines == 0, mu.b);
	league_array_elem(&line[2], *lines == 0, sigma.b);
	(*lines)++;
	free(mu.b);
	free(sigma.b);
}

/* Closes the arrays a[0..n) and runs store with them (nothing when rows is 0); frees them. */
static db_status arrays_store(db_conn *c, const char *league, sbuf *a, int n, int rows,
                              db_status (*store)(db_conn *, const char *, const char *const *))
{
	const char *v[SCOPE_COLS];
	for (int k = 0; k < n; k++) {
		sb_str(&a[k], "}");
		v[k] = a[k].b;
	}
	db_status st = rows > 0 ? store(c, league, v) : DB_OK;
	for (int k = 0; k < n; k++)
		free(a[k].b);
	return st;
}

/* The seasons as a Postgres array literal of their ids. */
static void seasons_literal(const db_season_rows *seasons, sbuf *out)
{
	sb_str(out, "{");
	for (int k = 0; k < seasons->n; k++) {
		sb_str(out, k ? "," : "");
		sb_str(out, seasons->rows[k].id); /* ids are hex */
	}
	sb_str(out, "}");
}

db_status league_scopes_keep(db_conn *c, const char *league, league_rows *s)
{
	db_season_rows seasons = {0};
	db_status st = db_league_seasons(c, league, &seasons);
	if (st != DB_OK)
		return st;
	scope_set ss = {0};
	scopes_fill(&ss, s, &seasons);
	int nm = s->nmembers ? s->nmembers : 1;
	rating *cur = xcalloc((size_t)nm, sizeof *cur);
	league_standing *t = xcalloc((size_t)nm, sizeof *t);
	sbuf arr[SCOPE_COLS] = {0}, line[3] = {0}, name = {0}, ids = {0};
	int rows = 0, lines = 0;
	for (int k = 0; k < ss.n; k++) {
		const scope_rows *sc = &ss.rows[k];
		if (sc->n == 0)
			continue;
		league_rows_rate_some(s, sc->idx, sc->n, cur);
		memset(t, 0, (size_t)nm * sizeof *t);
		for (int i = 0; i < sc->n; i++)
			league_standing_add(&t[s->rows[sc->idx[i]].m], &s->rows[sc->idx[i]]);
		for (int m = 0; m < s->nmembers; m++)
			t[m].r = cur[m];
		scope_name(&ss, &seasons, k, &name);
		scope_rows_add(arr, &rows, name.b, t, s->nmembers);
		if (k > 0) /* the whole league's line is play_results' own ratings */
			scope_line_add(line, &lines, name.b, s, sc->idx, sc->n);
	}
	seasons_literal(&seasons, &ids);
	st = db_league_scopes_clear(c, league, ids.b);
	db_status st2 = arrays_store(c, league, arr, SCOPE_COLS, st == DB_OK ? rows : 0,
	                             db_league_scopes_insert);
	st = st == DB_OK ? st2 : st;
	st2 =
	    arrays_store(c, league, line, 3, st == DB_OK ? lines : 0, db_league_scope_lines_insert);
	st = st == DB_OK ? st2 : st;
	free(name.b);
	free(ids.b);
	free(t);
	free(cur);
	scopes_free(&ss);
	db_rowset_clear(&seasons);
	return st;
}
