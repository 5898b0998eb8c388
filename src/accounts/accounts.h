/* Accounts and cookie sessions (api.md "Leagues and history"), and the helpers every
 * league handler uses: the session's account, the CSRF guard, database replies.
 *
 * Passwords: Argon2id through libsodium's crypto_pwhash_str (t = 2, m = 19 MiB, p = 1: OWASP's
 * minimum), never logged nor echoed. Sessions: a 256-bit random token in the cookie
 * `dh_session` (HttpOnly, SameSite=Lax, Path=/, Secure over TLS), stored as its BLAKE2b-256
 * hash; expires after SESSION_IDLE_S without use and SESSION_MAX_S after log-in; a log-in
 * always issues a new token (and ends the session the request carried). */
#ifndef API_ACCOUNTS_H
#define API_ACCOUNTS_H

#include "engine/tokens.h"
#include "db/db.h"
#include "db/leagues.h"
#include "http/http.h"

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

enum { ACCT_NAME_MAX = 64 * 4 + 1, ACCT_EMAIL_MAX = 254 + 1 };

typedef struct {
	char id[ID_LEN + 1];
	char email[ACCT_EMAIL_MAX];
	char display_name[ACCT_NAME_MAX];
	char session[TOKEN_HASH_HEX + 1]; /* the session's key (its token's hash), "" for none */
	/* The account's access to one league, read with the session (acct_session_league) on
	 * the connection conn (NULL: none read): league_access_as takes it there. */
	const db_conn *pre_conn;
	char pre_league[ID_LEN + 1];
	db_league_access pre;
} account;

int accounts_init(void);
void accounts_shutdown(void);

/* CSRF guard of a state-changing request: the Origin header must be present and name this
 * host (scheme://Host), else 403 rule "origin-mismatch"; with json, the Content-Type must be
 * application/json (415) — a cross-site form can send neither. Returns true when it replied. */
bool acct_csrf_reply(const http_req *req, http_resp *resp, bool json);

/* The key of the request's session cookie (its token's hash, as account.session) into out, not
 * checked against the database: false when the request has no such cookie. */
bool acct_session_key(const http_req *req, char out[TOKEN_HASH_HEX + 1]);
/* The request's session: true with *acc filled, or false after replying 401 ("no-session" /
 * "session-expired") or 503. Refreshes the idle clock. */
bool acct_session(const http_req *req, http_resp *resp, db_conn *c, account *acc);
/* acct_session, reading in the same round trip the account's access to league (the league
 * reads: their access check then costs nothing on c). */
bool acct_session_league(const http_req *req, http_resp *resp, db_conn *c, account *acc,
                         const char *league);

/* ---- passes.c: league reads' checks kept for a moment ---- */

/* Drops every pass: called for each write request (http_config.on_write). */
void acct_forget_passes(void);
/* When a check began: a pass made from it is void if a write request came since. */
typedef struct {
	unsigned gen, epoch;
	struct timespec at;
} acct_pass_mark;
void acct_pass_begin(acct_pass_mark *m);
/* The pass of session (a token hash) for league when one is kept and still good: *acc filled
 * (pre_conn NULL). */
bool acct_pass_get(const char *session, const char *league, account *acc);
/* Keeps the successful check of acc (session, account, access to league) begun at m. */
void acct_pass_put(const acct_pass_mark *m, const char *league, const account *acc);
/* The league and name of member as read at league version (version < 0: any; a member's league
 * never changes, its name and existence only with a new version): true with *out when kept. */
bool acct_member_get(const char *member, int64_t version, db_member_league *out);
/* Keeps ml (found) of member, read at version on the server of epoch (db_server_epoch before
 * the read). */
void acct_member_put(const char *member, int64_t version, unsigned epoch,
                     const db_member_league *ml);

/* 503 + Retry-After when the database is away, else 500. Returns 0. */
int acct_reply_db(http_resp *resp);

/* ---- handlers ---- */
int api_account_create(const http_req *req, http_resp *resp); /* POST /accounts */
int api_account_me(const http_req *req, http_resp *resp);     /* GET /accounts/me */
int api_session_create(const http_req *req, http_resp *resp); /* POST /sessions */
int api_session_delete(const http_req *req, http_resp *resp); /* DELETE /sessions/current */

#endif
