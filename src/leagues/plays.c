/* The plays entered by hand (plays.h): add, read, list, edit, delete, with the league's change
 * log. */
#include "leagues/plays.h"
#include "leagues/access.h"
#include "leagues/dates.h"
#include "leagues/io.h"
#include "leagues/ratings.h"
#include "leagues/rows.h"
#include "leagues/store.h"
#include "json/jx.h"
#include "json/spec.h"

#include <pthread.h>
#include <sodium.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The play as JSON, or NULL when the league has no such play (*st DB_OK) or on failure. */
static json_object *play_json(db_conn *c, const char *league, const char *play, db_status *st)
{
	db_play_rows pr = {0};
	db_result_rows rr = {0};
	json_object *o = NULL;
	if ((*st = db_play_get(c, league, play, &pr)) != DB_OK || pr.n != 1)
		goto out;
	const db_play_row *y = &pr.rows[0];
	if ((*st = db_play_results(c, play, &rr)) != DB_OK)
		goto out;
	o = jx_obj();
	jx_set(o, "id", jx_str(y->id));
	jx_set(o, "league", jx_str(league));
	jx_set(o, "game", jx_str(y->game));
	jx_set(o, "bgg_id", y->has_bgg_id ? jx_int(y->bgg_id) : NULL);
	jx_set(o, "date", jx_str_or_null(y->date)); /* null: undated */
	jx_set(o, "duration_min", y->has_duration ? jx_int(y->duration_min) : NULL);
	jx_set(o, "notes", jx_str(y->notes));
	jx_set(o, "location", jx_str(y->location));
	jx_set(o, "cooperative", jx_bool(y->cooperative));
	jx_set(o, "source", jx_str(y->source));
	jx_set(o, "uuid", jx_str(y->uuid));
	jx_set(o, "game_id", jx_str_or_null(y->game_id));
	jx_set(o, "ignored", jx_bool(y->ignored));
	jx_set(o, "incomplete", jx_bool(y->incomplete));
	jx_set(o, "bgg_play_id", y->bgg_play_id > 0 ? jx_int(y->bgg_play_id) : NULL);
	jx_set(o, "created_by", jx_str_or_null(y->created_by));
	json_object *a = jx_arr();
	for (int i = 0; i < rr.n; i++) {
		const db_result_row *z = &rr.rows[i];
		json_object *x = jx_obj();
		jx_set(x, "player", jx_str(z->member));
		jx_set(x, "name", jx_str(z->name));
		jx_set(x, "seat", jx_int(z->seat));
		jx_set(x, "score", rows_num_json(z->has_score, z->score));
		jx_set(x, "score_text", jx_str_or_null(z->score_text));
		jx_set(x, "rank", jx_int(z->rank));
		jx_set(x, "winner", jx_bool(z->winner));
		if (z->breakdown)
			jx_set(x, "breakdown", jx_parse_stored(z->breakdown));
		if (z->has_rating)
			jx_set(x, "rating_after", rows_rating_json((rating){z->mu, z->sigma}));
		jx_set(x, "unrated", jx_bool(z->unrated));
		json_object *d = io_seat_details(z->extra);
		json_object_object_foreach(d, k, v) jx_set_copy(x, k, json_object_get(v));
		json_object_put(d);
		jx_set(x, "team", jx_str_or_null(z->team));
		jx_push(a, x);
	}
	jx_set(o, "results", a);
out:
	db_rowset_clear(&pr);
	db_rowset_clear(&rr);
	return o;
}

/* ---- plays by hand ---- */

typedef struct {
	league_play p;
	league_result res[MAX_RESULTS];
} play_in;

