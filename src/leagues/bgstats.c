/* BG Stats, the app most groups log their plays with: its export format (BGStatsExport.json)
 * written from a league (GET …/export.json) and read into an import (league_import_parse). */
#include "leagues/import.h"

#include "base/log.h"
#include "base/oom.h"
#include "base/sbuf.h"
#include "db/leagues.h"
#include "json/jx.h"
#include "json/spec.h"
#include "leagues/import.h"
#include "leagues/internal.h"
#include "leagues/leagues.h"

#include <math.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int api_league_export_json(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	db_export_rows rs;
	if (!lio_export_rows(req, resp, c, &a, &rs))
		return 0;
	const char **games = NULL, **players = NULL, **pids = NULL, **locs = NULL;
	int ngames = 0, nplayers = 0, npids = 0, nlocs = 0;
	json_object *plays = jx_arr(), *gamesj = jx_arr(), *playersj = jx_arr(), *locsj = jx_arr();
	json_object *play = NULL, *scores = NULL;
	const char *cur = "";
	for (int i = 0; i < rs.n; i++) {
		const db_export_row *x = &rs.rows[i];
		if (strcmp(cur, x->play) != 0) {
			cur = x->play;
			int before = ngames;
			int g = lio_intern(&games, &ngames, x->game);
			bool coop = x->cooperative;
			if (g > before) {
				json_object *go = jx_obj();
				jx_set(go, "id", jx_int(g));
				jx_set(go, "name", jx_str(x->game));
				jx_set(go, "bggId", jx_int(lio_int_text(x->bgg_id)));
				jx_set(go, "cooperative", jx_bool(coop));
				jx_set(go, "highestWins", jx_bool(true));
				jx_set(go, "noPoints", jx_bool(false));
				jx_set(go, "usesTeams", jx_bool(false));
				jx_push(gamesj, go);
			}
			int loc = 0;
			if (x->location[0]) {
				before = nlocs;
				loc = lio_intern(&locs, &nlocs, x->location);
				if (loc > before) {
					json_object *lo = jx_obj();
					jx_set(lo, "id", jx_int(loc));
					jx_set(lo, "name", jx_str(x->location));
					jx_push(locsj, lo);
				}
			}
			play = jx_obj();
			jx_set(play, "uuid", jx_str(x->uuid));
			jx_set(play, "playDate", jx_str(x->date_bgs));
			jx_set(play, "durationMin", jx_int(lio_int_text(x->duration_min)));
			jx_set(play, "gameRefId", jx_int(g));
			jx_set(play, "locationRefId", jx_int(loc));
			jx_set(play, "bggId", jx_int(lio_int_text(x->bgg_id)));
			jx_set(play, "comments", jx_str(x->notes));
			jx_set(play, "ignored", jx_bool(false));
			jx_set(play, "usesTeams", jx_bool(false));
			jx_set(play, "manualWinner", jx_bool(false));
			jx_set(play, "rounds", jx_int(0));
			scores = jx_arr();
			jx_set(play, "playerScores", scores);
			jx_push(plays, play);
		}
		int before = npids;
		int pid = lio_intern(&pids, &npids, x->member);
		if (pid > before) {
			lio_intern(&players, &nplayers, x->name);
			json_object *po = jx_obj();
			jx_set(po, "id", jx_int(pid));
			jx_set(po, "name", jx_str(x->name));
			jx_set(po, "uuid", jx_str(x->member));
			jx_set(po, "isAnonymous", jx_bool(false));
			jx_push(playersj, po);
		}
		int seat = x->seat;
		json_object *so = jx_obj();
		jx_set(so, "playerRefId", jx_int(pid));
		jx_set(so, "score", lio_score_string(x->score));
		jx_set(so, "winner", jx_bool(x->winner));
		jx_set(so, "rank", jx_int(x->rank));
		jx_set(so, "seatOrder", jx_int(seat));
		jx_set(so, "startPlayer", jx_bool(seat == 1));
		jx_set(so, "newPlayer", jx_bool(false));
		jx_set(so, "role", jx_str(""));
		jx_push(scores, so);
	}
	free(games);
	free(players);
	free(pids);
	free(locs);
	db_rowset_clear(&rs); /* after the last use of the interned (borrowed) strings */
	json_object *o = jx_obj();
	jx_set(o, "about", jx_str("Dice Hospital companion league export, BG Stats format"));
	jx_set(o, "games", gamesj);
	jx_set(o, "players", playersj);
	jx_set(o, "locations", locsj);
	jx_set(o, "plays", plays);
	char *text = xstrdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return lio_reply_file(resp, "application/json", "league-bgstats.json", text, strlen(text));
}

