/* Leagues, their owners, members and seasons, and the access check every league route makes
 * (leagues.h); the small helpers the league files share (internal.h). */
#include "leagues/leagues.h"
#include "base/log.h"
#include "base/names.h"
#include "base/oom.h"
#include "base/sbuf.h"
#include "db/accounts.h"
#include "db/leagues.h"
#include "db/readpool.h"
#include "json/jx.h"
#include "json/spec.h"
#include "leagues/consent.h"
#include "leagues/internal.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- small helpers ---- */

/* A stored number (score) as JSON: an integer when it is one, null when absent. */
json_object *league_num_json(bool has, double d)
{
	if (!has)
		return NULL;
	if (d == floor(d) && fabs(d) < 9e15)
		return jx_int((int64_t)d);
	return jx_double(d);
}

json_object *league_rating_json(rating r)
{
	json_object *o = jx_obj();
	jx_set(o, "mu", jx_double(r.mu));
	jx_set(o, "sigma", jx_double(r.sigma));
	jx_set(o, "ordinal", jx_double(rating_ordinal(r)));
	jx_set(o, "provisional", jx_bool(rating_provisional(r)));
	return o;
}

int league_reply_status(http_resp *resp, db_status st)
{
	(void)st;
	return acct_reply_db(resp);
}

db_status league_tx(db_conn *c, db_tx_fn fn, void *arg)
{
	kept_pending_begin();
	db_status st = c ? db_tx(c, false, fn, arg) : DB_UNAVAILABLE;
	kept_pending_end(st == DB_OK); /* the rows a recompute used, for the version it wrote */
	return st;
}

/* On a libmicrohttpd thread the transaction waits for no lock (db_conn_nowait): a league row
 * or a member's line held by another session defers the whole request to a waiting thread,
 * where it runs again from the start (http_defer); nothing was written. */
void league_run_tx(db_conn *c, const account *writer, db_tx_fn fn, void *arg, http_resp *resp)
{
	bool nowait = c && !http_may_wait();
	if (nowait)
		db_conn_nowait(c, true);
	db_status st = league_tx(c, fn, arg);
	bool refused = nowait && st != DB_OK && db_conn_lock_refused(c);
	if (nowait)
		db_conn_nowait(c, false);
	if (refused)
		http_defer(resp);
	else if (st == DB_OK)
		league_wrote(c, writer);
	else if (st != DB_ABORT)
		league_reply_status(resp, st);
}

/* ---- reads a standby may answer ---- */

void league_wrote(db_conn *c, const account *writer)
{
	db_lsn lsn;
	/* Failing here (the primary went away right after COMMIT) loses only this guarantee for
	 * this write: the write itself stands. */
	if (db_read_enabled() && db_wal_position(c, &lsn) == DB_OK)
		db_read_wrote(writer->session, lsn);
}

/* league_read for league (the session's league check), on c (the thread's primary
 * connection, NULL when the database is away). */
static int league_read_in(const http_req *req, http_resp *resp, db_conn *c, const char *league,
                          league_read_fn fn)
{
	account acc;
	if (!acct_session_league(req, resp, c, &acc, league))
		return 0;
	db_conn *r = db_read_conn(acc.session);
	if (r) {
		fn(req, resp, r, &acc);
		if (resp->status < 500) {
			http_resp_header(resp, "X-Read-From", db_read_source(r));
			return 0;
		}
		http_resp_clear(resp); /* the standby failed: the primary answers */
	}
	fn(req, resp, c, &acc);
	return http_resp_header(resp, "X-Read-From", db_read_source(c));
}

int league_read(const http_req *req, http_resp *resp, league_read_fn fn)
{
	return league_read_in(req, resp, db_thread_conn(), req->params[0], fn);
}

int league_read_player(const http_req *req, http_resp *resp, league_read_fn fn)
{
	db_conn *c = db_thread_conn();
	db_member_league ml;
	/* an unknown player: the session is checked against no league, fn answers 404 */
	const char *league = req->params[0];
	if (c && league_member_at(c, req->params[0], -1, &ml) == DB_OK && ml.found)
		league = ml.league;
	return league_read_in(req, resp, c, league, fn);
}

db_status league_member_at(db_conn *c, const char *member, int64_t version, db_member_league *out)
{
	if (acct_member_get(member, version, out))
		return DB_OK;
	unsigned epoch = db_server_epoch();
	db_status st = db_member_league_get(c, member, out);
	if (st == DB_OK && out->found)
		acct_member_put(member, version, epoch, out);
	return st;
}

