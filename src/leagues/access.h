/* What every league route goes through (access.c): the session and the caller's rights,
 * the transaction runner of league writes and the league's lock, reads on a standby, the
 * filters of a read, pages of the lists that grow, ETags and conditional reads. */
#ifndef LEAGUES_ACCESS_H
#define LEAGUES_ACCESS_H

#include "accounts/accounts.h"
#include "db/db.h"
#include "db/leagues.h"
#include "http/http.h"

#include <stdbool.h>
#include <stdint.h>

/* The caller's rights in a league. */
typedef struct {
	account acc;
	bool owner;
	char member[ID_LEN + 1]; /* the account's member entry, "" if none */
	long long version;       /* the league's version (bumped by every change of the league) */
} league_access;

/* ---- the rights and the lock ---- */

/* Session + league lookup: true when the caller may read the league (owner or linked
 * member), with *a filled; else replies 401/403/404/503 and returns false. With owner, only
 * owners pass (403 "not-owner" for members). */
bool access_check(const http_req *req, http_resp *resp, db_conn *c, const char *league, bool owner,
                  league_access *a);

/* access_check for a session already checked (acc, copied into *a). */
bool access_as(http_resp *resp, db_conn *c, const account *acc, const char *league, bool owner,
               league_access *a);

/* The opening of a handler that changes league params[0]: the CSRF check (json: the body must be
 * JSON) and the caller's access into *a (owner: owners only). The thread's connection, or NULL
 * after a reply. */
db_conn *access_open_write(const http_req *req, http_resp *resp, bool json, bool owner,
                           league_access *a);

/* The same with a JSON body: the CSRF check, the caller's access into *a (owner: owners only) and
 * the body into *root (the caller puts it). The thread's connection, or NULL after a reply. */
db_conn *access_open_body(const http_req *req, http_resp *resp, bool owner, league_access *a,
                          struct json_object **root);

/* Locks the league row for a write (FOR UPDATE): serialises the league's writers. */
db_status access_lock(db_conn *c, const char *league);

/* access_lock for the writer whose rights a holds (checked before the transaction), read
 * again once the lock is held: a member removed, or an owner demoted, while the write waited
 * writes nothing. DB_ABORT after replying 404 (no such league) or 403 as access_check
 * (owner: owners only); *a holds the rights as they stand. */
db_status access_lock_as(db_conn *c, const char *league, bool owner, league_access *a,
                         http_resp *resp);

/* ---- transactions ---- */

/* Runs fn in a transaction (db_tx; c NULL: DB_UNAVAILABLE) and, once it committed, keeps the
 * league rows its recompute used (kept.c). Every league write's transaction runs here. */
db_status access_tx(db_conn *c, db_tx_fn fn, void *arg);

/* Runs fn in a transaction and maps a failure to a reply (fn replies itself on DB_ABORT); once
 * it committed, access_wrote(c, writer). */
void access_run_tx(db_conn *c, const account *writer, db_tx_fn fn, void *arg, http_resp *resp);

/* After a league write by writer's session committed on c (the primary): remembers how far the
 * primary's WAL was, so that the session's next reads on a standby wait for it or go to the
 * primary (db/readpool.h). Nothing without DATABASE_READ_URL. */
void access_wrote(db_conn *c, const account *writer);

/* The reply for a database failure (503 while it is away, else 500). */
int access_reply_status(http_resp *resp, db_status st);

/* ---- reads ---- */

/* A read handler's work on connection c (a standby's or the primary's) for the session's
 * account acc (checked on the primary): replies through resp. Runs twice when the standby's
 * reply is a 5xx: keep it free of side effects but the reply. */
typedef int (*league_read_fn)(const http_req *req, http_resp *resp, db_conn *c, const account *acc);

/* Checks the session on the primary (it refreshes the idle clock: a write), then runs fn on
 * the thread's standby connection when one may answer the session, else on the primary; a 5xx
 * from the standby is forgotten and fn runs again on the primary. The reply's X-Read-From says
 * which answered ("replica" or "primary"). */
int access_read(const http_req *req, http_resp *resp, league_read_fn fn);

/* access_read for a player's read (params[0] a member id): the session is checked against the
 * player's league. */
int access_read_player(const http_req *req, http_resp *resp, league_read_fn fn);

/* The league and name of member as of league version (version < 0: whatever is kept, for its
 * league alone, which never changes): kept by this process (passes_member_get), else read on c
 * and kept. DB_OK with out->found false when there is no such member. */
db_status access_member_at(db_conn *c, const char *member, int64_t version, db_member_league *out);

/* ---- for the league report PDF (leagues/report.c) ---- */
/* ?season=&game= as GET …/standings reads them (empty = none; an unknown season is a 404 in
 * resp and false). */
bool access_read_filters(const http_req *req, http_resp *resp, db_conn *c, const char **season,
                         const char **game);

/* ---- pages and conditional reads ---- */

enum { PAGE_DEFAULT = 50, PAGE_MAX = 500, LEAGUE_ETAG_LEN = 48 };

/* A page of a list: ?limit= (1 to PAGE_MAX, default PAGE_DEFAULT) and ?offset= (0 or more,
 * default 0), and their text for the SQL parameters. */
typedef struct {
	long long limit, offset;
	char limit_text[24], offset_text[24];
} league_page;

/* Reads the page of the request into *pg: true, or false after a 400 whose field names the
 * parameter ("/limit", "/offset"). */
bool access_page_read(const http_req *req, http_resp *resp, league_page *pg);

/* While items remain after this page (offset + limit < total), the Link header's value for
 * the next one (caller frees; NULL when none): </api/v1/{kind}/{id}/{list}?limit=L&offset=O+L
 * [&season=…][&game=…]>; rel="next", id and the filters (NULL: none) percent-encoded. */
char *access_page_link(const char *kind, const char *id, const char *list, const league_page *pg,
                       long long total, const char *season, const char *game);

/* The ETag of a league read (out: LEAGUE_ETAG_LEN bytes): the league's version, which every
 * change of the league bumps (plays, members, owners, seasons), and what was asked (key:
 * the route and its parameters, plus the account when the reply depends on it). */
void access_etag(char out[LEAGUE_ETAG_LEN], long long version, const char *key);

/* Does the request's If-None-Match name etag? Then resp is a 304 (no body) with the ETag and
 * Cache-Control headers, and the handler is done. */
bool access_not_modified(const http_req *req, http_resp *resp, const char *etag);

/* The headers of a league read's 200: ETag and Cache-Control: private, no-cache (the reply
 * depends on the session; a client revalidates before every use). */
void access_tag_reply(http_resp *resp, const char *etag);

#endif
