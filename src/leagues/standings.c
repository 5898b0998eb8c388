/* Standings, head-to-head and a player's history (standings.h), answered from the cache
 * (cache.c) keyed by the league's version. */
#include "leagues/standings.h"
#include "leagues/access.h"
#include "leagues/cache.h"
#include "leagues/rows.h"
#include "json/jx.h"

#include <stdlib.h>
#include <string.h>

static int standing_cmp(const void *a, const void *b)
{
	const league_standing *x = a, *y = b;
	double ox = rating_ordinal(x->r), oy = rating_ordinal(y->r);
	if (ox != oy)
		return ox > oy ? -1 : 1;
	if (x->wins != y->wins)
		return y->wins - x->wins;
	return strcmp(x->name, y->name);
}

json_object *standings_reply(const char *league, const char *season, const char *game,
                             league_standing *t, int n)
{
	qsort(t, (size_t)n, sizeof *t, standing_cmp);
	json_object *arr = jx_arr();
	for (int m = 0; m < n; m++) {
		const league_standing *p = &t[m];
		if (p->games == 0)
			continue;
		json_object *o = jx_obj();
		jx_set(o, "player", jx_str(p->member));
		jx_set(o, "name", jx_str(p->name));
		jx_set(o, "games", jx_int(p->games));
		jx_set(o, "wins", jx_int(p->wins));
		jx_set(o, "win_rate", jx_double((double)p->wins / p->games));
		jx_set(o, "average_score", p->scored ? jx_double(p->score_sum / p->scored) : NULL);
		jx_set(o, "best_score", p->has_best ? jx_double(p->best) : NULL);
		jx_set(o, "average_rank", jx_double((double)p->rank_sum / p->games));
		jx_set(o, "rating", rows_rating_json(p->r));
		jx_set(o, "rated", jx_bool(p->rated));
		jx_push(arr, o);
	}
	json_object *o = jx_obj();
	jx_set(o, "league", jx_str(league));
	jx_set(o, "season", jx_str_or_null(season));
	jx_set(o, "game", jx_str_or_null(game));
	jx_set(o, "standings", arr);
	return o;
}

/* Standings computed from the selected plays, rated in order (a scope that is not kept). */
static json_object *standings_computed(db_conn *c, const char *league, const char *season,
                                       const char *game, db_status *st)
{
	league_rows s;
	if ((*st = rows_load(c, league, season, game, &s)) != DB_OK)
		return NULL;
	rating *cur = xcalloc((size_t)s.nmembers, sizeof *cur);
	league_standing *t = xcalloc((size_t)s.nmembers, sizeof *t);
	rows_rate(&s, cur);
	for (int i = 0; i < s.nrows; i++)
		rows_standing_add(&t[s.rows[i].m], &s.rows[i]);
	for (int m = 0; m < s.nmembers; m++)
		t[m].r = cur[m];
	json_object *o = standings_reply(league, season, game, t, s.nmembers);
	free(t);
	free(cur);
	rows_free(&s);
	return o;
}

json_object *standings_json(db_conn *c, const char *league, const char *season, const char *game,
                            db_status *st)
{
	db_scope_standings k;
	bool kept;
	if ((*st = db_league_scope_standings(c, league, season, game, &kept, &k)) != DB_OK)
		return NULL;
	if (!kept) {
		db_rowset_clear(&k);
		return standings_computed(c, league, season, game, st);
	}
	league_standing *t = xcalloc((size_t)(k.n ? k.n : 1), sizeof *t);
	for (int i = 0; i < k.n; i++) {
		const db_scope_standing *y = &k.rows[i];
		t[i] = (league_standing){.member = y->member,
		                         .name = y->name,
		                         .games = y->games,
		                         .wins = y->wins,
		                         .scored = y->scored,
		                         .rank_sum = y->rank_sum,
		                         .score_sum = y->score_sum,
		                         .best = y->best,
		                         .has_best = y->has_best,
		                         .r = {y->mu, y->sigma},
		                         .rated = y->rated};
	}
	json_object *o = standings_reply(league, season, game, t, k.n);
	free(t);
	db_rowset_clear(&k);
	return o;
}

