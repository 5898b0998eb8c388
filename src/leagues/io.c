/* League export and import (api.md "Exports", issue 10): the BG Stats export format (JSON),
 * CSV (one row per player per play), a whole-league backup (our JSON, imports back
 * identically), and imports of BG Stats JSON, BoardGameGeek plays XML (libxml2) and backups.
 *
 * An import is parsed and checked completely before anything is stored, then stored in one
 * transaction (nothing half-imported); plays already in the league (same uuid: a BG Stats
 * play's uuid, "bgg-<play id>", a backup's uuid) are skipped; players are matched to members
 * by name, new names become guest members. */
#include "leagues/import.h"
#include "leagues/leagues.h"
#include "base/sbuf.h"

#include "base/log.h"
#include "base/oom.h"
#include "db/leagues.h"
#include "json/jx.h"
#include "json/spec.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
	IMPORT_MAX_BODY = 16 * 1024 * 1024,
	IMPORT_MAX_PLAYS = 100000,
	IMPORT_MAX_RESULTS = RATING_MAX_PLAYERS,
	NAME_MAX_BYTES = 256,
};

#define BACKUP_FORMAT "dicehospital-league-backup"

/* ---- text helpers ---- */

/* A CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. Text cells that
 * a spreadsheet would run as a formula (= + - @ first) get a leading apostrophe. */
static void b_csv(sbuf *s, const char *v, bool text)
{
	if (v == NULL)
		v = "";
	bool quote = strpbrk(v, ",\"\r\n") != NULL;
	bool formula = text && (*v == '=' || *v == '+' || *v == '-' || *v == '@');
	if (quote)
		sb_str(s, "\"");
	if (formula)
		sb_str(s, "'");
	for (const char *p = v; *p; p++) {
		if (*p == '"')
			sb_str(s, "\"");
		sb_add(s, p, 1);
	}
	if (quote)
		sb_str(s, "\"");
}

/* A number column as text (NULL: SQL NULL) as an integer, 0 when NULL. */
static int64_t int_text(const char *v)
{
	return v ? atoll(v) : 0;
}

/* A stored number as text (NULL: SQL NULL), or NULL when it is not a finite number: a double
 * precision column takes 'Infinity' and 'NaN', which neither JSON nor a score can carry. */
static const char *finite_text(const char *v)
{
	return v && isfinite(strtod(v, NULL)) ? v : NULL;
}

static json_object *num_text(const char *v)
{
	v = finite_text(v);
	if (v == NULL)
		return NULL;
	double d = strtod(v, NULL);
	if (d == floor(d) && fabs(d) < 9e15)
		return jx_int((int64_t)d);
	return jx_double(d);
}

/* A score as BG Stats writes it: a string ("45", "" for none). */
static json_object *score_string(const char *v)
{
	v = finite_text(v);
	if (v == NULL)
		return jx_str("");
	char t[64];
	double d = strtod(v, NULL);
	if (d == floor(d) && fabs(d) < 9e15)
		snprintf(t, sizeof t, "%lld", (long long)d);
	else
		snprintf(t, sizeof t, "%.17g", d);
	return jx_str(t);
}

/* Reply body of another content type (text owned by the caller, copied). */
static int reply_file(http_resp *resp, const char *ctype, const char *filename, char *body,
                      size_t len)
{
	resp->status = 200;
	resp->body = body; /* ownership passes to the response */
	resp->body_len = len;
	resp->content_type = ctype;
	char cd[128];
	snprintf(cd, sizeof cd, "attachment; filename=\"%s\"", filename);
	http_resp_header(resp, "Content-Disposition", cd);
	return http_resp_header(resp, "Cache-Control", "no-store");
}

/* ---- export ---- */

/* The league's export rows into *rows (caller clears), or false after a reply. */
static bool export_rows(const http_req *req, http_resp *resp, db_conn *c, league_access *a,
                        db_export_rows *rows)
{
	memset(rows, 0, sizeof *rows);
	if (!league_access_check(req, resp, c, req->params[0], false, a))
		return false;
	if (db_league_export_rows(c, req->params[0], rows) != DB_OK) {
		acct_reply_db(resp);
		return false;
	}
	return true;
}

/* Index of s in the list (appending it when new); 1-based (BG Stats ids). */
static int intern(const char ***list, int *n, const char *s)
{
	for (int i = 0; i < *n; i++)
		if (strcmp((*list)[i], s) == 0)
			return i + 1;
	*list = xrealloc(*list, (size_t)(*n + 1) * sizeof **list);
	(*list)[(*n)++] = s;
	return *n;
}

