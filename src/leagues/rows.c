/* A league's result rows in play order, rated from default ratings (rows.h); a member's
 * standing over them; the batch of ratings after a play appended to its players' lines; stored
 * numbers and ratings as JSON. */
#include "json/jx.h"
#include "leagues/rows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the league's result rows (ratings, standings, head-to-head) ---- */

void rows_free(league_rows *s)
{
	db_rowset_clear(&s->set);
	free(s->rows);
	memset(s, 0, sizeof *s);
}

/* Member index of id (0..), added when new: open addressing over the member ids (ids are
 * random hex, so their first bytes hash well). */
typedef struct {
	const char **ids; /* borrowed */
	int *idx;
	size_t cap;
	int n;
} member_map;

static int member_index(member_map *mm, const char *id)
{
	size_t h = 1469598103934665603ull;
	for (const char *p = id; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	for (size_t i = h & (mm->cap - 1);; i = (i + 1) & (mm->cap - 1)) {
		if (mm->ids[i] == NULL) {
			mm->ids[i] = id;
			mm->idx[i] = mm->n++;
			return mm->idx[i];
		}
		if (strcmp(mm->ids[i], id) == 0)
			return mm->idx[i];
	}
}

/* Builds s->rows from the loaded s->set. */
static void rows_index(league_rows *s)
{
	s->nrows = s->set.n;
	s->rows = xcalloc((size_t)s->nrows, sizeof *s->rows);
	member_map mm = {.cap = 64};
	while (mm.cap < 2 * (size_t)s->nrows)
		mm.cap *= 2;
	mm.ids = xcalloc(mm.cap, sizeof *mm.ids);
	mm.idx = xcalloc(mm.cap, sizeof *mm.idx);
	for (int i = 0; i < s->nrows; i++) {
		league_row *x = &s->rows[i];
		const db_league_result *y = &s->set.rows[i];
		x->seq = y->seq;
		x->at = y->at_us;
		x->play = y->play;
		x->member = y->member;
		x->name = y->name;
		x->rank = y->rank;
		x->has_score = y->has_score;
		x->score = y->score;
		x->winner = y->winner;
		x->coop = y->cooperative;
		x->team = y->team;
		x->m = member_index(&mm, x->member);
		x->key = y->game_key;
		x->date = y->local_date;
	}
	s->nmembers = mm.n;
	free(mm.ids);
	free(mm.idx);
}

void rows_team_ids(const char *const *team, int n, int *id)
{
	for (int k = 0; k < n; k++) {
		id[k] = k;
		for (int j = 0; j < k && team[k]; j++)
			if (rows_teammates(team[j], team[k])) {
				id[k] = j;
				break;
			}
	}
}

bool rows_teammates(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* Loads the league's results in play order (season/game filters may be NULL). */
db_status rows_load(db_conn *c, const char *league, const char *season, const char *game,
                    league_rows *s)
{
	memset(s, 0, sizeof *s);
	db_status st = db_league_rows(c, league, season, game, &s->set);
	if (st == DB_OK)
		rows_index(s);
	return st;
}

db_status rows_load_keyed(db_conn *c, const char *league, league_rows *s)
{
	memset(s, 0, sizeof *s);
	db_status st = db_league_rows_keyed(c, league, &s->set);
	if (st == DB_OK)
		rows_index(s);
	return st;
}

/* Row k of the rows idx[0..n) (idx NULL: all rows in order). */
static league_row *nth_row(league_rows *s, const int *idx, int k)
{
	return &s->rows[idx ? idx[k] : k];
}

/* Rates the rows idx[0..n) (NULL: all rows) in order from the ratings in cur (updated): each
 * row's after and rated. */
static void rate_span(league_rows *s, const int *idx, int n, rating *cur)
{
	rating g[MAX_RESULTS];
	int rk[MAX_RESULTS], tid[MAX_RESULTS];
	const char *tm[MAX_RESULTS];
	for (int i = 0; i < n;) {
		int64_t play = nth_row(s, idx, i)->seq;
		int j = i;
		while (j < n && nth_row(s, idx, j)->seq == play)
			j++;
		int np = j - i;
		bool rated = !nth_row(s, idx, i)->coop && np >= 2 && np <= MAX_RESULTS;
		if (rated) {
			for (int k = 0; k < np; k++) {
				g[k] = cur[nth_row(s, idx, i + k)->m];
				rk[k] = nth_row(s, idx, i + k)->rank;
				tm[k] = nth_row(s, idx, i + k)->team;
			}
			rows_team_ids(tm, np, tid);
			rated = rating_rate_teams(g, rk, tid, (size_t)np) == 0;
			for (int k = 0; k < np && rated; k++)
				cur[nth_row(s, idx, i + k)->m] = g[k];
		}
		for (int k = i; k < j; k++) {
			league_row *x = nth_row(s, idx, k);
			x->after = cur[x->m];
			x->rated = rated;
		}
		i = j;
	}
}

void rows_rate_some(league_rows *s, const int *idx, int n, rating *cur)
{
	for (int m = 0; m < s->nmembers; m++)
		cur[m] = rating_default();
	rate_span(s, idx, n, cur);
}

void rows_rate_from(league_rows *s, int from, rating *cur)
{
	for (int m = 0; m < s->nmembers; m++)
		cur[m] = rating_default();
	for (int i = 0; i < from; i++)
		cur[s->rows[i].m] = s->rows[i].line;
	league_row *tail = s->rows + from;
	league_rows t = {.rows = tail, .nrows = s->nrows - from, .nmembers = s->nmembers};
	rate_span(&t, NULL, t.nrows, cur);
	for (int i = 0; i < t.nrows; i++)
		tail[i].line = tail[i].after;
}

void rows_rate(league_rows *s, rating *cur)
{
	rows_rate_from(s, 0, cur);
}

void rows_batch_add(league_rating_batch *b, const char *member, rating r)
{
	rows_array_elem(&b->members, b->n == 0, member);
	db_f8array_add(&b->mus, r.mu);
	db_f8array_add(&b->sigmas, r.sigma);
	b->n++;
}

db_status rows_batch_append(db_conn *c, const char *league, const char *play,
                            league_rating_batch *b, db_status st)
{
	if (st == DB_OK) {
		sb_str(&b->members, b->n ? "}" : "{}");
		st = db_member_lines_append(c, league, play, b->members.b, &b->mus, &b->sigmas);
	}
	free(b->members.b);
	db_f8array_free(&b->mus);
	db_f8array_free(&b->sigmas);
	memset(b, 0, sizeof *b);
	return st;
}

/* ---- PostgreSQL array literals ---- */

/* An element of a PostgreSQL array literal: NULL, or the text quoted ("…" with \\ and \"). */
static void sb_elem(sbuf *s, const char *v)
{
	if (v == NULL) {
		sb_str(s, "NULL");
		return;
	}
	sb_str(s, "\"");
	for (const char *p = v; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_str(s, "\\");
		sb_add(s, p, 1);
	}
	sb_str(s, "\"");
}

void rows_array_elem(sbuf *a, bool first, const char *v)
{
	sb_str(a, first ? "{" : ",");
	sb_elem(a, v);
}

/* ---- a member's standing ---- */

void rows_standing_add(league_standing *p, const league_row *x)
{
	p->member = x->member;
	p->name = x->name;
	p->games++;
	p->wins += x->winner;
	p->rank_sum += x->rank;
	p->rated = p->rated || x->rated;
	if (x->has_score) {
		p->scored++;
		p->score_sum += x->score;
		if (!p->has_best || x->score > p->best)
			p->best = x->score;
		p->has_best = true;
	}
}

/* ---- stored numbers and ratings as JSON ---- */

/* A stored number (score) as JSON: an integer when it is one, null when absent. */
json_object *rows_num_json(bool has, double d)
{
	if (!has)
		return NULL;
	if (d == floor(d) && fabs(d) < 9e15)
		return jx_int((int64_t)d);
	return jx_double(d);
}

json_object *rows_rating_json(rating r)
{
	json_object *o = jx_obj();
	jx_set(o, "mu", jx_double(r.mu));
	jx_set(o, "sigma", jx_double(r.sigma));
	jx_set(o, "ordinal", jx_double(rating_ordinal(r)));
	jx_set(o, "provisional", jx_bool(rating_provisional(r)));
	return o;
}
