/* Accounts and cookie sessions (accounts.h). */
#include "accounts/accounts.h"
#include "accounts/passes.h"

#include "http/ratelimit.h"
#include "base/log.h"
#include "db/accounts.h"
#include "json/jx.h"
#include "json/spec.h"

#include <ctype.h>
#include <microhttpd.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SESSION_COOKIE "dh_session"

/* Argon2id at OWASP's minimum: 2 passes over 19 MiB, one lane (libsodium's is always 1). */
enum { PW_OPS = 2, PW_MEM = 19 * 1024 * 1024, PW_MIN = 8, PW_MAX = 1024 };

/* Limits (README "Accounts: what the limits promise"), each per client address group (an IPv6
 * address counts as its /64, http/ratelimit.h):
 * - log-in attempts, any e-mail: 10, then one every 6 s (a token bucket in memory);
 * - failed log-ins of one e-mail from one address group (OWASP's authentication cheat sheet:
 *   slow the guesser, never lock the owner out): the 5th failure makes the pair wait 1 s,
 *   each further one twice as long, up to 15 min; a success or a day without failure forgets
 *   them. Kept in the database (login_failures), where no other traffic can push them out;
 *   another address, the owner's, is not slowed. A wait is a 429 with its Retry-After, never
 *   a sleep;
 * - sign-ups (each hashes a password, and a taken e-mail is refused): 20, then one every 3 s. */
enum { LOGIN_IP_BURST = 10, LOGIN_IP_EVERY_S = 6 };
static const db_login_policy g_login_policy = {
    .free = 5, .base_s = 1, .max_s = 15 * 60, .forget_s = 86400};
enum { SIGNUP_BURST = 20, SIGNUP_EVERY_S = 3 };

static ratelimit *g_login_ip, *g_signup;
static char g_dummy_hash[crypto_pwhash_STRBYTES]; /* verified for unknown e-mails */
static double g_idle_s = 7 * 86400.0, g_max_s = 30 * 86400.0;

static double env_seconds(const char *name, double dflt)
{
	const char *v = getenv(name);
	char *end;
	if (v == NULL || *v == '\0')
		return dflt;
	double d = strtod(v, &end);
	if (*end != '\0' || d < 1 || d > 10 * 365 * 86400.0) {
		log_warn("%s=%s is not a number of seconds (1 s to 10 years); using %.0f", name, v,
		         dflt);
		return dflt;
	}
	return d;
}

int accounts_init(void)
{
	g_idle_s = env_seconds("SESSION_IDLE_S", g_idle_s);
	g_max_s = env_seconds("SESSION_MAX_S", g_max_s);
	g_login_ip = ratelimit_new(LOGIN_IP_BURST, 1.0 / LOGIN_IP_EVERY_S);
	g_signup = ratelimit_new(SIGNUP_BURST, 1.0 / SIGNUP_EVERY_S);
	if (!g_login_ip || !g_signup)
		return -1;
	/* A hash of a random password with the same parameters: verifying against it costs what
	 * verifying a real account's costs, so an unknown e-mail answers in the same time. */
	char pw[TOKEN_LEN + 1];
	token_new(pw);
	int rc = crypto_pwhash_str_alg(g_dummy_hash, pw, strlen(pw), PW_OPS, PW_MEM,
	                               crypto_pwhash_ALG_ARGON2ID13);
	sodium_memzero(pw, sizeof pw);
	return rc == 0 ? 0 : -1;
}

void accounts_shutdown(void)
{
	ratelimit_free(g_login_ip);
	ratelimit_free(g_signup);
	g_login_ip = g_signup = NULL;
}

/* ---- shared helpers ---- */

static int reply_unavailable(http_resp *resp)
{
	http_resp_clear(resp);
	http_reply_problem(resp, 503, "the database is unavailable; try again shortly", NULL, NULL);
	return http_resp_header(resp, "Retry-After", "5");
}

int acct_reply_db(http_resp *resp)
{
	/* a statement cancelled by a database timeout (db_thread_busy) is worth retrying too, and
	 * so is a request whose connection was lost, whatever the flag says by now */
	if (!db_available() || db_thread_busy() || db_thread_lost())
		return reply_unavailable(resp);
	http_resp_clear(resp);
	return http_reply_problem(resp, 500, "internal error while reading or storing data", NULL,
	                          NULL);
}