/* ---- BG Stats JSON ---- */

static bool get_int(json_object *o, const char *k, int64_t *v)
{
	json_object *x;
	if (!json_object_object_get_ex(o, k, &x) || !json_object_is_type(x, json_type_int))
		return false;
	*v = json_object_get_int64(x);
	return true;
}

static const char *get_str(json_object *o, const char *k)
{
	json_object *x;
	if (!json_object_object_get_ex(o, k, &x) || !json_object_is_type(x, json_type_string))
		return NULL;
	return json_object_get_string(x);
}

static int get_bool(json_object *o, const char *k, bool *v)
{
	json_object *x;
	if (!json_object_object_get_ex(o, k, &x) || json_object_is_type(x, json_type_null))
		return 0;
	if (!json_object_is_type(x, json_type_boolean))
		return -1;
	*v = json_object_get_boolean(x);
	return 1;
}

static json_object *get_arr(json_object *o, const char *k)
{
	json_object *x;
	if (!json_object_object_get_ex(o, k, &x) || !json_object_is_type(x, json_type_array))
		return NULL;
	return x;
}

/* The object of the array whose "id" is id, or NULL. */
static json_object *by_id(json_object *arr, int64_t id)
{
	size_t n = arr ? json_object_array_length(arr) : 0;
	for (size_t i = 0; i < n; i++) {
		int64_t v;
		json_object *o = json_object_array_get_idx(arr, i);
		if (get_int(o, "id", &v) && v == id)
			return o;
	}
	return NULL;
}

/* The members of a BG Stats object this import reads, and their JSON types ('i' integer,
 * 's' string, 'b' boolean, 'n' number or numeric string, 'a' array; upper case: required).
 * Other members are ignored (BG Stats adds fields over versions); a read member of the wrong
 * type is a 400 — so what the server takes, static/openapi.json's BGStatsExport describes. */
typedef struct {
	const char *name;
	char type;
} bgs_member;

static bool bgs_type_ok(json_object *v, char type)
{
	switch (type) {
	case 'i':
		return json_object_is_type(v, json_type_int);
	case 's':
		return json_object_is_type(v, json_type_string);
	case 'b':
		return json_object_is_type(v, json_type_boolean);
	case 'a':
		return json_object_is_type(v, json_type_array);
	default: /* 'n' */
		return json_object_is_type(v, json_type_string) ||
		       json_object_is_type(v, json_type_int) ||
		       json_object_is_type(v, json_type_double);
	}
}

static int bgs_shape(league_import *im, json_object *o, const char *at, const bgs_member *m,
                     size_t n)
{
	char f[300];
	if (!json_object_is_type(o, json_type_object))
		return lio_fail(im, at, "must be an object");
	for (size_t i = 0; i < n; i++) {
		json_object *v;
		bool required = m[i].type >= 'A' && m[i].type <= 'Z';
		char type = (char)(required ? m[i].type - 'A' + 'a' : m[i].type);
		snprintf(f, sizeof f, "%s/%s", at, m[i].name);
		if (!json_object_object_get_ex(o, m[i].name, &v) || v == NULL) {
			if (required)
				return lio_fail(im, f, "is required");
			continue;
		}
		if (!bgs_type_ok(v, type))
			return lio_fail(im, f,
			                type == 'i'   ? "must be an integer"
			                : type == 's' ? "must be a string"
			                : type == 'b' ? "must be a boolean"
			                : type == 'a' ? "must be an array"
			                              : "must be a number or a numeric string");
	}
	return 0;
}

