/* The kept standings of every scope a standings filter can ask for: the whole league, each
 * season, each game, each season's game (migrations/0016_league_scopes.sql). ratings_recompute
 * calls scopes_keep with the league's rows after every change of its plays, in the same
 * transaction, so a standings read is one indexed query at any size (standings.c). */
#include "leagues/scopes.h"
#include "leagues/kept.h"
#include "leagues/rows.h"

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
			rows_array_elem(&arr[k], *rows == 0, v[k]);
		(*rows)++;
	}
}

/* The lines of scopes to store (league_scope_lines_store): the scopes' names and
 * element counts as array literals, their elements one scope after another. Zeroed: none. */
typedef struct {
	sbuf names, counts;
	db_f8array mus, sigmas;
	int n;
} scope_lines;

/* Appends the line of scope name (the rating after each of its rows idx[0..n) of s, as
 * rows_rate_some left them) to l. */
static void scope_line_add(scope_lines *l, const char *name, const league_rows *s, const int *idx,
                           int n)
{
	char count[16];
	snprintf(count, sizeof count, "%d", n);
	rows_array_elem(&l->names, l->n == 0, name);
	rows_array_elem(&l->counts, l->n == 0, count);
	for (int i = 0; i < n; i++) {
		const league_row *x = &s->rows[idx[i]];
		if (x->rated) {
			db_f8array_add(&l->mus, x->after.mu);
			db_f8array_add(&l->sigmas, x->after.sigma);
		} else {
			db_f8array_null(&l->mus);
			db_f8array_null(&l->sigmas);
		}
	}
	l->n++;
}

/* Closes the arrays a[0..n) into v (n at most SCOPE_COLS). */
static void arrays_close(sbuf *a, int n, const char **v)
{
	for (int k = 0; k < n; k++) {
		sb_str(&a[k], "}");
		v[k] = a[k].b;
	}
}

/* Stores the standings rows (arr, rows of them) and lines (line, lines of them) built for the
 * scopes, inserted after league_scopes_clear or (added) merged into the kept ones; frees them.
 * Nothing is sent for an empty set, or when st is already a failure. */
