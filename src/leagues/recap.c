/* A season's recap (recap.h): its champion, biggest climb, most played game, closest play and
 * longest streak, and the season's pictures; GET …/seasons/{season}/recap. */
#include "leagues/recap.h"
#include "leagues/access.h"
#include "leagues/cache.h"
#include "leagues/pictures.h"
#include "leagues/rows.h"
#include "json/jx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	jx_set(o, "score", rows_num_json(true, y->score));
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
	jx_set(o, "date", jx_str_or_null(bf->date));
	jx_set(o, "game", jx_str(bf->game));
	jx_set(o, "margin", rows_num_json(true, best));
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
	jx_set(o, "rating", rows_rating_json(p->r));
	return o;
}

static int count_plays(const stats *s)
{
	int n = 0;
	for (int i = 0; i < s->n; i++)
		n += i == 0 || strcmp(s->rows[i].y->play, s->rows[i - 1].y->play) != 0;
	return n;
}

json_object *recap_json(db_conn *c, const char *league, const char *season, bool *found,
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
	pictures_counts(&all, &nm, &ng);
	stats s;
	pictures_build(&s, rows, n, nm, ng, true, &line);
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
	jx_set(o, "stats", pictures_league_json(&s));
	pictures_free(&s);
	free(rows);
	pictures_line_free(&line);
	db_rowset_clear(&all);
	db_rowset_clear(&seasons);
	return o;
}

static json_object *build_recap(db_conn *c, const http_req *req, const char *season,
                                const char *game, db_status *st)
{
	(void)game;
	bool found;
	json_object *o = recap_json(c, req->params[0], season, &found, st);
	if (o == NULL && *st == DB_OK) /* the season went between the check and the read */
		*st = DB_FAIL;
	return o;
}

static int recap_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	if (!access_as(resp, c, acc, req->params[0], false, &a))
		return 0;
	bool found;
	if (db_season_exists(c, req->params[0], req->params[1], &found) != DB_OK)
		return acct_reply_db(resp);
	if (!found)
		return http_reply_problem(resp, 404, "no such season in this league", NULL, NULL);
	char key[LCACHE_KEY];
	cache_key(key, "recap\n%s\n%s", req->params[0], req->params[1]);
	return cache_reply(req, resp, c, a.version, key, build_recap, req->params[1], NULL);
}

int api_league_recap(const http_req *req, http_resp *resp)
{
	return access_read(req, resp, recap_read);
}