/* Every element of the array member key of root (when present) has the shape m. */
static int bgs_list(league_import *im, json_object *root, const char *key, const bgs_member *m,
                    size_t n)
{
	json_object *a;
	char at[300];
	if (!json_object_object_get_ex(root, key, &a) || a == NULL)
		return 0;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		snprintf(at, sizeof at, "/%s/%zu", key, i);
		if (bgs_shape(im, json_object_array_get_idx(a, i), at, m, n) != 0)
			return -1;
	}
	return 0;
}

static int bgs_check(league_import *im, json_object *root)
{
	static const bgs_member top[] = {
	    {"games", 'A'}, {"players", 'A'}, {"plays", 'A'}, {"locations", 'a'}};
	static const bgs_member game[] = {
	    {"id", 'I'}, {"name", 'S'}, {"bggId", 'i'}, {"cooperative", 'b'}, {"highestWins", 'b'}};
	static const bgs_member named[] = {{"id", 'I'}, {"name", 'S'}};
	static const bgs_member play[] = {
	    {"uuid", 'S'},        {"playDate", 'S'},      {"gameRefId", 'I'}, {"playerScores", 'A'},
	    {"durationMin", 'i'}, {"locationRefId", 'i'}, {"bggId", 'i'},     {"comments", 's'}};
	static const bgs_member score[] = {
	    {"playerRefId", 'I'}, {"score", 'n'}, {"winner", 'b'}, {"rank", 'i'}};
	if (bgs_shape(im, root, "", top, 4) != 0 || bgs_list(im, root, "games", game, 5) != 0 ||
	    bgs_list(im, root, "players", named, 2) != 0 ||
	    bgs_list(im, root, "locations", named, 2) != 0 ||
	    bgs_list(im, root, "plays", play, 8) != 0)
		return -1;
	json_object *plays = get_arr(root, "plays");
	for (size_t i = 0; i < json_object_array_length(plays); i++) {
		if (bgs_list(im, json_object_array_get_idx(plays, i), "playerScores", score, 4) !=
		    0) {
			char f[sizeof im->field];
			memcpy(f, im->field, sizeof f); /* "/playerScores/k/…" under the play */
			snprintf(im->field, sizeof im->field, "/plays/%zu%.360s", i, f);
			return -1;
		}
	}
	return 0;
}