/* Parses a play body into *in (strings borrowed from root). 0, or -1 after a 400 reply. */
static int play_parse(json_object *root, http_resp *resp, play_in *in)
{
	const char *game = NULL, *date = NULL, *notes = NULL, *location = NULL;
	int64_t bgg = 0, dur = -1;
	bool coop = false, has_bgg = false, has_dur = false, undated = false, local = false;
	json_object *results = NULL;
	js_error err;
	const js_field f[] = {
	    {"game", JS_STRING, JS_F_REQUIRED, 1, GAME_MAX, NULL, &game, NULL},
	    {"bgg_id", JS_INT, JS_F_NULLABLE, 1, 2147483647, NULL, &bgg, &has_bgg},
	    {"date", JS_STRING, JS_F_NULLABLE, 10, 40, NULL, &date, NULL},
	    {"duration_min", JS_INT, JS_F_NULLABLE, 0, 100000, NULL, &dur, &has_dur},
	    {"notes", JS_STRING, JS_F_NULLABLE, 0, NOTES_MAX, NULL, &notes, NULL},
	    {"location", JS_STRING, JS_F_NULLABLE, 0, GAME_MAX, NULL, &location, NULL},
	    {"cooperative", JS_BOOL, JS_F_NULLABLE, 0, 0, NULL, &coop, NULL},
	    {"undated", JS_BOOL, JS_F_NULLABLE, 0, 0, NULL, &undated, NULL},
	    {"results", JS_ARRAY, JS_F_REQUIRED, 1, MAX_RESULTS, NULL, &results, NULL},
	};
	memset(in, 0, sizeof *in);
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0)
		return http_reply_invalid(resp, err.field, err.detail), -1;
	league_play *p = &in->p;
	p->game = game;
	p->bgg_id = has_bgg ? bgg : 0;
	p->duration_min = has_dur ? dur : -1;
	p->notes = notes;
	p->location = location;
	p->cooperative = coop;
	p->source = "hand";
	p->results = in->res;
	if (undated && date != NULL) {
		http_reply_problem(resp, 400, "an undated play has no date", NULL, "/date");
		return -1;
	} else if (undated) { /* a play logged without a date (README "Plays and ratings") */
		snprintf(p->when, sizeof p->when, "%s", PLAY_UNDATED_AT);
		p->clock = PLAY_CLOCK_UNDATED;
	} else if (date == NULL) {
		time_t now = time(NULL);
		struct tm tm;
		gmtime_r(&now, &tm);
		strftime(p->when, sizeof p->when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	} else if (!dates_parse_play(date, p->when, &p->utc_offset_min, &local)) {
		http_reply_problem(
		    resp, 400,
		    "must be a date (YYYY-MM-DD), an RFC 3339 time with seconds "
		    "and an offset from -15:59 to +15:59 (2026-12-31T23:30:00-05:00), or a local "
		    "time with seconds and no offset (2026-12-31T23:30:00)",
		    NULL, "/date");
		return -1;
	} else if (local) {
		p->clock = PLAY_CLOCK_LOCAL;
	}
	size_t n = json_object_array_length(results);
	for (size_t i = 0; i < n; i++) {
		league_result *x = &in->res[i];
		const char *player = NULL;
		double score = 0;
		int64_t rank = 0;
		bool winner = false;
		char at[32];
		const js_field rf[] = {
		    {"player", JS_STRING, JS_F_REQUIRED, 1, ID_LEN, NULL, &player, NULL},
		    {"score", JS_NUMBER, JS_F_NULLABLE, 0, 0, NULL, &score, &x->has_score},
		    {"rank", JS_INT, JS_F_NULLABLE, 1, 1000, NULL, &rank, &x->has_rank},
		    {"winner", JS_BOOL, JS_F_NULLABLE, 0, 0, NULL, &winner, &x->has_winner},
		};
		js_path_index(at, sizeof at, "/results", i);
		if (js_fields(json_object_array_get_idx(results, i), at, rf, 4, &err) != 0)
			return http_reply_invalid(resp, err.field, err.detail), -1;
		snprintf(x->member, sizeof x->member, "%s", player);
		x->score = score;
		x->rank = (int)rank;
		x->winner = winner;
		for (size_t k = 0; k < i; k++)
			if (strcmp(in->res[k].member, x->member) == 0) {
				char fp[48];
				snprintf(fp, sizeof fp, "%s/player", at);
				http_reply_problem(resp, 400, "a player appears twice in one play",
				                   NULL, fp);
				return -1;
			}
	}
	p->nresults = (int)n;
	const char *why = NULL;
	if (!store_play_rank(p, &why)) {
		http_reply_problem(resp, 400, why, NULL, "/results");
		return -1;
	}
	return 0;
}

enum { PLAY_KEY_MAX = 128, PLAY_HASH_HEX = 64 };