int api_league_export_json(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	db_export_rows rs;
	if (!export_rows(req, resp, c, &a, &rs))
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
			int g = intern(&games, &ngames, x->game);
			bool coop = x->cooperative;
			if (g > before) {
				json_object *go = jx_obj();
				jx_set(go, "id", jx_int(g));
				jx_set(go, "name", jx_str(x->game));
				jx_set(go, "bggId", jx_int(int_text(x->bgg_id)));
				jx_set(go, "cooperative", jx_bool(coop));
				jx_set(go, "highestWins", jx_bool(true));
				jx_set(go, "noPoints", jx_bool(false));
				jx_set(go, "usesTeams", jx_bool(false));
				jx_push(gamesj, go);
			}
			int loc = 0;
			if (x->location[0]) {
				before = nlocs;
				loc = intern(&locs, &nlocs, x->location);
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
			jx_set(play, "durationMin", jx_int(int_text(x->duration_min)));
			jx_set(play, "gameRefId", jx_int(g));
			jx_set(play, "locationRefId", jx_int(loc));
			jx_set(play, "bggId", jx_int(int_text(x->bgg_id)));
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
		int pid = intern(&pids, &npids, x->member);
		if (pid > before) {
			intern(&players, &nplayers, x->name);
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
		jx_set(so, "score", score_string(x->score));
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
	return reply_file(resp, "application/json", "league-bgstats.json", text, strlen(text));
}

int api_league_export_csv(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	db_export_rows rs;
	if (!export_rows(req, resp, c, &a, &rs))
		return 0;
	sbuf s = {0};
	sb_str(&s, "play,date,game,bgg_id,duration_min,cooperative,location,player,seat,score,rank,"
	           "winner,rating_mu,rating_sigma,notes\r\n");
	for (int i = 0; i < rs.n; i++) {
		const db_export_row *x = &rs.rows[i];
		char seat[16], rank[16];
		snprintf(seat, sizeof seat, "%d", x->seat);
		snprintf(rank, sizeof rank, "%d", x->rank);
		const struct {
			const char *v; /* NULL: empty */
			bool text;
		} cols[] = {{x->uuid, false},
		            {x->date, false},
		            {x->game, true},
		            {x->bgg_id, false},
		            {x->duration_min, false},
		            {x->cooperative ? "true" : "false", false},
		            {x->location, true},
		            {x->name, true},
		            {seat, false},
		            {finite_text(x->score), false},
		            {rank, false},
		            {x->winner ? "true" : "false", false},
		            {finite_text(x->mu), false},
		            {finite_text(x->sigma), false},
		            {x->notes, true}};
		for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
			if (k)
				sb_str(&s, ",");
			b_csv(&s, cols[k].v, cols[k].text);
		}
		sb_str(&s, "\r\n");
	}
	db_rowset_clear(&rs);
	return reply_file(resp, "text/csv; charset=utf-8", "league.csv", s.b, s.len);
}

int api_league_backup(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	db_export_rows rs;
	if (!export_rows(req, resp, c, &a, &rs))
		return 0;
	json_object *plays = jx_arr(), *play = NULL, *results = NULL;
	const char *cur = "";
	for (int i = 0; i < rs.n; i++) {
		const db_export_row *y = &rs.rows[i];
		if (strcmp(cur, y->play) != 0) {
			cur = y->play;
			play = jx_obj();
			jx_set(play, "uuid", jx_str(y->uuid));
			jx_set(play, "game", jx_str(y->game));
			jx_set(play, "bgg_id", num_text(y->bgg_id));
			jx_set(play, "date", jx_str(y->date));
			jx_set(play, "duration_min", num_text(y->duration_min));
			jx_set(play, "notes", jx_str(y->notes));
			jx_set(play, "location", jx_str(y->location));
			jx_set(play, "cooperative", jx_bool(y->cooperative));
			jx_set(play, "source", jx_str(y->source));
			results = jx_arr();
			jx_set(play, "results", results);
			jx_push(plays, play);
		}
		json_object *x = jx_obj();
		jx_set(x, "name", jx_str(y->name));
		jx_set(x, "score", num_text(y->score));
		jx_set(x, "rank", jx_int(y->rank));
		jx_set(x, "winner", jx_bool(y->winner));
		if (y->breakdown)
			jx_set(x, "breakdown", jx_parse_stored(y->breakdown));
		jx_push(results, x);
	}
	db_rowset_clear(&rs);
	const char *league = req->params[0];
	db_league_row lr;
	db_member_rows mr = {0};
	db_season_rows sr = {0};
	json_object *members = jx_arr(), *seasons = jx_arr(), *o = jx_obj();
	jx_set(o, "format", jx_str(BACKUP_FORMAT));
	jx_set(o, "version", jx_int(1));
	jx_set(o, "members", members);
	jx_set(o, "seasons", seasons);
	jx_set(o, "plays", plays);
	if (db_league_get(c, league, &lr) != DB_OK || db_league_members(c, league, &mr) != DB_OK ||
	    db_league_seasons(c, league, &sr) != DB_OK) {
		db_rowset_clear(&mr);
		json_object_put(o);
		return acct_reply_db(resp);
	}
	jx_set(o, "name", jx_str(lr.found ? lr.name : ""));
	for (int i = 0; i < mr.n; i++) {
		json_object *m = jx_obj();
		jx_set(m, "name", jx_str(mr.rows[i].name));
		jx_push(members, m);
	}
	for (int i = 0; i < sr.n; i++) {
		json_object *m = jx_obj();
		jx_set(m, "name", jx_str(sr.rows[i].name));
		jx_set(m, "starts", jx_str(sr.rows[i].starts));
		jx_set(m, "ends", jx_str(sr.rows[i].ends));
		jx_push(seasons, m);
	}
	db_rowset_clear(&mr);
	db_rowset_clear(&sr);
	char *text = xstrdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return reply_file(resp, "application/json", "league-backup.json", text, strlen(text));
}

/* ---- import: parsed and checked completely before the transaction ---- */

void league_import_free(league_import *im)
{
	json_object_put(im->root);
	for (size_t i = 0; i < im->narena; i++)
		free(im->arena[i]);
	free(im->arena);
	for (int i = 0; i < im->nplays; i++)
		free(im->plays[i].res);
	free(im->plays);
	free(im->members);
	free(im->seasons);
	free(im->cache);
}

static const char *imp_dup(league_import *im, const char *s)
{
	im->arena = xrealloc(im->arena, (im->narena + 1) * sizeof *im->arena);
	return im->arena[im->narena++] = xstrdup(s);
}

static int imp_fail(league_import *im, const char *field, const char *detail)
{
	snprintf(im->field, sizeof im->field, "%s", field);
	snprintf(im->detail, sizeof im->detail, "%s", detail);
	return -1;
}

static imp_play *imp_new_play(league_import *im, int nres)
{
	im->plays = xrealloc(im->plays, (size_t)(im->nplays + 1) * sizeof *im->plays);
	imp_play *p = &im->plays[im->nplays++];
	memset(p, 0, sizeof *p);
	p->res = xcalloc((size_t)nres, sizeof *p->res);
	p->p.duration_min = -1;
	return p;
}

/* Ranks an imported play: given ranks as they are; else from the scores (highest first, or
 * lowest first when the file says so, or when that is what its winner flags say); else from
 * the winner flags. field names the play for an error. */
static int imp_rank(league_import *im, imp_play *ip, bool lowest_wins, const char *field)
{
	int n = ip->nres, ranked = 0, scored = 0, flagged = 0;
	for (int i = 0; i < n; i++) {
		ranked += ip->res[i].r.has_rank;
		scored += ip->res[i].r.has_score;
		flagged += ip->res[i].r.has_winner && ip->res[i].r.winner;
	}
	if (!ip->p.cooperative && ranked < n && scored == n) {
		for (int pass = 0; pass < 2; pass++) {
			bool low = lowest_wins != (pass == 1), agrees = true;
			for (int i = 0; i < n; i++) {
				int better = 0;
				for (int j = 0; j < n; j++)
					better += low ? ip->res[j].r.score < ip->res[i].r.score
					              : ip->res[j].r.score > ip->res[i].r.score;
				ip->res[i].r.rank = better + 1;
				if (ip->res[i].r.has_winner && ip->res[i].r.winner && better > 0)
					agrees = false;
			}
			if (agrees || flagged == 0) {
				for (int i = 0; i < n; i++)
					ip->res[i].r.has_rank = true;
				break;
			}
		}
	}
	league_result tmp[IMPORT_MAX_RESULTS];
	for (int i = 0; i < n; i++)
		tmp[i] = ip->res[i].r;
	ip->p.results = tmp;
	ip->p.nresults = n;
	const char *why = NULL;
	bool ok = league_play_rank(&ip->p, &why);
	for (int i = 0; i < n; i++)
		ip->res[i].r = tmp[i];
	ip->p.results = NULL;
	return ok ? 0 : imp_fail(im, field, why);
}

static int imp_check_names(league_import *im, imp_play *ip, const char *field)
{
	for (int i = 0; i < ip->nres; i++) {
		size_t len = strlen(ip->res[i].name);
		if (len == 0 || len > NAME_MAX_BYTES)
			return imp_fail(im, field, "a player's name must have 1 to 256 bytes");
		for (int k = 0; k < i; k++)
			if (strcmp(ip->res[k].name, ip->res[i].name) == 0)
				return imp_fail(im, field, "a player appears twice in one play");
	}
	return 0;
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
		return imp_fail(im, at, "must be an object");
	for (size_t i = 0; i < n; i++) {
		json_object *v;
		bool required = m[i].type >= 'A' && m[i].type <= 'Z';
		char type = (char)(required ? m[i].type - 'A' + 'a' : m[i].type);
		snprintf(f, sizeof f, "%s/%s", at, m[i].name);
		if (!json_object_object_get_ex(o, m[i].name, &v) || v == NULL) {
			if (required)
				return imp_fail(im, f, "is required");
			continue;
		}
		if (!bgs_type_ok(v, type))
			return imp_fail(im, f,
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

static int parse_bgstats(league_import *im)
{
	json_object *root = im->root;
	if (!json_object_is_type(root, json_type_object))
		return imp_fail(im, "", "a BG Stats export is a JSON object");
	if (bgs_check(im, root) != 0)
		return -1;
	json_object *players = get_arr(root, "players"), *games = get_arr(root, "games");
	json_object *locations = get_arr(root, "locations"), *plays = get_arr(root, "plays");
	if (!players || !games || !plays)
		return imp_fail(im, "",
		                "a BG Stats export has the arrays games, players and plays");
	size_t n = json_object_array_length(plays);
	if (n > IMPORT_MAX_PLAYS)
		return imp_fail(im, "/plays", "too many plays in one file (100000 at most)");
	char f[256];
	for (size_t i = 0; i < n; i++) {
		json_object *pl = json_object_array_get_idx(plays, i);
		js_path_index(f, sizeof f, "/plays", i);
		json_object *scores = get_arr(pl, "playerScores");
		size_t ns = scores ? json_object_array_length(scores) : 0;
		const char *uuid = get_str(pl, "uuid"), *date = get_str(pl, "playDate");
		int64_t gref = 0, v;
		if (!json_object_is_type(pl, json_type_object))
			return imp_fail(im, f, "a play is an object");
		if (!uuid || !*uuid || strlen(uuid) > 128)
			return imp_fail(im, f, "a play needs its uuid (1 to 128 characters)");
		if (!scores || ns < 1 || ns > IMPORT_MAX_RESULTS)
			return imp_fail(im, f, "a play needs playerScores (1 to 64 players)");
		json_object *game = get_int(pl, "gameRefId", &gref) ? by_id(games, gref) : NULL;
		if (!game || !get_str(game, "name") || !*get_str(game, "name"))
			return imp_fail(im, f, "gameRefId names no game of the file");
		imp_play *ip = imp_new_play(im, (int)ns);
		league_play *p = &ip->p;
		p->uuid = uuid;
		p->source = "bgstats";
		p->game = get_str(game, "name");
		if (strlen(p->game) > NAME_MAX_BYTES)
			return imp_fail(im, f, "a game's name has at most 256 bytes");
		if ((get_int(pl, "bggId", &v) && v > 0) || (get_int(game, "bggId", &v) && v > 0))
			p->bgg_id = v <= 2147483647 ? v : 0;
		if (!date || !league_parse_when(date, p->when))
			return imp_fail(im, f,
			                "playDate must be a date and time (YYYY-MM-DD HH:MM:SS)");
		if (get_int(pl, "durationMin", &v) && v > 0 && v <= 100000)
			p->duration_min = v;
		p->notes = get_str(pl, "comments");
		if (p->notes && strlen(p->notes) > 4096)
			return imp_fail(im, f, "comments have at most 4096 bytes");
		int64_t lref;
		json_object *loc =
		    get_int(pl, "locationRefId", &lref) && lref > 0 ? by_id(locations, lref) : NULL;
		p->location = loc ? get_str(loc, "name") : NULL;
		if (p->location && strlen(p->location) > NAME_MAX_BYTES)
			p->location = NULL;
		bool coop = false, highest = true;
		if (get_bool(game, "cooperative", &coop) < 0 ||
		    get_bool(game, "highestWins", &highest) < 0)
			return imp_fail(im, f, "cooperative and highestWins are booleans");
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
				return imp_fail(im, sf, "playerRefId names no player of the file");
			r->name = get_str(pj, "name");
			if (json_object_object_get_ex(sc, "score", &x) &&
			    !json_object_is_type(x, json_type_null)) {
				if (json_object_is_type(x, json_type_string)) {
					const char *s = json_object_get_string(x);
					char *end;
					if (*s) {
						r->r.score = strtod(s, &end);
						if (*end)
							return imp_fail(
							    im, sf,
							    "score must be a number (\"45\")");
						if (!isfinite(r->r.score))
							return imp_fail(
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
					return imp_fail(im, sf, "score must be a number (\"45\")");
				}
			}
			int wb = get_bool(sc, "winner", &r->r.winner);
			if (wb < 0)
				return imp_fail(im, sf, "winner is a boolean");
			r->r.has_winner = wb > 0;
			if (get_int(sc, "rank", &v) && v > 0 && v <= 1000) {
				r->r.rank = (int)v;
				r->r.has_rank = true;
			}
		}
		if (imp_check_names(im, ip, f) != 0 || imp_rank(im, ip, !highest, f) != 0)
			return -1;
	}
	return 0;
}

/* ---- our backup ---- */

static int parse_backup(league_import *im)
{
	const char *format = NULL;
	int64_t version = 0;
	json_object *members = NULL, *seasons = NULL, *plays = NULL;
	const char *name = NULL;
	js_error err;
	const js_field f[] = {
	    {"format", JS_STRING, JS_F_REQUIRED, 1, 64, NULL, &format, NULL},
	    {"version", JS_INT, JS_F_REQUIRED, 1, 1, NULL, &version, NULL},
	    {"name", JS_STRING, 0, 1, NAME_MAX_BYTES, NULL, &name, NULL},
	    {"members", JS_ARRAY, JS_F_REQUIRED, 0, 0, NULL, &members, NULL},
	    {"seasons", JS_ARRAY, JS_F_REQUIRED, 0, 0, NULL, &seasons, NULL},
	    {"plays", JS_ARRAY, JS_F_REQUIRED, 0, IMPORT_MAX_PLAYS, NULL, &plays, NULL},
	};
	if (js_fields(im->root, "", f, sizeof f / sizeof f[0], &err) != 0)
		return imp_fail(im, err.field, err.detail);
	if (strcmp(format, BACKUP_FORMAT) != 0)
		return imp_fail(im, "/format", "is not \"" BACKUP_FORMAT "\"");
	char at[300];
	size_t n = json_object_array_length(members);
	im->members = xcalloc(n, sizeof *im->members);
	for (size_t i = 0; i < n; i++) {
		const js_field mf[] = {{"name", JS_STRING, JS_F_REQUIRED, 1, NAME_MAX_BYTES, NULL,
		                        &im->members[i], NULL}};
		js_path_index(at, sizeof at, "/members", i);
		if (js_fields(json_object_array_get_idx(members, i), at, mf, 1, &err) != 0)
			return imp_fail(im, err.field, err.detail);
		im->nmembers++;
	}
	n = json_object_array_length(seasons);
	im->seasons = xcalloc(n, sizeof *im->seasons);
	for (size_t i = 0; i < n; i++) {
		imp_season *s = &im->seasons[i];
		const js_field sf[] = {
		    {"name", JS_STRING, JS_F_REQUIRED, 1, NAME_MAX_BYTES, NULL, &s->name, NULL},
		    {"starts", JS_STRING, JS_F_REQUIRED, 10, 10, NULL, &s->starts, NULL},
		    {"ends", JS_STRING, JS_F_REQUIRED, 10, 10, NULL, &s->ends, NULL},
		};
		char w[64];
		js_path_index(at, sizeof at, "/seasons", i);
		if (js_fields(json_object_array_get_idx(seasons, i), at, sf, 3, &err) != 0)
			return imp_fail(im, err.field, err.detail);
		if (!league_parse_when(s->starts, w) || !league_parse_when(s->ends, w) ||
		    strcmp(s->ends, s->starts) < 0)
			return imp_fail(im, at, "a season has dates YYYY-MM-DD, ends ≥ starts");
		im->nseasons++;
	}
	static const char *const sources[] = {"hand", "table", "bgstats", "bggxml", NULL};
	n = json_object_array_length(plays);
	for (size_t i = 0; i < n; i++) {
		json_object *pl = json_object_array_get_idx(plays, i), *results = NULL;
		const char *date = NULL;
		int source = 0;
		int64_t bgg = 0, dur = -1;
		bool has_bgg = false, has_dur = false;
		league_play tmp = {0};
		const js_field pf[] = {
		    {"uuid", JS_STRING, JS_F_REQUIRED, 1, 128, NULL, &tmp.uuid, NULL},
		    {"game", JS_STRING, JS_F_REQUIRED, 1, NAME_MAX_BYTES, NULL, &tmp.game, NULL},
		    {"bgg_id", JS_INT, JS_F_NULLABLE, 1, 2147483647, NULL, &bgg, &has_bgg},
		    {"date", JS_STRING, JS_F_REQUIRED, 10, 40, NULL, &date, NULL},
		    {"duration_min", JS_INT, JS_F_NULLABLE, 0, 100000, NULL, &dur, &has_dur},
		    {"notes", JS_STRING, 0, 0, 4096, NULL, &tmp.notes, NULL},
		    {"location", JS_STRING, 0, 0, NAME_MAX_BYTES, NULL, &tmp.location, NULL},
		    {"cooperative", JS_BOOL, 0, 0, 0, NULL, &tmp.cooperative, NULL},
		    {"source", JS_ENUM, JS_F_REQUIRED, 0, 0, sources, &source, NULL},
		    {"results", JS_ARRAY, JS_F_REQUIRED, 1, IMPORT_MAX_RESULTS, NULL, &results,
		     NULL},
		};
		js_path_index(at, sizeof at, "/plays", i);
		if (js_fields(pl, at, pf, sizeof pf / sizeof pf[0], &err) != 0)
			return imp_fail(im, err.field, err.detail);
		size_t nr = json_object_array_length(results);
		imp_play *ip = imp_new_play(im, (int)nr);
		ip->p = tmp;
		ip->p.source = sources[source];
		ip->p.bgg_id = has_bgg ? bgg : 0;
		ip->p.duration_min = has_dur ? dur : -1;
		if (!league_parse_when(date, ip->p.when))
			return imp_fail(im, at, "date must be an RFC 3339 time");
		for (size_t k = 0; k < nr; k++) {
			imp_result *r = &ip->res[ip->nres++];
			int64_t rank = 0;
			json_object *bd = NULL;
			bool has_bd = false;
			char rf[340];
			const js_field xf[] = {
			    {"name", JS_STRING, JS_F_REQUIRED, 1, NAME_MAX_BYTES, NULL, &r->name,
			     NULL},
			    {"score", JS_NUMBER, JS_F_NULLABLE, 0, 0, NULL, &r->r.score,
			     &r->r.has_score},
			    {"rank", JS_INT, JS_F_REQUIRED, 1, 1000, NULL, &rank, NULL},
			    {"winner", JS_BOOL, JS_F_REQUIRED, 0, 0, NULL, &r->r.winner, NULL},
			    {"breakdown", JS_OBJECT, JS_F_NULLABLE, 0, 0, NULL, &bd, &has_bd},
			};
			snprintf(rf, sizeof rf, "%s/results/%zu", at, k);
			if (js_fields(json_object_array_get_idx(results, k), rf, xf, 5, &err) != 0)
				return imp_fail(im, err.field, err.detail);
			r->r.rank = (int)rank;
			r->r.has_rank = r->r.has_winner = true;
			r->r.breakdown =
			    has_bd ? json_object_to_json_string_ext(bd, JSON_C_TO_STRING_PLAIN)
			           : NULL;
		}
		if (imp_check_names(im, ip, at) != 0)
			return -1;
	}
	return 0;
}

/* ---- BoardGameGeek plays XML (the XML API's /plays answer, or BGG's own export) ---- */

static const char *xml_attr(league_import *im, xmlNode *n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	if (v == NULL)
		return NULL;
	const char *s = imp_dup(im, (const char *)v);
	xmlFree(v);
	return s;
}

static xmlNode *xml_child(xmlNode *n, const char *name)
{
	for (xmlNode *c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0)
			return c;
	return NULL;
}

static bool all_digits(const char *s)
{
	if (s == NULL || *s == '\0' || strlen(s) > 18)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static int parse_bgg_play(league_import *im, xmlNode *pl, int index)
{
	char f[64];
	snprintf(f, sizeof f, "/plays/play[%d]", index + 1);
	const char *id = xml_attr(im, pl, "id"), *date = xml_attr(im, pl, "date");
	xmlNode *item = xml_child(pl, "item"), *players = xml_child(pl, "players");
	if (!all_digits(id))
		return imp_fail(im, f, "a play needs its numeric id attribute");
	int n = 0;
	for (xmlNode *c = players ? players->children : NULL; c; c = c->next)
		n += c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "player") == 0;
	if (n < 1 || n > IMPORT_MAX_RESULTS)
		return imp_fail(im, f, "a play needs <players> with 1 to 64 <player>");
	const char *game = item ? xml_attr(im, item, "name") : NULL;
	if (!game || !*game || strlen(game) > NAME_MAX_BYTES)
		return imp_fail(im, f, "a play needs <item name=\"…\"> (1 to 256 bytes)");
	imp_play *ip = imp_new_play(im, n);
	league_play *p = &ip->p;
	char uuid[40];
	snprintf(uuid, sizeof uuid, "bgg-%s", id);
	p->uuid = imp_dup(im, uuid);
	p->source = "bggxml";
	p->game = game;
	const char *objectid = xml_attr(im, item, "objectid"), *length = xml_attr(im, pl, "length");
	if (all_digits(objectid) && atoll(objectid) > 0 && atoll(objectid) <= 2147483647)
		p->bgg_id = atoll(objectid);
	if (!date || strlen(date) != 10 || !league_parse_when(date, p->when))
		return imp_fail(im, f, "date must be YYYY-MM-DD");
	if (all_digits(length) && atoll(length) > 0 && atoll(length) <= 100000)
		p->duration_min = atoll(length);
	p->location = xml_attr(im, pl, "location");
	if (p->location && strlen(p->location) > NAME_MAX_BYTES)
		p->location = NULL;
	xmlNode *comments = xml_child(pl, "comments");
	if (comments) {
		xmlChar *t = xmlNodeGetContent(comments);
		p->notes = imp_dup(im, t ? (const char *)t : "");
		xmlFree(t);
		if (strlen(p->notes) > 4096)
			return imp_fail(im, f, "comments have at most 4096 bytes");
	}
	for (xmlNode *c = players->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, "player") != 0)
			continue;
		imp_result *r = &ip->res[ip->nres++];
		const char *name = xml_attr(im, c, "name"), *user = xml_attr(im, c, "username");
		const char *score = xml_attr(im, c, "score"), *win = xml_attr(im, c, "win");
		char anon[32];
		snprintf(anon, sizeof anon, "Anonymous player %d", ip->nres);
		r->name = name && *name ? name : user && *user ? user : imp_dup(im, anon);
		if (score && *score) {
			char *end;
			char d[96];
			r->r.score = strtod(score, &end);
			if (*end || !isfinite(r->r.score)) {
				snprintf(d, sizeof d, "player %d's score must be a %snumber",
				         ip->nres, *end ? "" : "finite ");
				return imp_fail(im, f, d);
			}
			r->r.has_score = true;
		}
		r->r.has_winner = win != NULL;
		r->r.winner = win && strcmp(win, "1") == 0;
	}
	if (imp_check_names(im, ip, f) != 0 || imp_rank(im, ip, false, f) != 0)
		return -1;
	return 0;
}

static void xml_silent(void *ctx, const xmlError *e)
{
	(void)ctx;
	(void)e;
}

/* The markup declaration the file holds ("<!DOCTYPE", "<!ENTITY"), or NULL. BGG's plays XML
 * has no DTD; a DTD's only use in an upload is entities, and expanding them is the billion
 * laughs (a 1 MB entity referenced 100,000 times is 100 GB of text). So any declaration is
 * refused before libxml2 sees the file, wherever it stands (a comment included). */
static const char *xml_declaration(const char *body, size_t len)
{
	static const char *const refused[] = {"<!DOCTYPE", "<!ENTITY"};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
		if (memmem(body, len, refused[i], strlen(refused[i])) != NULL)
			return refused[i];
	return NULL;
}

/* SAX internalSubset: a DOCTYPE the byte scan could not see (a file in UTF-16, say) stops
 * the parser before its internal subset is read, so no entity is ever declared. */
static void xml_stop_at_doctype(void *ctx, const xmlChar *name, const xmlChar *external_id,
                                const xmlChar *system_id)
{
	(void)name;
	(void)external_id;
	(void)system_id;
	xmlParserCtxtPtr p = ctx;
	*(bool *)p->_private = true;
	xmlStopParser(p);
}

static int parse_bggxml(league_import *im, const char *body, size_t len)
{
	const char *decl = xml_declaration(body, len);
	if (decl != NULL) {
		char d[128];
		snprintf(d, sizeof d,
		         "a BGG plays file has no DTD: the declaration %s is refused (entities are "
		         "not expanded)",
		         decl);
		return imp_fail(im, "", d);
	}
	xmlParserCtxtPtr ctx = xmlNewParserCtxt();
	if (ctx == NULL)
		oom_abort();
	bool doctype = false;
	ctx->_private = &doctype;
	ctx->sax->internalSubset = xml_stop_at_doctype;
	xmlSetStructuredErrorFunc(NULL, (xmlStructuredErrorFunc)xml_silent);
	/* No network; entities are never substituted (no XML_PARSE_NOENT) and no DTD is loaded
	 * (no XML_PARSE_DTDLOAD or XML_PARSE_DTDATTR); a DOCTYPE stops the parser above. */
	xmlDocPtr doc = xmlCtxtReadMemory(ctx, body, (int)len, "plays.xml", NULL,
	                                  XML_PARSE_NONET | XML_PARSE_NOCDATA);
	int rc = 0;
	if (doctype) {
		rc = imp_fail(im, "",
		              "a BGG plays file has no DTD: the declaration <!DOCTYPE is refused "
		              "(entities are not expanded)");
		goto out;
	}
	if (doc == NULL) {
		const xmlError *e = xmlCtxtGetLastError(ctx);
		char d[256];
		snprintf(d, sizeof d, "not well-formed XML (line %d: %s)", e ? e->line : 0,
		         e && e->message ? e->message : "?");
		d[strcspn(d, "\n")] = '\0';
		rc = imp_fail(im, "", d);
		goto out;
	}
	xmlNode *root = xmlDocGetRootElement(doc);
	if (root == NULL || strcmp((const char *)root->name, "plays") != 0) {
		rc = imp_fail(im, "", "a BGG plays file has the root element <plays>");
		goto out;
	}
	int i = 0;
	for (xmlNode *c = root->children; c && rc == 0; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, "play") != 0)
			continue;
		if (i >= IMPORT_MAX_PLAYS) {
			rc = imp_fail(im, "/plays", "too many plays in one file (100000 at most)");
			break;
		}
		rc = parse_bgg_play(im, c, i++);
	}
out:
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctx);
	xmlSetStructuredErrorFunc(NULL, NULL);
	return rc;
}