/* ---- pages and conditional reads (internal.h) ---- */

/* A query parameter that must be a whole number from lo to hi: true with *v (def when absent),
 * else false after a 400 naming it. */
static bool query_count(const http_req *req, http_resp *resp, const char *name, long long def,
                        long long lo, long long hi, long long *v)
{
	const char *t = http_query(req, name);
	*v = def;
	if (t == NULL)
		return true;
	size_t n = strlen(t);
	bool digits = n > 0 && n <= 12 && strspn(t, "0123456789") == n;
	if (digits)
		*v = strtoll(t, NULL, 10);
	if (digits && *v >= lo && *v <= hi)
		return true;
	char detail[96], field[32];
	snprintf(detail, sizeof detail, "%s must be a whole number from %lld to %lld", name, lo,
	         hi);
	snprintf(field, sizeof field, "/%s", name);
	http_reply_problem(resp, 400, detail, NULL, field);
	return false;
}

bool league_page_read(const http_req *req, http_resp *resp, league_page *pg)
{
	if (!query_count(req, resp, "limit", PAGE_DEFAULT, 1, PAGE_MAX, &pg->limit) ||
	    !query_count(req, resp, "offset", 0, 0, INT32_MAX, &pg->offset))
		return false;
	snprintf(pg->limit_text, sizeof pg->limit_text, "%lld", pg->limit);
	snprintf(pg->offset_text, sizeof pg->offset_text, "%lld", pg->offset);
	return true;
}

/* Appends v percent-encoded (RFC 3986: all but the unreserved characters). */
static void sb_pct(sbuf *s, const char *v)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || *p == '-' || *p == '.' || *p == '_' || *p == '~') {
			sb_add(s, (const char *)p, 1);
		} else {
			char e[3] = {'%', hex[*p >> 4], hex[*p & 15]};
			sb_add(s, e, 3);
		}
	}
}

char *league_page_link(const char *kind, const char *id, const char *list, const league_page *pg,
                       long long total, const char *season, const char *game)
{
	if (pg->offset + pg->limit >= total)
		return NULL;
	sbuf s = {0};
	char q[64];
	sb_str(&s, "</api/v1/");
	sb_str(&s, kind);
	sb_str(&s, "/");
	sb_pct(&s, id);
	sb_str(&s, "/");
	sb_str(&s, list);
	snprintf(q, sizeof q, "?limit=%lld&offset=%lld", pg->limit, pg->offset + pg->limit);
	sb_str(&s, q);
	if (season) {
		sb_str(&s, "&season=");
		sb_pct(&s, season);
	}
	if (game) {
		sb_str(&s, "&game=");
		sb_pct(&s, game);
	}
	sb_str(&s, ">; rel=\"next\"");
	return s.b;
}

void league_etag(char out[LEAGUE_ETAG_LEN], long long version, const char *key)
{
	unsigned long long h = 0xcbf29ce484222325ULL; /* FNV-1a: the same on every server */
	for (const char *p = key; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 0x100000001b3ULL;
	}
	snprintf(out, LEAGUE_ETAG_LEN, "\"%llx-%016llx\"", version, h);
}

/* The ETag of the gzip-compressed form of the reply tagged etag: "…-gz". */
static void etag_gz(char out[LEAGUE_ETAG_LEN + 3], const char *etag)
{
	size_t n = strlen(etag);
	snprintf(out, LEAGUE_ETAG_LEN + 3, "%.*s-gz\"", (int)(n > 0 ? n - 1 : 0), etag);
}

void league_tag_reply(http_resp *resp, const char *etag)
{
	char gz[LEAGUE_ETAG_LEN + 3];
	etag_gz(gz, etag);
	http_resp_header(resp, "ETag", http_resp_has_header(resp, "Content-Encoding") ? gz : etag);
	http_resp_header(resp, "Cache-Control", "private, no-cache");
	http_resp_header(resp, "Vary", "Accept-Encoding");
}