typedef struct {
	const char *league, *play;
	league_access a;
	play_in *in;
	http_resp *resp;
	char id[ID_LEN + 1];
	const char *key;              /* Idempotency-Key (borrowed from the request), or NULL */
	char hash[PLAY_HASH_HEX + 1]; /* BLAKE2b-256 of the body, hex, when key is set */
} play_arg;

/* The request's Idempotency-Key header into x->key (NULL when absent) and the hash of its body
 * into x->hash; false after a 400 reply (a key must be 1 to PLAY_KEY_MAX visible ASCII
 * characters: a UUID, or any random string the client chose). */
static bool play_key_read(const http_req *req, http_resp *resp, play_arg *x)
{
	const char *k = http_header(req, "Idempotency-Key");
	x->key = NULL;
	if (k == NULL)
		return true;
	size_t n = strlen(k);
	bool ok = n >= 1 && n <= PLAY_KEY_MAX;
	for (size_t i = 0; ok && i < n; i++)
		ok = k[i] > 0x20 && k[i] < 0x7f;
	if (!ok) {
		http_reply_problem(resp, 400,
		                   "Idempotency-Key must be 1 to 128 visible ASCII characters",
		                   "idempotency-key-invalid", NULL);
		return false;
	}
	unsigned char h[32];
	crypto_generichash(h, sizeof h, (const unsigned char *)(req->body ? req->body : ""),
	                   req->body ? req->body_len : 0, NULL, 0);
	sodium_bin2hex(x->hash, sizeof x->hash, h, sizeof h);
	x->key = k;
	return true;
}

/* A play already stored under x->key: its first reply again when this is the same request of
 * the same account, else 409 idempotency-key-reused; DB_ABORT after either reply (nothing is
 * written). DB_OK when the key is new. Runs with the league locked, so two copies of one
 * submission in flight at once are answered one after the other. */
static db_status play_key_replay(db_conn *c, play_arg *x)
{
	db_play_key_rows k = {0};
	db_status st = db_play_key_get(c, x->league, x->key, &k);
	if (st != DB_OK || k.n == 0) {
		db_rowset_clear(&k);
		return st;
	}
	const db_play_key_row *y = &k.rows[0];
	http_resp_clear(x->resp);
	if (strcmp(y->request_hash, x->hash) == 0 && strcmp(y->account, x->a.acc.id) == 0)
		http_reply_json(x->resp, y->status, jx_parse_stored(y->reply));
	else
		http_reply_problem(x->resp, 409,
		                   "this Idempotency-Key was already sent with another request",
		                   "idempotency-key-reused", NULL);
	db_rowset_clear(&k);
	return DB_ABORT;
}

/* Every player must be a member of the league: 422 "unknown-player" otherwise. */
static db_status check_players(db_conn *c, play_arg *x)
{
	for (int i = 0; i < x->in->p.nresults; i++) {
		db_member_rows m = {0};
		db_status st = db_member_get(c, x->league, x->in->res[i].member, &m);
		if (st != DB_OK)
			return st;
		bool found = m.n == 1;
		db_rowset_clear(&m);
		if (!found) {
			char fp[48];
			snprintf(fp, sizeof fp, "/results/%d/player", i);
			http_resp_clear(x->resp);
			http_reply_problem(x->resp, 422, "no member of this league has this id",
			                   "unknown-player", fp);
			return DB_ABORT;
		}
	}
	return DB_OK;
}

static db_status log_play(db_conn *c, const char *league, const char *play, const char *who,
                          const char *action, json_object *before, json_object *after)
{
	return db_play_log_insert(c, league, play, who, action, before ? jx_text(before) : NULL,
	                          after ? jx_text(after) : NULL);
}