int league_parse_bgstats(league_import *im)
{
	json_object *root = im->root;
	if (!json_object_is_type(root, json_type_object))
		return lio_fail(im, "", "a BG Stats export is a JSON object");
	if (bgs_check(im, root) != 0)
		return -1;
	json_object *players = get_arr(root, "players"), *games = get_arr(root, "games");
	json_object *locations = get_arr(root, "locations"), *plays = get_arr(root, "plays");
	if (!players || !games || !plays)
		return lio_fail(im, "",
		                "a BG Stats export has the arrays games, players and plays");
	size_t n = json_object_array_length(plays);
	if (n > IMPORT_MAX_PLAYS)
		return lio_fail(im, "/plays", "too many plays in one file (100000 at most)");
	char f[256];
	for (size_t i = 0; i < n; i++) {
		json_object *pl = json_object_array_get_idx(plays, i);
		js_path_index(f, sizeof f, "/plays", i);
		json_object *scores = get_arr(pl, "playerScores");
		size_t ns = scores ? json_object_array_length(scores) : 0;
		const char *uuid = get_str(pl, "uuid"), *date = get_str(pl, "playDate");
		int64_t gref = 0, v;
		if (!json_object_is_type(pl, json_type_object))
			return lio_fail(im, f, "a play is an object");
		if (!uuid || !*uuid || strlen(uuid) > 128)
			return lio_fail(im, f, "a play needs its uuid (1 to 128 characters)");
		if (!scores || ns < 1 || ns > IMPORT_MAX_RESULTS)
			return lio_fail(im, f, "a play needs playerScores (1 to 64 players)");
		json_object *game = get_int(pl, "gameRefId", &gref) ? by_id(games, gref) : NULL;
		if (!game || !get_str(game, "name") || !*get_str(game, "name"))
			return lio_fail(im, f, "gameRefId names no game of the file");
		imp_play *ip = lio_new_play(im, (int)i, (int)ns);
		league_play *p = &ip->p;
		p->uuid = uuid;
		p->source = "bgstats";
		p->game = get_str(game, "name");
		if (strlen(p->game) > NAME_MAX_BYTES)
			return lio_fail(im, f, "a game's name has at most 256 bytes");
		if ((get_int(pl, "bggId", &v) && v > 0) || (get_int(game, "bggId", &v) && v > 0))
			p->bgg_id = v <= 2147483647 ? v : 0;
		if (!date || !league_parse_when(date, p->when))
			return lio_fail(im, f,
			                "playDate must be a date and time (YYYY-MM-DD HH:MM:SS)");
		if (get_int(pl, "durationMin", &v) && v > 0 && v <= 100000)
			p->duration_min = v;
		p->notes = get_str(pl, "comments");
		if (p->notes && strlen(p->notes) > 4096)
			return lio_fail(im, f, "comments have at most 4096 bytes");
		int64_t lref;
		json_object *loc =
		    get_int(pl, "locationRefId", &lref) && lref > 0 ? by_id(locations, lref) : NULL;
		p->location = loc ? get_str(loc, "name") : NULL;
		if (p->location && strlen(p->location) > NAME_MAX_BYTES)
			p->location = NULL;
		bool coop = false, highest = true;
		if (get_bool(game, "cooperative", &coop) < 0 ||
		    get_bool(game, "highestWins", &highest) < 0)
			return lio_fail(im, f, "cooperative and highestWins are booleans");
		p->cooperative = coop;
		for (size_t k = 0; k < ns; k++) {
			json_object *sc = json_object_array_get_idx(scores, k), *x;
			char sf[300];
			snprintf(sf, sizeof sf, "%s/playerScores/%zu", f, k);
			imp_result *r = &ip->res[ip->nres++];
			int64_t pref = 0;
			json_object *pj =
			    get_int(sc, "playerRefId", &pref) ? by_id(players, pref) : NULL;
			if (!pj || !get_str(pj, "name"))
				return lio_fail(im, sf, "playerRefId names no player of the file");
			r->name = get_str(pj, "name");
			if (json_object_object_get_ex(sc, "score", &x) &&
			    !json_object_is_type(x, json_type_null)) {
				if (json_object_is_type(x, json_type_string)) {
					const char *s = json_object_get_string(x);
					char *end;
					if (*s) {
						r->r.score = strtod(s, &end);
						if (*end)
							return lio_fail(
							    im, sf,
							    "score must be a number (\"45\")");
						if (!isfinite(r->r.score))
							return lio_fail(
							    im, sf,
							    "score must be a finite number "
							    "(this one is beyond a "
							    "double's range)");
						r->r.has_score = true;
					}
				} else if (json_object_is_type(x, json_type_int) ||
				           json_object_is_type(x, json_type_double)) {
					r->r.score = json_object_get_double(x);
					r->r.has_score = true;
				} else {
					return lio_fail(im, sf, "score must be a number (\"45\")");
				}
			}
			int wb = get_bool(sc, "winner", &r->r.winner);
			if (wb < 0)
				return lio_fail(im, sf, "winner is a boolean");
			r->r.has_winner = wb > 0;
			if (get_int(sc, "rank", &v) && v > 0 && v <= 1000) {
				r->r.rank = (int)v;
				r->r.has_rank = true;
			}
		}
		if (lio_check_names(im, ip, f) != 0 || lio_rank(im, ip, !highest, f) != 0)
			return -1;
	}
	return 0;
}