bool league_not_modified(const http_req *req, http_resp *resp, const char *etag)
{
	const char *inm = http_header(req, "If-None-Match");
	char gz[LEAGUE_ETAG_LEN + 3];
	etag_gz(gz, etag);
	bool plain = http_etag_matches(inm, etag);
	if (!plain && !http_etag_matches(inm, gz))
		return false;
	http_resp_clear(resp);
	resp->status = 304;
	http_resp_header(resp, "ETag", plain ? etag : gz);
	http_resp_header(resp, "Cache-Control", "private, no-cache");
	http_resp_header(resp, "Vary", "Accept-Encoding");
	return true;
}

/* ---- access ---- */

bool league_access_check(const http_req *req, http_resp *resp, db_conn *c, const char *league,
                         bool owner, league_access *a)
{
	account acc;
	if (!acct_session(req, resp, c, &acc))
		return false;
	return league_access_as(resp, c, &acc, league, owner, a);
}

/* Fills a's rights from row; false when they fall short (owner: owners only; else owners and
 * members), after replying 403 unless resp is NULL. */
static bool access_take(http_resp *resp, const db_league_access *row, bool owner, league_access *a)
{
	a->owner = row->owner;
	snprintf(a->member, sizeof a->member, "%s", row->member);
	a->version = row->version;
	if (a->owner || (!owner && a->member[0] != '\0'))
		return true;
	if (resp)
		http_reply_problem(resp, 403,
		                   owner ? "only the league's owners may do this"
		                         : "you are not a member of this league",
		                   owner ? "not-owner" : "not-member", NULL);
	return false;
}

bool league_access_as(http_resp *resp, db_conn *c, const account *acc, const char *league,
                      bool owner, league_access *a)
{
	memset(a, 0, sizeof *a);
	a->acc = *acc;
	db_league_access row;
	if (acc->pre_conn && acc->pre_conn == c && strcmp(acc->pre_league, league) == 0) {
		row = acc->pre; /* read with the session, on this connection */
	} else if (db_league_access_get(c, league, a->acc.id, &row) != DB_OK) {
		acct_reply_db(resp);
		return false;
	}
	if (!row.found) {
		http_reply_problem(resp, 404, "no such league", NULL, NULL);
		return false;
	}
	return access_take(resp, &row, owner, a);
}

db_conn *league_open_write(const http_req *req, http_resp *resp, bool json, bool owner,
                           league_access *a)
{
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, json) ||
	    !league_access_check(req, resp, c, req->params[0], owner, a))
		return NULL;
	return c;
}

db_conn *league_open_body(const http_req *req, http_resp *resp, bool owner, league_access *a,
                          json_object **root)
{
	db_conn *c = league_open_write(req, resp, true, owner, a);
	if (!c || http_body_json(req, resp, root) != 0)
		return NULL;
	return c;
}

db_status league_lock(db_conn *c, const char *league)
{
	bool found;
	db_status st = db_league_lock(c, league, &found);
	return st == DB_OK && !found ? DB_ABORT : st;
}

db_status league_lock_as(db_conn *c, const char *league, bool owner, league_access *a,
                         http_resp *resp)
{
	db_league_access row;
	db_status st = league_lock(c, league);
	/* a new statement after the lock: it sees what committed while the lock was awaited */
	if (st == DB_OK)
		st = db_league_access_get(c, league, a->acc.id, &row);
	if (st != DB_OK && st != DB_ABORT)
		return st;
	if (st == DB_OK && row.found && access_take(NULL, &row, owner, a))
		return DB_OK;
	http_resp_clear(resp);
	if (st == DB_ABORT || !row.found)
		http_reply_problem(resp, 404, "no such league", NULL, NULL);
	else
		access_take(resp, &row, owner, a);
	return DB_ABORT;
}

db_status league_member_by_name(db_conn *c, const char *league, const char *name,
                                char id[ID_LEN + 1], bool *created)
{
	char nid[ID_LEN + 1];
	id_new(nid);
	bool inserted, found;
	*created = false;
	db_status st = db_member_insert_guest(c, nid, league, name, &inserted);
	if (st != DB_OK)
		return st;
	if (inserted) {
		*created = true;
		snprintf(id, ID_LEN + 1, "%s", nid);
		return DB_OK;
	}
	st = db_member_by_name(c, league, name, &found, id);
	if (st != DB_OK)
		return st;
	return found ? DB_OK : DB_FAIL;
}

/* ---- JSON of stored things ---- */