int acct_reply_db_status(http_resp *resp, db_status st)
{
	return st == DB_UNAVAILABLE || st == DB_BUSY ? reply_unavailable(resp)
	                                             : acct_reply_db(resp);
}

/* Does origin ("scheme://authority", no path) name host (the Host header)? */
static bool origin_matches(const char *origin, const char *host)
{
	const char *a = NULL;
	if (strncasecmp(origin, "http://", 7) == 0)
		a = origin + 7;
	else if (strncasecmp(origin, "https://", 8) == 0)
		a = origin + 8;
	return a && *a && strcasecmp(a, host) == 0;
}

bool acct_csrf_reply(const http_req *req, http_resp *resp, bool json)
{
	const char *origin = http_header(req, "Origin");
	const char *host = http_header(req, MHD_HTTP_HEADER_HOST);
	if (origin == NULL || host == NULL || !origin_matches(origin, host)) {
		http_reply_problem(resp, 403,
		                   "a change to an account or a league must come from this site "
		                   "(Origin must match Host)",
		                   "origin-mismatch", NULL);
		return true;
	}
	if (json && !http_content_type_is_json(http_header(req, MHD_HTTP_HEADER_CONTENT_TYPE))) {
		http_reply_problem(resp, 415, "The request body must be application/json.", NULL,
		                   NULL);
		return true;
	}
	return false;
}

static void seconds_param(char *buf, size_t n, double s)
{
	snprintf(buf, n, "%.3f", s);
}

/* The session cookie's token, or NULL when absent or not token-shaped. */
static const char *session_token(const http_req *req)
{
	const char *t =
	    req->conn ? MHD_lookup_connection_value(req->conn, MHD_COOKIE_KIND, SESSION_COOKIE)
	              : NULL;
	if (t == NULL || strlen(t) != TOKEN_LEN)
		return NULL;
	for (const char *p = t; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			return NULL;
	return t;
}

bool acct_session_key(const http_req *req, char out[TOKEN_HASH_HEX + 1])
{
	const char *token = session_token(req);
	if (token == NULL)
		return false;
	token_hash_hex(token, out);
	return true;
}

/* The session's account into acc (with league: the account's access to it too, read in the
 * same statement); false after a reply. */
static bool session_read(const http_req *req, http_resp *resp, db_conn *c, account *acc,
                         const char *league)
{
	memset(acc, 0, sizeof *acc);
	const char *token = session_token(req);
	if (token == NULL) {
		http_reply_problem(resp, 401, "log in first", "no-session", NULL);
		return false;
	}
	if (c == NULL) {
		acct_reply_db(resp);
		return false;
	}
	char hash[TOKEN_HASH_HEX + 1], idle[32], max[32], touch[32];
	token_hash_hex(token, hash);
	if (league && passes_get(hash, league, acc)) {
		acc->pre_conn = c; /* checked lately on the primary: as if read on c */
		return true;
	}
	passes_mark mark;
	passes_begin(&mark);
	seconds_param(idle, sizeof idle, g_idle_s);
	seconds_param(max, sizeof max, g_max_s);
	/* the idle clock is written at most every idle/20 (≤ 60 s), not on every request */
	seconds_param(touch, sizeof touch, g_idle_s / 20 < 60 ? g_idle_s / 20 : 60);
	db_session_row row;
	if (db_session_get(c, hash, idle, max, touch, league, &row, &acc->pre) != DB_OK) {
		acct_reply_db(resp);
		return false;
	}
	if (!row.found) {
		http_reply_problem(resp, 401, "this session has ended; log in again", "no-session",
		                   NULL);
		return false;
	}
	if (!row.valid) {
		db_session_delete(c, hash);
		http_reply_problem(resp, 401, "this session has expired; log in again",
		                   "session-expired", NULL);
		return false;
	}
	snprintf(acc->id, sizeof acc->id, "%s", row.id);
	snprintf(acc->email, sizeof acc->email, "%s", row.email);
	snprintf(acc->display_name, sizeof acc->display_name, "%s", row.display_name);
	snprintf(acc->session, sizeof acc->session, "%s", hash);
	if (league && strlen(league) < sizeof acc->pre_league) {
		acc->pre_conn = c;
		snprintf(acc->pre_league, sizeof acc->pre_league, "%s", league);
		passes_put(&mark, league, acc);
	}
	return true;
}

bool acct_session(const http_req *req, http_resp *resp, db_conn *c, account *acc)
{
	return session_read(req, resp, c, acc, NULL);
}

bool acct_session_league(const http_req *req, http_resp *resp, db_conn *c, account *acc,
                         const char *league)
{
	return session_read(req, resp, c, acc, league);
}

static json_object *account_json(const account *a)
{
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(a->id));
	jx_set(o, "email", jx_str(a->email));
	jx_set(o, "display_name", jx_str(a->display_name));
	return o;
}