static db_status scopes_store(db_conn *c, const char *league, db_status st, bool added,
                              sbuf arr[SCOPE_COLS], int rows, scope_lines *l)
{
	const char *v[SCOPE_COLS];
	arrays_close(arr, SCOPE_COLS, v);
	if (st == DB_OK && rows > 0)
		st = db_league_scopes_store(c, league, added, v);
	if (st == DB_OK && l->n > 0) {
		sb_str(&l->names, "}");
		sb_str(&l->counts, "}");
		st = db_league_scope_lines_store(c, league, l->names.b, l->counts.b, &l->mus,
		                                 &l->sigmas);
	}
	for (int k = 0; k < SCOPE_COLS; k++)
		free(arr[k].b);
	free(l->names.b);
	free(l->counts.b);
	db_f8array_free(&l->mus);
	db_f8array_free(&l->sigmas);
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

/* Does date fall in season z? */
static bool in_season(const char *date, const db_season_row *z)
{
	return strcmp(date, z->starts) >= 0 && strcmp(date, z->ends) <= 0;
}

/* Does scope k of ss hold a row at one of touch's places (the whole league always does)? */
static bool touched(const scope_set *ss, const db_season_rows *seasons, int k,
                    const league_touch *touch)
{
	int S = ss->nseasons, G = ss->ngames;
	if (k == 0)
		return true;
	for (int t = 0; t < touch->n; t++) {
		const char *key = touch->key[t], *date = touch->date[t];
		if (k <= S) {
			if (in_season(date, &seasons->rows[k - 1]))
				return true;
		} else if (k <= S + G) {
			if (key[0] && strcmp(key, ss->keys[k - 1 - S]) == 0)
				return true;
		} else {
			int j = k - 1 - S - G;
			if (key[0] && strcmp(key, ss->keys[j % G]) == 0 &&
			    in_season(date, &seasons->rows[j / G]))
				return true;
		}
	}
	return false;
}

/* The names of the scopes in ss touch touches, and of those a touched key no longer has rows
 * in (its game is gone from the league), as an array literal into out. */
static void touched_names(const scope_set *ss, const db_season_rows *seasons,
                          const league_touch *touch, sbuf *out)
{
	sbuf name = {0};
	bool first = true;
	for (int k = 0; k < ss->n; k++)
		if (touched(ss, seasons, k, touch)) {
			scope_name(ss, seasons, k, &name);
			rows_array_elem(out, first, name.b);
			first = false;
		}
	/* a game (and its seasons' games) of the play before, when no row has that key now */
	for (int t = 0; t < touch->n; t++) {
		const char *key = touch->key[t];
		bool kept = !key[0];
		for (int g = 0; !kept && g < ss->ngames; g++)
			kept = strcmp(key, ss->keys[g]) == 0;
		if (kept)
			continue;
		name.len = 0;
		sb_str(&name, "g:");
		sb_str(&name, key);
		rows_array_elem(out, first, name.b);
		first = false;
		for (int z = 0; z < seasons->n; z++)
			if (in_season(touch->date[t], &seasons->rows[z])) {
				name.len = 0;
				sb_str(&name, "s:");
				sb_str(&name, seasons->rows[z].id);
				sb_str(&name, "|g:");
				sb_str(&name, key);
				rows_array_elem(out, false, name.b);
			}
	}
	if (first)
		sb_str(out, "{");
	sb_str(out, "}");
	free(name.b);
}

db_status scopes_keep(db_conn *c, const char *league, league_rows *s, const rating *all,
                      const league_touch *touch)
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
	sbuf arr[SCOPE_COLS] = {0}, name = {0}, ids = {0};
	scope_lines lines = {0};
	int rows = 0;
	for (int k = 0; k < ss.n; k++) {
		const scope_rows *sc = &ss.rows[k];
		if (sc->n == 0 || (touch && !touched(&ss, &seasons, k, touch)))
			continue;
		if (k == 0) /* the whole league, rated already: the rows' own ratings */
			memcpy(cur, all, (size_t)s->nmembers * sizeof *cur);
		else
			rows_rate_some(s, sc->idx, sc->n, cur);
		memset(t, 0, (size_t)nm * sizeof *t);
		for (int i = 0; i < sc->n; i++)
			rows_standing_add(&t[s->rows[sc->idx[i]].m], &s->rows[sc->idx[i]]);
		for (int m = 0; m < s->nmembers; m++)
			t[m].r = cur[m];
		scope_name(&ss, &seasons, k, &name);
		scope_rows_add(arr, &rows, name.b, t, s->nmembers);
		if (k > 0) /* the whole league's line is the members' own lines (member_lines) */
			scope_line_add(&lines, name.b, s, sc->idx, sc->n);
	}
	if (touch) { /* the other scopes' rows did not change: they stay */
		touched_names(&ss, &seasons, touch, &ids);
		st = db_league_scopes_drop(c, league, ids.b);
	} else {
		seasons_literal(&seasons, &ids);
		st = db_league_scopes_clear(c, league, ids.b);
	}
	st = scopes_store(c, league, st, false, arr, rows, &lines);
	free(name.b);
	free(ids.b);
	free(t);
	free(cur);
	scopes_free(&ss);
	db_rowset_clear(&seasons);
	return st;
}

/* ---- a play added after every other: rated from the kept state ---- */

enum { ADDED_SCOPES_MAX = 2 + 2 * 64 }; /* the league, its game, each season and its game */

/* The scopes a play is in: "", each kept season containing it (seasons: an array literal of
 * their ids), and with a game key the game and each season's game. Names are owned (free
 * them); returns how many, 0 when the seasons are too many (the caller recomputes). */
static int added_scopes(const char *key, const char *seasons, char **names)
{
	int n = 0;
	names[n++] = xstrdup("");
	sbuf b = {0};
	if (key[0]) {
		sb_str(&b, "g:");
		sb_str(&b, key);
		names[n++] = b.b;
		b = (sbuf){0};
	}
	const char *p = seasons + (*seasons == '{');
	while (*p && *p != '}') {
		size_t len = strcspn(p, ",}");
		if (n + 2 > ADDED_SCOPES_MAX) {
			for (int i = 0; i < n; i++)
				free(names[i]);
			return 0;
		}
		sb_str(&b, "s:");
		sb_add(&b, p, len);
		names[n++] = b.b;
		b = (sbuf){0};
		if (key[0]) {
			sb_str(&b, "s:");
			sb_add(&b, p, len);
			sb_str(&b, "|g:");
			sb_str(&b, key);
			names[n++] = b.b;
			b = (sbuf){0};
		}
		p += len + (p[len] == ',');
	}
	return n;
}

/* The kept standing of member in scope among the rows of league_scopes_of, or an empty one. */
static league_standing standing_of(const db_scope_rows *cur, const char *scope, const char *member,
                                   const char *name)
{
	league_standing t = {.member = member, .name = name, .r = rating_default()};
	for (int i = 0; i < cur->n; i++) {
		const db_scope_row *y = &cur->rows[i];
		if (strcmp(y->scope, scope) != 0 || strcmp(y->x.member, member) != 0)
			continue;
		t.games = y->x.games;
		t.wins = y->x.wins;
		t.scored = y->x.scored;
		t.rank_sum = y->x.rank_sum;
		t.score_sum = y->x.score_sum;
		t.best = y->x.best;
		t.has_best = y->x.has_best;
		t.rated = y->x.rated;
		t.r = (rating){y->x.mu, y->x.sigma};
	}
	return t;
}

