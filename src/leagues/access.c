/* What every league route goes through (access.h): the caller's rights and the league's lock,
 * the transaction runner of league writes, reads on a standby, the filters of a read, pages of
 * the lists that grow, ETags and conditional reads. */
#include "db/readpool.h"
#include "accounts/passes.h"
#include "leagues/access.h"
#include "leagues/kept.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the filters of a read ---- */

/* The season and game filters of a standings-like request: season must be one of the
 * league's (404 otherwise), game any name. */
bool access_read_filters(const http_req *req, http_resp *resp, db_conn *c, const char **season,
                         const char **game)
{
	*season = http_query(req, "season");
	*game = http_query(req, "game");
	if (*season && **season == '\0')
		*season = NULL;
	if (*game && **game == '\0')
		*game = NULL;
	if (*season == NULL)
		return true;
	bool found;
	if (db_season_exists(c, req->params[0], *season, &found) != DB_OK) {
		acct_reply_db(resp);
		return false;
	}
	if (!found)
		http_reply_problem(resp, 404, "no such season in this league", NULL, NULL);
	return found;
}

int access_reply_status(http_resp *resp, db_status st)
{
	return acct_reply_db_status(resp, st);
}

db_status access_tx(db_conn *c, db_tx_fn fn, void *arg)
{
	kept_pending_begin();
	db_status st = c ? db_tx(c, false, fn, arg) : DB_UNAVAILABLE;
	kept_pending_end(st == DB_OK); /* the rows a recompute used, for the version it wrote */
	return st;
}

/* On a libmicrohttpd thread the transaction waits for no lock (db_conn_nowait): a league row
 * or a member's line held by another session defers the whole request to a waiting thread,
 * where it runs again from the start (http_defer); nothing was written. */
void access_run_tx(db_conn *c, const account *writer, db_tx_fn fn, void *arg, http_resp *resp)
{
	bool nowait = c && !http_may_wait();
	if (nowait)
		db_conn_nowait(c, true);
	db_status st = access_tx(c, fn, arg);
	bool refused = nowait && st != DB_OK && db_conn_lock_refused(c);
	if (nowait)
		db_conn_nowait(c, false);
	if (refused)
		http_defer(resp);
	else if (st == DB_OK)
		access_wrote(c, writer);
	else if (st != DB_ABORT)
		access_reply_status(resp, st);
}

/* ---- reads a standby may answer ---- */

void access_wrote(db_conn *c, const account *writer)
{
	db_lsn lsn;
	/* Failing here (the primary went away right after COMMIT) loses only this guarantee for
	 * this write: the write itself stands. */
	if (db_read_enabled() && db_wal_position(c, &lsn) == DB_OK)
		db_read_wrote(writer->session, lsn);
}

/* access_read for league (the session's league check), on c (the thread's primary
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

int access_read(const http_req *req, http_resp *resp, league_read_fn fn)
{
	return league_read_in(req, resp, db_thread_conn(), req->params[0], fn);
}

int access_read_player(const http_req *req, http_resp *resp, league_read_fn fn)
{
	db_conn *c = db_thread_conn();
	db_member_league ml;
	/* an unknown player: the session is checked against no league, fn answers 404 */
	const char *league = req->params[0];
	if (c && access_member_at(c, req->params[0], -1, &ml) == DB_OK && ml.found)
		league = ml.league;
	return league_read_in(req, resp, c, league, fn);
}

db_status access_member_at(db_conn *c, const char *member, int64_t version, db_member_league *out)
{
	if (passes_member_get(member, version, out))
		return DB_OK;
	unsigned epoch = db_server_epoch();
	db_status st = db_member_league_get(c, member, out);
	if (st == DB_OK && out->found)
		passes_member_put(member, version, epoch, out);
	return st;
}

/* ---- pages and conditional reads ---- */

bool access_page_read(const http_req *req, http_resp *resp, league_page *pg)
{
	int limit, offset;
	if (!http_query_number(req, resp, "limit", PAGE_DEFAULT, 1, PAGE_MAX, NULL, &limit) ||
	    !http_query_number(req, resp, "offset", 0, 0, INT32_MAX, NULL, &offset))
		return false;
	pg->limit = limit;
	pg->offset = offset;
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

char *access_page_link(const char *kind, const char *id, const char *list, const league_page *pg,
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

void access_etag(char out[LEAGUE_ETAG_LEN], long long version, const char *key)
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

void access_tag_reply(http_resp *resp, const char *etag)
{
	char gz[LEAGUE_ETAG_LEN + 3];
	etag_gz(gz, etag);
	http_resp_header(resp, "ETag", http_resp_has_header(resp, "Content-Encoding") ? gz : etag);
	http_resp_header(resp, "Cache-Control", "private, no-cache");
	http_resp_header(resp, "Vary", "Accept-Encoding");
}

bool access_not_modified(const http_req *req, http_resp *resp, const char *etag)
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

/* ---- the rights and the lock ---- */

bool access_check(const http_req *req, http_resp *resp, db_conn *c, const char *league, bool owner,
                  league_access *a)
{
	account acc;
	if (!acct_session(req, resp, c, &acc))
		return false;
	return access_as(resp, c, &acc, league, owner, a);
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

bool access_as(http_resp *resp, db_conn *c, const account *acc, const char *league, bool owner,
               league_access *a)
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

db_conn *access_open_write(const http_req *req, http_resp *resp, bool json, bool owner,
                           league_access *a)
{
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, json) ||
	    !access_check(req, resp, c, req->params[0], owner, a))
		return NULL;
	return c;
}

db_conn *access_open_body(const http_req *req, http_resp *resp, bool owner, league_access *a,
                          json_object **root)
{
	db_conn *c = access_open_write(req, resp, true, owner, a);
	if (!c || http_body_json(req, resp, root) != 0)
		return NULL;
	return c;
}

db_status access_lock(db_conn *c, const char *league)
{
	bool found;
	db_status st = db_league_lock(c, league, &found);
	return st == DB_OK && !found ? DB_ABORT : st;
}

db_status access_lock_as(db_conn *c, const char *league, bool owner, league_access *a,
                         http_resp *resp)
{
	db_league_access row;
	db_status st = access_lock(c, league);
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