static db_status play_add_tx(db_conn *c, void *arg)
{
	play_arg *x = arg;
	db_status st = access_lock_as(c, x->league, false, &x->a, x->resp);
	if (st == DB_OK && x->key)
		st = play_key_replay(c, x);
	if (st == DB_OK)
		st = check_players(c, x);
	if (st == DB_OK)
		st = store_play_insert(c, x->league, x->a.acc.id, &x->in->p, x->id);
	if (st == DB_OK)
		st = ratings_recompute_added(c, x->league, x->id);
	if (st != DB_OK)
		return st;
	json_object *after = play_json(c, x->league, x->id, &st);
	if (after == NULL)
		return st == DB_OK ? DB_FAIL : st;
	st = log_play(c, x->league, x->id, x->a.acc.id, "create", NULL, after);
	if (st == DB_OK && x->key)
		st = db_play_key_insert(c, x->league, x->key, x->a.acc.id, x->hash, 201,
		                        jx_text(after));
	http_resp_clear(x->resp);
	http_reply_json(x->resp, 201, after);
	return st;
}

/* A play's body (add or edit of play params[1]) parsed and stored by tx. */
static int play_write(const http_req *req, http_resp *resp, const char *play,
                      db_status (*tx)(db_conn *, void *))
{
	json_object *root = NULL;
	play_arg x = {.league = req->params[0], .play = play, .resp = resp};
	db_conn *c = access_open_body(req, resp, false, &x.a, &root);
	if (!c)
		return 0;
	if (tx == play_add_tx && !play_key_read(req, resp, &x)) {
		json_object_put(root);
		return 0;
	}
	x.in = xmalloc(sizeof *x.in);
	if (play_parse(root, resp, x.in) == 0)
		access_run_tx(c, &x.a.acc, tx, &x, resp);
	free(x.in);
	json_object_put(root);
	return 0;
}

int api_league_play_add(const http_req *req, http_resp *resp)
{
	return play_write(req, resp, NULL, play_add_tx);
}

int api_league_play_get(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (!access_check(req, resp, c, req->params[0], false, &a))
		return 0;
	db_status st;
	json_object *o = play_json(c, req->params[0], req->params[1], &st);
	if (o == NULL && st == DB_OK)
		return http_reply_problem(resp, 404, "no such play in this league", NULL, NULL);
	if (o == NULL)
		return acct_reply_db(resp);
	return http_reply_json(resp, 200, o);
}

/* The JSON of a page of plays: {"plays": […], "total"}. */
static json_object *play_page_json(const db_play_page *page)
{
	json_object *arr = jx_arr();
	for (int i = 0; i < page->items.n; i++) {
		const db_play_item *y = &page->items.rows[i];
		json_object *o = jx_obj();
		jx_set(o, "id", jx_str(y->id));
		jx_set(o, "game", jx_str(y->game));
		jx_set(o, "date", jx_str_or_null(y->date)); /* null: undated */
		jx_set(o, "cooperative", jx_bool(y->cooperative));
		jx_set(o, "source", jx_str(y->source));
		jx_set(o, "ignored", jx_bool(y->ignored));
		jx_set(o, "incomplete", jx_bool(y->incomplete));
		jx_set(o, "players", jx_parse_stored(y->players));
		jx_push(arr, o);
	}
	json_object *o = jx_obj();
	jx_set(o, "plays", arr);
	jx_set(o, "total", jx_int(page->total));
	return o;
}

static int play_list_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	league_page pg;
	const char *season, *game, *league = req->params[0];
	if (!access_as(resp, c, acc, league, false, &a) || !access_page_read(req, resp, &pg) ||
	    !access_read_filters(req, resp, c, &season, &game))
		return 0;
	sbuf key = {0};
	char etag[LEAGUE_ETAG_LEN];
	sb_str(&key, "plays\n");
	sb_str(&key, league);
	sb_str(&key, "\n");
	sb_str(&key, pg.limit_text);
	sb_str(&key, "\n");
	sb_str(&key, pg.offset_text);
	sb_str(&key, season ? "\ns" : "\n-");
	sb_str(&key, season ? season : "");
	sb_str(&key, game ? "\ng" : "\n-");
	sb_str(&key, game ? game : "");
	access_etag(etag, a.version, key.b);
	free(key.b);
	if (access_not_modified(req, resp, etag))
		return 0;
	db_play_page page = {0};
	if (db_play_list(c, league, season, game, pg.limit_text, pg.offset_text, &page) != DB_OK) {
		db_rowset_clear(&page.items);
		return acct_reply_db(resp);
	}
	char *link = access_page_link("leagues", league, "plays", &pg, page.total, season, game);
	http_reply_json(resp, 200, play_page_json(&page));
	db_rowset_clear(&page.items);
	access_tag_reply(resp, etag);
	if (link)
		http_resp_header(resp, "Link", link);
	free(link);
	return 0;
}