/* The opening of a read of league params[0] filtered by ?season= and ?game=, on c for acc: the
 * caller's access and the filters. true, or false after a reply. */
static bool open_filtered(const http_req *req, http_resp *resp, db_conn *c, const account *acc,
                          league_access *a, const char **season, const char **game)
{
	return access_as(resp, c, acc, req->params[0], false, a) &&
	       access_read_filters(req, resp, c, season, game);
}

static int standings_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	const char *season, *game;
	if (!open_filtered(req, resp, c, acc, &a, &season, &game))
		return 0;
	char key[LCACHE_KEY], etag[LEAGUE_ETAG_LEN];
	cache_key(key, "standings\n%s\n%s\n%s", req->params[0], season ? season : "",
	          game ? game : "");
	access_etag(etag, a.version, key);
	if (access_not_modified(req, resp, etag))
		return 0;
	if (!cache_get(req, key, a.version, resp)) {
		/* a libmicrohttpd thread waits for no lock either: the tables being rewritten,
		 * the request runs again on a waiting thread */
		bool may_wait = http_may_wait();
		db_status st;
		db_conn_nowait(c, !may_wait);
		json_object *o = standings_json(c, req->params[0], season, game, &st);
		bool refused = !may_wait && db_conn_lock_refused(c);
		db_conn_nowait(c, false);
		if (o == NULL) {
			cache_done(key, a.version);
			return refused ? http_defer(resp) : acct_reply_db(resp);
		}
		cache_put(key, a.version, resp, o, NULL);
	}
	access_tag_reply(resp, etag);
	return 0;
}

int api_league_standings(const http_req *req, http_resp *resp)
{
	return access_read(req, resp, standings_read);
}

/* A pair's plays: as opponents (games: wins, losses, ties) and as teammates. */
typedef struct {
	int games, wins, losses, ties, teammate;
} h2h;

static int head_to_head_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	const char *season, *game;
	if (!open_filtered(req, resp, c, acc, &a, &season, &game))
		return 0;
	league_rows s;
	if (rows_load(c, req->params[0], season, game, &s) != DB_OK)
		return acct_reply_db(resp);
	size_t nm = (size_t)s.nmembers;
	if (nm > H2H_MAX_PLAYERS) { /* the table is nm² cells: bounded memory */
		rows_free(&s);
		return http_reply_problem(
		    resp, 422,
		    "too many players for one head-to-head table: choose a game "
		    "or a season",
		    "too-many-players", NULL);
	}
	h2h *t = xcalloc(nm * nm, sizeof *t);
	const char **names = xcalloc(nm, sizeof *names), **ids = xcalloc(nm, sizeof *ids);
	for (int i = 0; i < s.nrows;) {
		int j = i;
		while (j < s.nrows && strcmp(s.rows[j].play, s.rows[i].play) == 0)
			j++;
		for (int k = i; k < j; k++) {
			const league_row *x = &s.rows[k];
			names[x->m] = x->name;
			ids[x->m] = x->member;
			if (x->coop)
				continue;
			for (int l = i; l < j; l++) {
				const league_row *y = &s.rows[l];
				if (l == k)
					continue;
				h2h *e = &t[(size_t)x->m * nm + (size_t)y->m];
				if (rows_teammates(x->team, y->team)) {
					e->teammate++;
					continue;
				}
				e->games++;
				e->wins += x->rank < y->rank;
				e->losses += x->rank > y->rank;
				e->ties += x->rank == y->rank;
			}
		}
		i = j;
	}
	json_object *arr = jx_arr();
	for (size_t m = 0; m < nm; m++)
		for (size_t n = 0; n < nm; n++) {
			const h2h *e = &t[m * nm + n];
			if (e->games == 0) /* only ever teammates: never met */
				continue;
			json_object *o = jx_obj();
			jx_set(o, "player", jx_str(ids[m]));
			jx_set(o, "name", jx_str(names[m]));
			jx_set(o, "opponent", jx_str(ids[n]));
			jx_set(o, "opponent_name", jx_str(names[n]));
			jx_set(o, "games", jx_int(e->games));
			jx_set(o, "wins", jx_int(e->wins));
			jx_set(o, "losses", jx_int(e->losses));
			jx_set(o, "ties", jx_int(e->ties));
			jx_set(o, "teammate", jx_int(e->teammate));
			jx_push(arr, o);
		}
	json_object *o = jx_obj();
	jx_set(o, "head_to_head", arr);
	free(t);
	free(names);
	free(ids);
	rows_free(&s);
	return http_reply_json(resp, 200, o);
}