static json_object *league_json(db_conn *c, const char *league, const league_access *acc,
                                db_status *st)
{
	db_league_row lr;
	if ((*st = db_league_get(c, league, &lr)) != DB_OK || !lr.found)
		return NULL;
	db_owner_rows owners = {0};
	db_member_rows members = {0};
	db_game_name_rows games = {0};
	db_season_rows seasons = {0};
	json_object *o = NULL;
	if ((*st = db_league_owners(c, league, &owners)) != DB_OK ||
	    (*st = db_league_members(c, league, &members)) != DB_OK ||
	    (*st = db_league_games(c, league, &games)) != DB_OK ||
	    (*st = db_league_seasons(c, league, &seasons)) != DB_OK)
		goto out;
	o = jx_obj();
	jx_set(o, "id", jx_str(league));
	jx_set(o, "name", jx_str(lr.name));
	jx_set(o, "created_at", jx_str(lr.created_at));
	jx_set(o, "plays", jx_int(lr.plays));
	json_object *you = jx_obj();
	jx_set(you, "account", jx_str(acc->acc.id));
	jx_set(you, "owner", jx_bool(acc->owner));
	jx_set(you, "member", jx_str_or_null(acc->member[0] ? acc->member : NULL));
	jx_set(o, "you", you);
	json_object *ow = jx_arr(), *me = jx_arr(), *ga = jx_arr(), *se = jx_arr();
	for (int i = 0; i < owners.n; i++) {
		json_object *x = jx_obj();
		jx_set(x, "account", jx_str(owners.rows[i].account));
		jx_set(x, "display_name", jx_str(owners.rows[i].display_name));
		jx_push(ow, x);
	}
	for (int i = 0; i < members.n; i++) {
		const db_member_row *m = &members.rows[i];
		json_object *x = jx_obj();
		jx_set(x, "id", jx_str(m->id));
		jx_set(x, "name", jx_str(m->name));
		jx_set(x, "account", jx_str_or_null(m->account));
		jx_set(x, "guest", jx_bool(m->account == NULL));
		jx_set(x, "plays", jx_int(m->plays));
		jx_push(me, x);
	}
	for (int i = 0; i < games.n; i++)
		jx_push(ga, jx_str(games.rows[i].game));
	jx_set(o, "games", ga);
	for (int i = 0; i < seasons.n; i++) {
		const db_season_row *z = &seasons.rows[i];
		json_object *x = jx_obj();
		jx_set(x, "id", jx_str(z->id));
		jx_set(x, "name", jx_str(z->name));
		jx_set(x, "starts", jx_str(z->starts));
		jx_set(x, "ends", jx_str(z->ends));
		jx_push(se, x);
	}
	jx_set(o, "owners", ow);
	jx_set(o, "members", me);
	jx_set(o, "seasons", se);
out:
	db_rowset_clear(&owners);
	db_rowset_clear(&members);
	db_rowset_clear(&games);
	db_rowset_clear(&seasons);
	return o;
}

/* ---- leagues ---- */

typedef struct {
	const char *name;
	account acc;
	char id[ID_LEN + 1];
	http_resp *resp;
} create_arg;

static db_status league_create_tx(db_conn *c, void *arg)
{
	create_arg *a = arg;
	char member[ID_LEN + 1];
	id_new(a->id);
	id_new(member);
	bool inserted;
	db_status st;
	if ((st = db_league_insert(c, a->id, a->name)) != DB_OK ||
	    (st = db_league_owner_insert(c, a->id, a->acc.id)) != DB_OK)
		return st;
	/* the owner plays too: a member entry under their display name */
	st = db_member_insert(c, member, a->id, a->acc.display_name, a->acc.id, &inserted);
	if (st != DB_OK)
		return st;
	league_access acc = {.acc = a->acc, .owner = true};
	snprintf(acc.member, sizeof acc.member, "%s", member);
	json_object *j = league_json(c, a->id, &acc, &st);
	if (j == NULL)
		return st == DB_OK ? DB_FAIL : st;
	http_resp_clear(a->resp);
	http_reply_json(a->resp, 201, j);
	return DB_OK;
}

int api_league_create(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	create_arg a = {.resp = resp};
	js_error err;
	const js_field f[] = {
	    {"name", JS_STRING, JS_F_REQUIRED, 1, JS_MAX_NAME, NULL, &a.name, NULL}};
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, true) || !acct_session(req, resp, c, &a.acc))
		return 0;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (js_fields(root, "", f, 1, &err) != 0)
		http_reply_invalid(resp, err.field, err.detail);
	else
		league_run_tx(c, &a.acc, league_create_tx, &a, resp);
	json_object_put(root);
	return 0;
}