int api_league_play_list(const http_req *req, http_resp *resp)
{
	return access_read(req, resp, play_list_read);
}

/* Loads the play for an edit or a deletion: its JSON (before) and whether the caller may
 * change it (owners any play; members the plays they entered). DB_ABORT after a reply. */
static db_status play_for_change(db_conn *c, play_arg *x, bool owner_only, json_object **before)
{
	db_status st;
	*before = play_json(c, x->league, x->play, &st);
	http_resp_clear(x->resp);
	if (*before == NULL) {
		if (st != DB_OK)
			return st;
		http_reply_problem(x->resp, 404, "no such play in this league", NULL, NULL);
		return DB_ABORT;
	}
	if (x->a.owner)
		return DB_OK;
	bool found;
	char by[DB_LG_ID_MAX + 1];
	if ((st = db_play_created_by(c, x->play, &found, by)) != DB_OK) {
		json_object_put(*before);
		return st;
	}
	bool mine = !owner_only && found && strcmp(by, x->a.acc.id) == 0;
	if (!mine) {
		json_object_put(*before);
		*before = NULL;
		http_reply_problem(x->resp, 403,
		                   owner_only ? "only the league's owners may delete results"
		                              : "only the league's owners or the play's author may "
		                                "edit it",
		                   "not-owner", NULL);
		return DB_ABORT;
	}
	return DB_OK;
}

/* An edit keeps the score breakdown (of a finished table game) of every player whose score it
 * does not change; the text points into before, which outlives the store. */
static void keep_breakdowns(json_object *before, league_result *res, int n)
{
	json_object *old = NULL;
	if (before == NULL || !json_object_object_get_ex(before, "results", &old))
		return;
	for (size_t i = 0; i < json_object_array_length(old); i++) {
		json_object *o = json_object_array_get_idx(old, i), *pl, *bd, *sc;
		if (!json_object_object_get_ex(o, "breakdown", &bd) ||
		    !json_object_object_get_ex(o, "player", &pl) ||
		    !json_object_object_get_ex(o, "score", &sc) || sc == NULL)
			continue;
		for (int k = 0; k < n; k++)
			if (strcmp(res[k].member, json_object_get_string(pl)) == 0 &&
			    res[k].has_score && res[k].score == json_object_get_double(sc))
				res[k].breakdown = jx_text(bd);
	}
}

/* An edit keeps unrated the seats of the members who sat unrated before it (an anonymous
 * player stays out of standings when a play's notes are corrected). */
static void keep_unrated(json_object *before, league_result *res, int n)
{
	json_object *old = NULL;
	if (before == NULL || !json_object_object_get_ex(before, "results", &old))
		return;
	for (size_t i = 0; i < json_object_array_length(old); i++) {
		json_object *o = json_object_array_get_idx(old, i), *pl, *un;
		if (!json_object_object_get_ex(o, "unrated", &un) || !json_object_get_boolean(un) ||
		    !json_object_object_get_ex(o, "player", &pl))
			continue;
		for (int k = 0; k < n; k++)
			if (strcmp(res[k].member, json_object_get_string(pl)) == 0)
				res[k].unrated = true;
	}
}

/* An edit keeps each member's team of a play in teams (the text points into before). */
static void keep_teams(json_object *before, league_result *res, int n)
{
	json_object *old = NULL;
	if (before == NULL || !json_object_object_get_ex(before, "results", &old))
		return;
	for (size_t i = 0; i < json_object_array_length(old); i++) {
		json_object *o = json_object_array_get_idx(old, i), *pl, *tm;
		if (!json_object_object_get_ex(o, "team", &tm) ||
		    !json_object_is_type(tm, json_type_string) ||
		    !json_object_object_get_ex(o, "player", &pl))
			continue;
		for (int k = 0; k < n; k++)
			if (strcmp(res[k].member, json_object_get_string(pl)) == 0)
				res[k].team = json_object_get_string(tm);
	}
}

/* An edit keeps each staying member's seat details from its file (the seat's extra: BGG's
 * color, startposition and new; BG Stats' role, team…): the text points into rr, which the
 * caller clears after the store. */