int league_import_parse(league_import *im, import_format format, const char *body, size_t len)
{
	if (format == IMPORT_BGGXML)
		return parse_bggxml(im, body, len);
	js_error err;
	if (js_parse(body, len, &im->root, &err) != 0)
		return imp_fail(im, err.field, err.detail);
	return format == IMPORT_BACKUP ? parse_backup(im) : parse_bgstats(im);
}

/* ---- storing an import ---- */

static db_status imp_member(db_conn *c, league_import *im, const char *name, char id[ID_LEN + 1])
{
	for (int i = 0; i < im->ncache; i++)
		if (strcmp(im->cache[i].name, name) == 0) {
			snprintf(id, ID_LEN + 1, "%s", im->cache[i].id);
			return DB_OK;
		}
	bool created = false;
	db_status st = league_member_by_name(c, im->league, name, id, &created);
	if (st != DB_OK)
		return st;
	im->created += created;
	im->cache = xrealloc(im->cache, (size_t)(im->ncache + 1) * sizeof *im->cache);
	im->cache[im->ncache].name = name;
	snprintf(im->cache[im->ncache++].id, ID_LEN + 1, "%s", id);
	return DB_OK;
}

static db_status import_tx(db_conn *c, void *arg)
{
	league_import *im = arg;
	im->imported = im->skipped = im->created = im->ncache = 0;
	db_status st = league_lock(c, im->league);
	for (int i = 0; st == DB_OK && i < im->nmembers; i++) {
		char id[ID_LEN + 1];
		st = imp_member(c, im, im->members[i], id);
	}
	for (int i = 0; st == DB_OK && i < im->nseasons; i++) {
		char id[ID_LEN + 1];
		id_new(id);
		const imp_season *s = &im->seasons[i];
		bool inserted; /* a season of this name already there is kept */
		st = db_season_insert(c, id, im->league, s->name, s->starts, s->ends, &inserted);
	}
	league_result res[IMPORT_MAX_RESULTS];
	/* the uuids already in the league, in byte order (one query, then a binary search) */
	db_uuid_rows known = {0};
	if (st == DB_OK)
		st = db_league_uuids(c, im->league, &known);
	int nknown = known.n;
	for (int i = 0; st == DB_OK && i < im->nplays; i++) {
		imp_play *ip = &im->plays[i];
		bool exists = false;
		for (int lo = 0, hi = nknown - 1; lo <= hi && !exists;) {
			int mid = lo + (hi - lo) / 2,
			    cmp = strcmp(known.rows[mid].uuid, ip->p.uuid);
			exists = cmp == 0;
			if (cmp < 0)
				lo = mid + 1;
			else
				hi = mid - 1;
		}
		if (exists) {
			im->skipped++;
			continue;
		}
		for (int k = 0; st == DB_OK && k < ip->nres; k++) {
			res[k] = ip->res[k].r;
			st = imp_member(c, im, ip->res[k].name, res[k].member);
		}
		if (st != DB_OK)
			break;
		ip->p.results = res;
		ip->p.nresults = ip->nres;
		char id[ID_LEN + 1];
		st = league_play_insert(c, im->league, im->account, &ip->p, id);
		ip->p.results = NULL;
		if (st == DB_ABORT) { /* the same uuid twice in the file */
			im->skipped++;
			st = DB_OK;
		} else if (st == DB_OK) {
			im->imported++;
		}
	}
	db_rowset_clear(&known);
	if (st == DB_OK)
		st = league_recompute(c, im->league);
	return st;
}