int api_league_list(const http_req *req, http_resp *resp)
{
	account acc;
	db_conn *c = db_thread_conn();
	if (!acct_session(req, resp, c, &acc))
		return 0;
	db_league_items items = {0};
	if (db_league_list(c, acc.id, &items) != DB_OK)
		return acct_reply_db(resp);
	json_object *a = jx_arr();
	for (int i = 0; i < items.n; i++) {
		const db_league_item *y = &items.rows[i];
		json_object *x = jx_obj();
		jx_set(x, "id", jx_str(y->id));
		jx_set(x, "name", jx_str(y->name));
		jx_set(x, "owner", jx_bool(y->owner));
		jx_set(x, "plays", jx_int(y->plays));
		jx_push(a, x);
	}
	db_rowset_clear(&items);
	json_object *o = jx_obj();
	jx_set(o, "leagues", a);
	return http_reply_json(resp, 200, o);
}

int api_league_get(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (!league_access_check(req, resp, c, req->params[0], false, &a))
		return 0;
	/* the reply says who asks ("you"): the account is part of the tag */
	char key[128], etag[LEAGUE_ETAG_LEN];
	snprintf(key, sizeof key, "league\n%s\n%s", req->params[0], a.acc.id);
	league_etag(etag, a.version, key);
	if (league_not_modified(req, resp, etag))
		return 0;
	db_status st;
	json_object *o = league_json(c, req->params[0], &a, &st);
	if (o == NULL)
		return acct_reply_db(resp);
	http_reply_json(resp, 200, o);
	league_tag_reply(resp, etag);
	return 0;
}

/* Account by id or e-mail: true with id filled; else false after a reply (503, or 422 for
 * a key no account has). */
bool league_find_account(db_conn *c, const char *key, char id[ID_LEN + 1], http_resp *resp)
{
	bool found;
	if (db_account_find(c, key, &found, id) != DB_OK) {
		acct_reply_db(resp);
		return false;
	}
	if (!found)
		http_reply_problem(resp, 422, "no account has this id or e-mail address",
		                   "unknown-account", "/account");
	return found;
}

enum { NAME_TEXT = 4 * JS_MAX_NAME + 1 }; /* a name of up to 64 characters, in bytes */

/* A member's name in the form it is stored (name_display, base/names.h: white space of every
 * kind trimmed, inner runs one space, NFC) into out: true, or false after a 400 when nothing
 * visible is left or NFC made it longer than 64 characters. Names compare by their key
 * (case-folded, invisible characters left out: league_members_name_key,
 * migrations/0020_member_name_keys.sql). */
static bool name_trim(const char *name, char out[NAME_TEXT], http_resp *resp)
{
	if (name_blank(name)) {
		http_reply_problem(resp, 400, "a name needs a character other than a space", NULL,
		                   "/name");
		return false;
	}
	char *shown = name_display(name);
	size_t n = strlen(shown);
	bool fits = name_chars(shown) <= JS_MAX_NAME && n < NAME_TEXT;
	if (fits)
		memcpy(out, shown, n + 1);
	else
		http_reply_problem(resp, 400, "a name has at most 64 characters", NULL, "/name");
	free(shown);
	return fits;
}

typedef struct {
	const char *league, *id, *name; /* the new guest's id and name (trimmed) */
	league_access *a;               /* the owner's rights, read again under the lock */
	http_resp *resp;
} guest_arg;

static db_status guest_add_tx(db_conn *c, void *arg)
{
	guest_arg *x = arg;
	bool inserted;
	db_status st = league_lock_as(c, x->league, true, x->a, x->resp);
	if (st == DB_OK)
		st = db_member_insert(c, x->id, x->league, x->name, NULL, &inserted);
	if (st != DB_OK)
		return st;
	http_resp_clear(x->resp);
	if (!inserted) {
		http_reply_problem(x->resp, 409,
		                   "the league already has a member of this name (in any case and "
		                   "however spaced)",
		                   "member-exists", "/name");
		return DB_ABORT;
	}
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(x->id));
	jx_set(o, "name", jx_str(x->name));
	jx_set(o, "account", jx_null());
	jx_set(o, "guest", jx_bool(true));
	http_reply_json(x->resp, 201, o);
	return DB_OK;
}