static db_status keep_extras(db_conn *c, const char *play, league_result *res, int n,
                             db_result_rows *rr)
{
	db_status st = db_play_results(c, play, rr);
	for (int i = 0; st == DB_OK && i < rr->n; i++)
		for (int k = 0; k < n; k++)
			if (rr->rows[i].extra && strcmp(res[k].member, rr->rows[i].member) == 0)
				res[k].extra = rr->rows[i].extra;
	return st;
}

static db_status play_edit_tx(db_conn *c, void *arg)
{
	play_arg *x = arg;
	json_object *before = NULL, *after = NULL;
	db_result_rows rr = {0};
	db_status st = access_lock_as(c, x->league, false, &x->a, x->resp);
	if (st == DB_OK)
		st = play_for_change(c, x, false, &before);
	if (st == DB_OK)
		st = check_players(c, x);
	const league_play *p = &x->in->p;
	if (st == DB_OK) {
		keep_breakdowns(before, x->in->res, p->nresults);
		keep_unrated(before, x->in->res, p->nresults);
		keep_teams(before, x->in->res, p->nresults);
		st = keep_extras(c, x->play, x->in->res, p->nresults, &rr);
	}
	if (st == DB_OK)
		st = store_play_update(c, x->league, x->play, p);
	db_rowset_clear(&rr);
	if (st == DB_OK)
		st = ratings_recompute_play(c, x->league, x->play);
	if (st == DB_OK && (after = play_json(c, x->league, x->play, &st)) == NULL && st == DB_OK)
		st = DB_FAIL;
	if (st == DB_OK)
		st = log_play(c, x->league, x->play, x->a.acc.id, "edit", before, after);
	if (st == DB_OK) {
		http_resp_clear(x->resp);
		http_reply_json(x->resp, 200, after);
		after = NULL;
	}
	json_object_put(before);
	json_object_put(after);
	return st;
}

int api_league_play_edit(const http_req *req, http_resp *resp)
{
	return play_write(req, resp, req->params[1], play_edit_tx);
}

static db_status play_delete_tx(db_conn *c, void *arg)
{
	play_arg *x = arg;
	json_object *before = NULL;
	db_status st = access_lock_as(c, x->league, false, &x->a, x->resp);
	if (st == DB_OK)
		st = play_for_change(c, x, true, &before);
	if (st == DB_OK)
		st = db_play_delete(c, x->play, x->league);
	if (st == DB_OK)
		st = ratings_recompute_play(c, x->league, x->play);
	if (st == DB_OK)
		st = log_play(c, x->league, x->play, x->a.acc.id, "delete", before, NULL);
	json_object_put(before);
	if (st == DB_OK) {
		http_resp_clear(x->resp);
		x->resp->status = 204;
	}
	return st;
}

int api_league_play_delete(const http_req *req, http_resp *resp)
{
	play_arg x = {.league = req->params[0], .play = req->params[1], .resp = resp};
	db_conn *c = access_open_write(req, resp, false, false, &x.a);
	if (!c)
		return 0;
	access_run_tx(c, &x.a.acc, play_delete_tx, &x, resp);
	return 0;
}

int api_league_log(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (!access_check(req, resp, c, req->params[0], false, &a))
		return 0;
	db_log_rows log = {0};
	if (db_play_log_list(c, req->params[0], &log) != DB_OK)
		return acct_reply_db(resp);
	json_object *arr = jx_arr();
	for (int i = 0; i < log.n; i++) {
		const db_log_row *y = &log.rows[i];
		json_object *o = jx_obj();
		jx_set(o, "play", jx_str(y->play));
		jx_set(o, "account", jx_str_or_null(y->account));
		jx_set(o, "action", jx_str(y->action));
		jx_set(o, "at", jx_str(y->at));
		jx_set(o, "before", y->before ? jx_parse_stored(y->before) : NULL);
		jx_set(o, "after", y->after ? jx_parse_stored(y->after) : NULL);
		jx_push(arr, o);
	}
	db_rowset_clear(&log);
	json_object *o = jx_obj();
	jx_set(o, "log", arr);
	return http_reply_json(resp, 200, o);
}