/* The array literal of the added rows' members. */
static void members_literal(const db_added_rows *a, sbuf *out)
{
	for (int i = 0; i < a->n; i++)
		rows_array_elem(out, i == 0, a->rows[i].member);
	sb_str(out, "}");
}

/* Rates the added play in one scope from its members' kept standings t (updated), appending
 * the scope's rows to the upsert arrays and, except for the whole league, its line; the whole
 * league's ratings go to the members' lines (ratings: the arrays of member_lines_append). */
static void added_rate_scope(const db_added_rows *a, const char *play, const char *scope,
                             league_standing *t, sbuf arr[SCOPE_COLS], int *rows,
                             scope_lines *lines, league_rating_batch *ratings)
{
	int n = a->n;
	bool rated = !a->rows[0].cooperative && n >= 2 && n <= MAX_RESULTS;
	if (rated) {
		rating g[MAX_RESULTS];
		int rk[MAX_RESULTS], tid[MAX_RESULTS];
		const char *tm[MAX_RESULTS];
		for (int i = 0; i < n; i++) {
			g[i] = t[i].r;
			rk[i] = a->rows[i].rank;
			tm[i] = a->rows[i].team;
		}
		rows_team_ids(tm, n, tid);
		rated = rating_rate_teams(g, rk, tid, (size_t)n) == 0;
		for (int i = 0; i < n && rated; i++)
			t[i].r = g[i];
	}
	league_rows one = {.rows = xcalloc((size_t)n, sizeof *one.rows), .nrows = n};
	for (int i = 0; i < n; i++) {
		const db_added_row *y = &a->rows[i];
		league_row *x = &one.rows[i];
		*x = (league_row){.play = play,
		                  .member = y->member,
		                  .name = y->name,
		                  .rank = y->rank,
		                  .score = y->score,
		                  .has_score = y->has_score,
		                  .winner = y->winner,
		                  .coop = y->cooperative,
		                  .team = y->team,
		                  .after = t[i].r,
		                  .rated = rated};
		rows_standing_add(&t[i], x);
	}
	scope_rows_add(arr, rows, scope, t, n);
	if (scope[0]) {
		int *idx = xcalloc((size_t)n, sizeof *idx);
		for (int i = 0; i < n; i++)
			idx[i] = i;
		scope_line_add(lines, scope, &one, idx, n);
		free(idx);
	} else if (rated) {
		for (int i = 0; i < n; i++)
			rows_batch_add(ratings, a->rows[i].member, t[i].r);
	}
	free(one.rows);
}

db_status scopes_append(db_conn *c, const char *league, const char *play, bool *done)
{
	*done = false;
	db_added_rows a = {0};
	db_status st = db_league_added_rows(c, league, play, &a);
	if (st != DB_OK || a.n == 0 || !a.rows[0].last || a.n > MAX_RESULTS) {
		db_rowset_clear(&a);
		return st;
	}
	char *names[ADDED_SCOPES_MAX];
	int nscopes = added_scopes(a.rows[0].key, a.rows[0].seasons, names);
	if (nscopes == 0) {
		db_rowset_clear(&a);
		return DB_OK;
	}
	sbuf scopes = {0}, members = {0};
	for (int k = 0; k < nscopes; k++)
		rows_array_elem(&scopes, k == 0, names[k]);
	sb_str(&scopes, "}");
	members_literal(&a, &members);
	db_scope_rows cur = {0};
	st = db_league_scopes_of(c, league, scopes.b, members.b, &cur);
	sbuf arr[SCOPE_COLS] = {0};
	scope_lines lines = {0};
	league_rating_batch ratings = {0};
	int rows = 0;
	league_standing t[MAX_RESULTS];
	for (int k = 0; st == DB_OK && k < nscopes; k++) {
		for (int i = 0; i < a.n; i++)
			t[i] = standing_of(&cur, names[k], a.rows[i].member, a.rows[i].name);
		added_rate_scope(&a, play, names[k], t, arr, &rows, &lines, &ratings);
	}
	st = scopes_store(c, league, st, true, arr, rows, &lines);
	/* the play at the end of its players' lines, with their ratings when it is rated */
	st = rows_batch_append(c, league, play, &ratings, st);
	*done = st == DB_OK;
	for (int k = 0; k < nscopes; k++)
		free(names[k]);
	free(scopes.b);
	free(members.b);
	db_rowset_clear(&cur);
	db_rowset_clear(&a);
	return st;
}