int api_league_member_add(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *name = NULL, *account_key = NULL;
	js_error err;
	const js_field f[] = {
	    {"name", JS_STRING, JS_F_REQUIRED, 1, JS_MAX_NAME, NULL, &name, NULL},
	    {"account", JS_STRING, JS_F_NULLABLE, 1, 254, NULL, &account_key, NULL},
	};
	league_access a;
	db_conn *c = league_open_body(req, resp, true, &a, &root);
	if (!c)
		return 0;
	char acc[ID_LEN + 1] = "", id[ID_LEN + 1];
	db_status st = DB_OK;
	if (js_fields(root, "", f, 2, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
		goto out;
	}
	char trimmed[NAME_TEXT];
	if (!name_trim(name, trimmed, resp) ||
	    (account_key && !league_find_account(c, account_key, acc, resp)))
		goto out;
	id_new(id);
	if (acc[0]) { /* an account joins when it accepts (consent.h) */
		st = consent_invite_member(c, resp, req->params[0], a.acc.id, acc, trimmed, NULL,
		                           id);
		if (st != DB_OK && st != DB_ABORT)
			acct_reply_db(resp);
		goto out;
	}
	guest_arg x = {.league = req->params[0], .id = id, .name = trimmed, .a = &a, .resp = resp};
	league_run_tx(c, &a.acc, guest_add_tx, &x, resp);
out:
	json_object_put(root);
	return 0;
}

/* ---- renaming, linking and merging members (owners) ---- */

typedef struct {
	const char *league, *member;
	const char *name; /* the new name (trimmed), or NULL */
	const char *acc;  /* the account to link the guest to, or NULL */
	const char *into; /* merge: the member who keeps the results */
	const char *by;   /* the owner's account */
	league_access *a; /* the caller's rights (an owner's), read again under the lock */
	char invitation[ID_LEN + 1]; /* the account invited to take the guest over, or "" */
	http_resp *resp;
} member_arg;

/* The member `id` of the league into *m (one row), or DB_ABORT after a reply: 404, or 422
 * naming field when the id comes from the body. */
static db_status member_load(db_conn *c, const member_arg *x, const char *id, const char *field,
                             db_member_rows *m)
{
	db_status st = db_member_get(c, x->league, id, m);
	if (st != DB_OK || m->n == 1)
		return st;
	http_resp_clear(x->resp);
	if (field)
		http_reply_problem(x->resp, 422, "no member of this league has this id",
		                   "unknown-player", field);
	else
		http_reply_problem(x->resp, 404, "no such member in this league", NULL, NULL);
	return DB_ABORT;
}

/* Replies 200 with the member as the league lists it. */
static db_status member_reply(db_conn *c, const member_arg *x, const char *id)
{
	db_member_rows m = {0};
	db_status st = member_load(c, x, id, NULL, &m);
	if (st != DB_OK)
		return st;
	const db_member_row *y = &m.rows[0];
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(y->id));
	jx_set(o, "name", jx_str(y->name));
	jx_set(o, "account", jx_str_or_null(y->account));
	jx_set(o, "guest", jx_bool(y->account == NULL));
	jx_set(o, "plays", jx_int(y->plays));
	if (x->invitation[0])
		jx_set(o, "invitation", jx_str(x->invitation));
	http_resp_clear(x->resp);
	http_reply_json(x->resp, 200, o);
	db_rowset_clear(&m);
	return DB_OK;
}

static db_status member_update_tx(db_conn *c, void *arg)
{
	member_arg *x = arg;
	db_member_rows m = {0};
	db_status st = league_lock_as(c, x->league, true, x->a, x->resp);
	if (st == DB_OK)
		st = member_load(c, x, x->member, NULL, &m);
	bool renamed = true;
	if (st == DB_OK && x->name)
		st = db_member_rename(c, x->league, x->member, x->name, &renamed);
	if (st == DB_OK && !renamed) {
		http_resp_clear(x->resp);
		http_reply_problem(x->resp, 409,
		                   "another member of the league has this name (in any case and "
		                   "however spaced)",
		                   "member-exists", "/name");
		st = DB_ABORT;
	}
	if (st == DB_OK && x->acc) /* the account takes the guest over when it accepts */
		st = consent_invite_member(c, x->resp, x->league, x->by, x->acc, NULL, x->member,
		                           x->invitation);
	db_rowset_clear(&m);
	if (st == DB_OK)
		st = db_member_unclash(c, x->league);
	if (st == DB_OK)
		st = db_league_bump(c, x->league, NULL);
	if (st == DB_OK)
		st = member_reply(c, x, x->member);
	return st;
}

