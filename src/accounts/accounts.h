/* Accounts and cookie sessions (api.md "Leagues and history"), and the helpers every
 * league handler uses: the session's account, the CSRF guard, database replies.
 *
 * Passwords: Argon2id through libsodium's crypto_pwhash_str (t = 2, m = 19 MiB, p = 1: OWASP's
 * minimum), never logged nor echoed. Sessions: a 256-bit random token in the cookie
 * `dh_session` (HttpOnly, SameSite=Lax, Path=/, Secure over TLS), stored as its BLAKE2b-256
 * hash; expires after SESSION_IDLE_S without use and SESSION_MAX_S after log-in; a log-in
 * always issues a new token (and ends the session the request carried). */
#ifndef ACCOUNTS_ACCOUNTS_H
#define ACCOUNTS_ACCOUNTS_H

#include "accounts/account.h"
#include "db/db.h"
#include "engine/tokens.h"
#include "http/http.h"

#include <stdbool.h>

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

/* 503 + Retry-After when the database is away (or this thread's connection was lost, or its
 * last statement timed out), else 500. Returns 0. */
int acct_reply_db(http_resp *resp);
/* The same for a request that ended with st: DB_UNAVAILABLE and DB_BUSY are 503 whatever the
 * availability flag says by the time of the reply (the health thread may have raised it again
 * meanwhile); other failures as acct_reply_db. Returns 0. */
int acct_reply_db_status(http_resp *resp, db_status st);

/* ---- handlers ---- */
int api_account_create(const http_req *req, http_resp *resp); /* POST /accounts */
int api_account_me(const http_req *req, http_resp *resp);     /* GET /accounts/me */
int api_session_create(const http_req *req, http_resp *resp); /* POST /sessions */
int api_session_delete(const http_req *req, http_resp *resp); /* DELETE /sessions/current */

#endif