/* Lower-cases an e-mail address into out; false when it does not look like one (one '@' with
 * something on both sides, no spaces or control characters). */
static bool email_normalise(const char *in, char out[ACCT_EMAIL_MAX])
{
	size_t n = strlen(in), at = 0, ats = 0;
	if (n < 3 || n >= ACCT_EMAIL_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)in[i];
		if (ch <= ' ' || ch == 0x7f)
			return false;
		if (ch == '@') {
			at = i;
			ats++;
		}
		out[i] = (char)tolower(ch);
	}
	out[n] = '\0';
	return ats == 1 && at > 0 && at + 1 < n;
}

/* The Set-Cookie value for token (or an expired, empty cookie when token is NULL). */
static void set_cookie(const http_req *req, http_resp *resp, const char *token)
{
	char v[256];
	snprintf(v, sizeof v, SESSION_COOKIE "=%s; Path=/; Max-Age=%.0f; HttpOnly; SameSite=Lax%s",
	         token ? token : "", token ? g_max_s : 0.0, http_req_tls(req) ? "; Secure" : "");
	http_resp_header(resp, "Set-Cookie", v);
	http_resp_header(resp, "Cache-Control", "no-store");
}

/* ---- handlers ---- */

int api_account_create(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *email = NULL, *password = NULL, *name = NULL;
	js_error err;
	const js_field f[] = {
	    {"email", JS_STRING, JS_F_REQUIRED, 3, 254, NULL, &email, NULL},
	    {"password", JS_STRING, JS_F_REQUIRED, PW_MIN, PW_MAX, NULL, &password, NULL},
	    {"display_name", JS_STRING, JS_F_REQUIRED, 1, JS_MAX_NAME, NULL, &name, NULL},
	};
	if (acct_csrf_reply(req, resp, true) || ratelimit_reply(g_signup, req, resp))
		return 0;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	char norm[ACCT_EMAIL_MAX];
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
		goto out;
	}
	if (!email_normalise(email, norm)) {
		http_reply_problem(resp, 400, "is not an e-mail address", NULL, "/email");
		goto out;
	}
	char hash[crypto_pwhash_STRBYTES];
	if (crypto_pwhash_str_alg(hash, password, strlen(password), PW_OPS, PW_MEM,
	                          crypto_pwhash_ALG_ARGON2ID13) != 0) {
		http_reply_problem(resp, 500, "could not hash the password", NULL, NULL);
		goto out;
	}
	account a;
	id_new(a.id);
	snprintf(a.email, sizeof a.email, "%s", norm);
	snprintf(a.display_name, sizeof a.display_name, "%s", name);
	db_conn *c = db_thread_conn();
	bool inserted = false;
	if (c == NULL ||
	    db_account_insert(c, a.id, a.email, a.display_name, hash, &inserted) != DB_OK)
		acct_reply_db(resp);
	else if (!inserted)
		http_reply_problem(resp, 409, "an account with this e-mail address exists",
		                   "email-taken", "/email");
	else
		http_reply_json(resp, 201, account_json(&a));
out:
	json_object_put(root);
	return 0;
}

int api_account_me(const http_req *req, http_resp *resp)
{
	account a;
	if (!acct_session(req, resp, db_thread_conn(), &a))
		return 0;
	http_reply_json(resp, 200, account_json(&a));
	return http_resp_header(resp, "Cache-Control", "no-store");
}

/* Checks the password of email; true with *a filled. Costs one Argon2id verification whether
 * the account exists or not. */
static bool check_password(db_conn *c, const char *email, const char *password, account *a,
                           db_status *st)
{
	db_account_login row;
	*st = db_account_by_email(c, email, &row);
	if (*st != DB_OK)
		return false;
	const char *hash = row.found ? row.password_hash : g_dummy_hash;
	bool ok = crypto_pwhash_str_verify(hash, password, strlen(password)) == 0 && row.found;
	if (ok) {
		snprintf(a->id, sizeof a->id, "%s", row.id);
		snprintf(a->email, sizeof a->email, "%s", email);
		snprintf(a->display_name, sizeof a->display_name, "%s", row.display_name);
	}
	sodium_memzero(row.password_hash, sizeof row.password_hash);
	return ok;
}