int api_league_member_update(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *name = NULL, *account_key = NULL;
	js_error err;
	const js_field f[] = {
	    {"name", JS_STRING, 0, 1, JS_MAX_NAME, NULL, &name, NULL},
	    {"account", JS_STRING, 0, 1, 254, NULL, &account_key, NULL},
	};
	league_access a;
	db_conn *c = league_open_body(req, resp, true, &a, &root);
	if (!c)
		return 0;
	char trimmed[NAME_TEXT], acc[ID_LEN + 1];
	member_arg x = {.league = req->params[0],
	                .member = req->params[1],
	                .by = a.acc.id,
	                .a = &a,
	                .resp = resp};
	if (js_fields(root, "", f, 2, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
	} else if (!name && !account_key) {
		http_reply_problem(resp, 400, "give a new name, an account, or both", NULL, NULL);
	} else if ((!name || name_trim(name, trimmed, resp)) &&
	           (!account_key || league_find_account(c, account_key, acc, resp))) {
		x.name = name ? trimmed : NULL;
		x.acc = account_key ? acc : NULL;
		league_run_tx(c, &a.acc, member_update_tx, &x, resp);
	}
	json_object_put(root);
	return 0;
}

/* Moves the results of x->member to x->into and removes x->member; its account goes with its
 * results. Refused (409) when both played one play, or both have an account. */
static db_status member_merge_tx(db_conn *c, void *arg)
{
	member_arg *x = arg;
	db_member_rows from = {0}, into = {0};
	db_status st = league_lock_as(c, x->league, true, x->a, x->resp);
	if (st == DB_OK)
		st = member_load(c, x, x->member, NULL, &from);
	if (st == DB_OK)
		st = member_load(c, x, x->into, "/into", &into);
	bool clash = false;
	if (st == DB_OK)
		st = db_member_conflicts(c, x->member, x->into, &clash);
	const char *rule = NULL, *why = NULL;
	if (st == DB_OK && clash) {
		rule = "same-play";
		why = "these two members played in the same play: they cannot be one person";
	} else if (st == DB_OK && from.rows[0].account && into.rows[0].account) {
		rule = "two-accounts";
		why = "both members have an account: one person has one";
	}
	if (rule) {
		http_resp_clear(x->resp);
		http_reply_problem(x->resp, 409, why, rule, "/into");
		st = DB_ABORT;
	}
	char acc[ID_LEN + 1] = "";
	if (st == DB_OK && from.rows[0].account)
		snprintf(acc, sizeof acc, "%s", from.rows[0].account);
	db_rowset_clear(&from);
	db_rowset_clear(&into);
	char merge[ID_LEN + 1] = "";
	if (st == DB_OK) /* kept, so that it can be undone (consent.h) */
		st = league_merge_members(c, x->league, x->member, acc, x->into, x->by, merge);
	if (st == DB_OK) {
		json_object *o = jx_obj();
		jx_set(o, "id", jx_str(x->into));
		jx_set(o, "merged", jx_str(x->member));
		jx_set(o, "merge", jx_str(merge));
		http_resp_clear(x->resp);
		http_reply_json(x->resp, 200, o);
	}
	return st;
}

int api_league_member_merge(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *into = NULL;
	js_error err;
	const js_field f[] = {{"into", JS_STRING, JS_F_REQUIRED, 1, ID_LEN, NULL, &into, NULL}};
	league_access a;
	db_conn *c = league_open_body(req, resp, true, &a, &root);
	if (!c)
		return 0;
	member_arg x = {.league = req->params[0],
	                .member = req->params[1],
	                .by = a.acc.id,
	                .a = &a,
	                .resp = resp};
	if (js_fields(root, "", f, 1, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
	} else if (strcmp(into, x.member) == 0) {
		http_reply_problem(resp, 400, "a member cannot be merged into itself", NULL,
		                   "/into");
	} else {
		x.into = into;
		league_run_tx(c, &a.acc, member_merge_tx, &x, resp);
	}
	json_object_put(root);
	return 0;
}