static bool content_type_is(const char *ct, const char *want)
{
	size_t n = strlen(want);
	return ct && strncasecmp(ct, want, n) == 0 && (ct[n] == '\0' || ct[n] == ';');
}

int api_league_import_pre_body(const http_req *req, http_resp *resp)
{
	league_access a;
	if (!acct_csrf_reply(req, resp, false))
		league_access_check(req, resp, db_thread_conn(), req->params[0], true, &a);
	return 0;
}

int api_league_import(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, false) ||
	    !league_access_check(req, resp, c, req->params[0], true, &a))
		return 0;
	const char *format = http_query(req, "format");
	const char *ct = http_header(req, MHD_HTTP_HEADER_CONTENT_TYPE);
	bool xml = format && strcmp(format, "bggxml") == 0;
	if (!format || (!xml && strcmp(format, "bgstats") != 0 && strcmp(format, "backup") != 0))
		return http_reply_problem(resp, 400, "format must be bgstats, bggxml or backup",
		                          NULL, NULL);
	if (xml ? !content_type_is(ct, "application/xml") && !content_type_is(ct, "text/xml")
	        : !http_content_type_is_json(ct))
		return http_reply_problem(resp, 415,
		                          xml ? "a BGG plays file is application/xml or text/xml"
		                              : "this import is application/json",
		                          NULL, NULL);
	if (req->body == NULL || req->body_len == 0)
		return http_reply_problem(resp, 400, "the file is empty", NULL, NULL);
	league_import im = {.league = req->params[0], .account = a.acc.id};
	import_format f = xml                             ? IMPORT_BGGXML
	                  : strcmp(format, "backup") == 0 ? IMPORT_BACKUP
	                                                  : IMPORT_BGSTATS;
	int rc = league_import_parse(&im, f, req->body, req->body_len);
	if (rc != 0) {
		http_reply_problem(resp, 400, im.detail, "malformed-file",
		                   im.field[0] ? im.field : NULL);
	} else {
		db_status st = c ? db_tx(c, false, import_tx, &im) : DB_UNAVAILABLE;
		if (st != DB_OK) {
			acct_reply_db(resp);
		} else {
			json_object *o = jx_obj();
			jx_set(o, "imported", jx_int(im.imported));
			jx_set(o, "skipped", jx_int(im.skipped));
			jx_set(o, "players_created", jx_int(im.created));
			http_reply_json(resp, 200, o);
		}
	}
	league_import_free(&im);
	return 0;
}
