/* The pictures of a league's page and a player's page (stats.h), read off pictures.c's
 * `stats`: a player's games, rivals and rating line; the routes reply them through the cache. */
#include "leagues/stats.h"
#include "leagues/access.h"
#include "leagues/cache.h"
#include "leagues/pictures.h"
#include "leagues/rows.h"
#include "json/jx.h"

#include <stdlib.h>
#include <string.h>

json_object *stats_json(db_conn *c, const char *league, const char *season, const char *game,
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
	pictures_counts(&set, &nm, &ng);
	stats s;
	pictures_build(&s, rows, set.n, nm, ng, season || game, &line);
	json_object *o = pictures_league_json(&s);
	pictures_free(&s);
	free(rows);
	pictures_line_free(&line);
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
		jx_set(o, "best_score", rows_num_json(e->scored, e->best));
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
	jx_set(o, "rating", rows_rating_json(m < 0 ? rating_default() : s->mem[m].r));
	jx_set(o, "points", m < 0 ? jx_arr() : pictures_points_json(s, m, 0, true));
	jx_set(o, "games", m < 0 ? jx_arr() : player_games_json(s, m));
	json_object *streaks = jx_obj();
	jx_set(streaks, "current", jx_int(m < 0 ? 0 : s->mem[m].streak));
	jx_set(streaks, "longest", jx_int(m < 0 ? 0 : s->mem[m].longest));
	jx_set(o, "streaks", streaks);
	jx_set(o, "nemesis", rival_json(s, m, true));
	jx_set(o, "victim", rival_json(s, m, false));
	return o;
}

static json_object *build_league(db_conn *c, const http_req *req, const char *season,
                                 const char *game, db_status *st)
{
	return stats_json(c, req->params[0], season, game, st);
}

static int stats_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	const char *season, *game;
	if (!access_as(resp, c, acc, req->params[0], false, &a) ||
	    !access_read_filters(req, resp, c, &season, &game))
		return 0;
	char key[LCACHE_KEY];
	cache_key(key, "stats\n%s\n%s\n%s", req->params[0], season ? season : "", game ? game : "");
	return cache_reply(req, resp, c, a.version, key, build_league, season, game);
}

int api_league_stats(const http_req *req, http_resp *resp)
{
	return access_read(req, resp, stats_read);
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
	pictures_counts(&set, &nm, &ng);
	stats s;
	pictures_build(&s, rows, set.n, nm, ng, season || game, &line);
	json_object *o = player_json(&s, req->params[1], ml.name, m);
	pictures_free(&s);
	free(rows);
	pictures_line_free(&line);
	db_rowset_clear(&set);
	return o;
}

static int player_stats_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	const char *season, *game;
	if (!access_as(resp, c, acc, req->params[0], false, &a))
		return 0;
	db_member_league ml;
	if (access_member_at(c, req->params[1], a.version, &ml) != DB_OK)
		return acct_reply_db(resp);
	if (!ml.found || strcmp(ml.league, req->params[0]) != 0)
		return http_reply_problem(resp, 404, "no such player in this league", NULL, NULL);
	if (!access_read_filters(req, resp, c, &season, &game))
		return 0;
	char key[LCACHE_KEY];
	cache_key(key, "player-stats\n%s\n%s\n%s\n%s", req->params[0], req->params[1],
	          season ? season : "", game ? game : "");
	return cache_reply(req, resp, c, a.version, key, build_player, season, game);
}

int api_league_player_stats(const http_req *req, http_resp *resp)
{
	return access_read(req, resp, player_stats_read);
}