/* The pair a failed log-in counts against: the client's address group and the e-mail's
 * BLAKE2b-128 as hex (an unknown e-mail's too: the answers must not tell them apart). */
typedef struct {
	char group[RATELIMIT_GROUP];
	char email[2 * 16 + 1];
} login_pair;

static void login_pair_of(const http_req *req, const char *email, login_pair *p)
{
	unsigned char h[16];
	ratelimit_client_group(req, p->group, sizeof p->group);
	if (p->group[0] == '\0')
		snprintf(p->group, sizeof p->group, "%s", "?");
	crypto_generichash(h, sizeof h, (const unsigned char *)email, strlen(email), NULL, 0);
	sodium_bin2hex(p->email, sizeof p->email, h, sizeof h);
}

/* Replies 429 while the pair waits after its failures (503 when the database is away) and
 * returns true; false, with nothing replied, when it may try. */
static bool pair_waits(db_conn *c, const login_pair *p, http_resp *resp)
{
	int wait = 0;
	if (db_login_wait(c, p->group, p->email, &wait) != DB_OK) {
		acct_reply_db(resp);
		return true;
	}
	if (wait <= 0)
		return false;
	char v[16];
	snprintf(v, sizeof v, "%d", wait);
	http_reply_problem(resp, 429,
	                   "too many failed log-ins for this e-mail address from this address; "
	                   "try again later",
	                   NULL, NULL);
	http_resp_header(resp, "Retry-After", v);
	return true;
}

int api_session_create(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *email = NULL, *password = NULL;
	js_error err;
	const js_field f[] = {
	    {"email", JS_STRING, JS_F_REQUIRED, 1, 254, NULL, &email, NULL},
	    {"password", JS_STRING, JS_F_REQUIRED, 1, PW_MAX, NULL, &password, NULL},
	};
	if (acct_csrf_reply(req, resp, true) || ratelimit_reply(g_login_ip, req, resp))
		return 0;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
		goto out;
	}
	char norm[ACCT_EMAIL_MAX];
	if (!email_normalise(email, norm))
		snprintf(norm, sizeof norm, "%s", "-"); /* no such account: same answer below */
	db_conn *c = db_thread_conn();
	db_status st = DB_UNAVAILABLE;
	account a;
	login_pair pair;
	if (c == NULL) {
		acct_reply_db(resp);
		goto out;
	}
	login_pair_of(req, norm, &pair);
	if (pair_waits(c, &pair, resp))
		goto out;
	if (!check_password(c, norm, password, &a, &st)) {
		if (st != DB_OK ||
		    db_login_failed(c, pair.group, pair.email, &g_login_policy) != DB_OK)
			acct_reply_db(resp);
		else
			http_reply_problem(resp, 401, "wrong e-mail address or password",
			                   "bad-credentials", NULL);
		goto out;
	}
	if (db_login_forget(c, pair.group, pair.email) != DB_OK)
		log_warn("accounts: could not forget the failed log-ins of a pair");
	/* Rotation: the session the request carried (if any) ends; a new token is issued. */
	const char *old = session_token(req);
	char hash[TOKEN_HASH_HEX + 1], token[TOKEN_LEN + 1], idle[32], max[32];
	if (old) {
		token_hash_hex(old, hash);
		db_session_delete(c, hash);
	}
	seconds_param(idle, sizeof idle, g_idle_s);
	seconds_param(max, sizeof max, g_max_s);
	db_session_purge(c, a.id, idle, max);
	token_new(token);
	token_hash_hex(token, hash);
	if (db_session_insert(c, hash, a.id) != DB_OK) {
		acct_reply_db(resp);
		goto out;
	}
	json_object *o = jx_obj();
	jx_set(o, "account", account_json(&a));
	http_reply_json(resp, 200, o);
	set_cookie(req, resp, token);
	sodium_memzero(token, sizeof token);
out:
	json_object_put(root);
	return 0;
}

int api_session_delete(const http_req *req, http_resp *resp)
{
	account a;
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, false) || !acct_session(req, resp, c, &a))
		return 0;
	char hash[TOKEN_HASH_HEX + 1];
	token_hash_hex(session_token(req), hash);
	if (db_session_delete(c, hash) != DB_OK)
		return acct_reply_db(resp);
	resp->status = 204;
	set_cookie(req, resp, NULL);
	return 0;
}