int api_league_head_to_head(const http_req *req, http_resp *resp)
{
	return access_read(req, resp, head_to_head_read);
}

/* The JSON of a page of a player's history. */
static json_object *history_json(const http_req *req, const db_member_league *ml,
                                 const db_history_page *h)
{
	json_object *arr = jx_arr();
	for (int i = 0; i < h->items.n; i++) {
		const db_history_row *y = &h->items.rows[i];
		json_object *o = jx_obj();
		jx_set(o, "play", jx_str(y->play));
		jx_set(o, "game", jx_str(y->game));
		jx_set(o, "date", jx_str_or_null(y->date)); /* null: undated */
		jx_set(o, "cooperative", jx_bool(y->cooperative));
		jx_set(o, "score", rows_num_json(y->has_score, y->score));
		jx_set(o, "rank", jx_int(y->rank));
		jx_set(o, "winner", jx_bool(y->winner));
		jx_set(o, "rated", jx_bool(y->rated));
		jx_set(
		    o, "rating",
		    rows_rating_json(y->has_rating ? (rating){y->mu, y->sigma} : rating_default()));
		jx_set(o, "players", jx_int(y->players));
		jx_push(arr, o);
	}
	json_object *o = jx_obj();
	jx_set(o, "player", jx_str(req->params[0]));
	jx_set(o, "name", jx_str(ml->name));
	jx_set(o, "league", jx_str(ml->league));
	jx_set(o, "rating",
	       rows_rating_json(h->has_current ? (rating){h->current_mu, h->current_sigma}
	                                       : rating_default()));
	jx_set(o, "total", jx_int(h->total));
	jx_set(o, "history", arr);
	return o;
}

static int history_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	db_member_league ml;
	if (access_member_at(c, req->params[0], -1, &ml) != DB_OK)
		return acct_reply_db(resp);
	if (!ml.found)
		return http_reply_problem(resp, 404, "no such player", NULL, NULL);
	league_access a;
	league_page pg;
	if (!access_as(resp, c, acc, ml.league, false, &a) || !access_page_read(req, resp, &pg))
		return 0;
	/* the name, and that the player is still there, as of this version */
	if (access_member_at(c, req->params[0], a.version, &ml) != DB_OK)
		return acct_reply_db(resp);
	if (!ml.found)
		return http_reply_problem(resp, 404, "no such player", NULL, NULL);
	char key[LCACHE_KEY], etag[LEAGUE_ETAG_LEN];
	cache_key(key, "history\n%s\n%s\n%s", req->params[0], pg.limit_text, pg.offset_text);
	access_etag(etag, a.version, key);
	if (access_not_modified(req, resp, etag))
		return 0;
	if (!cache_get(req, key, a.version, resp)) {
		db_history_page h = {0};
		if (db_player_history(c, req->params[0], pg.limit_text, pg.offset_text, &h) !=
		    DB_OK) {
			db_rowset_clear(&h.items);
			cache_done(key, a.version);
			return acct_reply_db(resp);
		}
		char *link = access_page_link("players", req->params[0], "history", &pg, h.total,
		                              NULL, NULL);
		cache_put(key, a.version, resp, history_json(req, &ml, &h), link);
		db_rowset_clear(&h.items);
		free(link);
	}
	access_tag_reply(resp, etag);
	return 0;
}

int api_player_history(const http_req *req, http_resp *resp)
{
	return access_read_player(req, resp, history_read);
}
