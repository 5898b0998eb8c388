/* The statements of accounts, sessions and failed log-ins, and their typed rows (accounts.h). */
#include "db/accounts.h"

#include "db/rows.h"
#include "db/statements.h"

#include <stdio.h>
#include <string.h>

/* ---- the statements ---- */

/* account_insert: the id when stored, no row when the e-mail address was taken */
#define ACCOUNT_INSERT_COLUMNS(C) C(ACCOUNT_INSERT_ID, id)
DB_COLUMNS(ACCOUNT_INSERT_COLUMNS, ACCOUNT_INSERT_NCOLS);

/* account_by_email: what a log-in checks */
#define ACCOUNT_BY_EMAIL_COLUMNS(C)                                                                \
	C(ACCOUNT_BY_EMAIL_ID, id)                                                                 \
	C(ACCOUNT_BY_EMAIL_DISPLAY_NAME, display_name)                                             \
	C(ACCOUNT_BY_EMAIL_PASSWORD_HASH, password_hash)
DB_COLUMNS(ACCOUNT_BY_EMAIL_COLUMNS, ACCOUNT_BY_EMAIL_NCOLS);

/* account_find: an account by its id or its e-mail address */
#define ACCOUNT_FIND_COLUMNS(C) C(ACCOUNT_FIND_ID, id)
DB_COLUMNS(ACCOUNT_FIND_COLUMNS, ACCOUNT_FIND_NCOLS);

/* session_get: the session's account, whether the session is still valid, and the account's
 * access to league $5 (league_found false when there is no such league; member '' when the
 * account plays in it under no member) */
#define SESSION_GET_COLUMNS(C)                                                                     \
	C(SESSION_GET_VALID, valid)                                                                \
	C(SESSION_GET_ID, id)                                                                      \
	C(SESSION_GET_EMAIL, email)                                                                \
	C(SESSION_GET_DISPLAY_NAME, display_name)                                                  \
	C(SESSION_GET_LEAGUE_FOUND, league_found)                                                  \
	C(SESSION_GET_OWNER, owner)                                                                \
	C(SESSION_GET_MEMBER, member)                                                              \
	C(SESSION_GET_VERSION, version)
DB_COLUMNS(SESSION_GET_COLUMNS, SESSION_GET_NCOLS);

/* login_wait: seconds until this address group may try this e-mail address again */
#define LOGIN_WAIT_COLUMNS(C) C(LOGIN_WAIT_WAIT_S, wait_s)
DB_COLUMNS(LOGIN_WAIT_COLUMNS, LOGIN_WAIT_NCOLS);

/* login_failed: the failures counted so far */
#define LOGIN_FAILED_COLUMNS(C) C(LOGIN_FAILED_FAILURES, failures)
DB_COLUMNS(LOGIN_FAILED_COLUMNS, LOGIN_FAILED_NCOLS);

/* Accounts and sessions (migrations/0004_leagues.sql), failed log-ins per address group and
 * e-mail hash (migrations/0022_login_failures.sql); run by src/accounts/accounts.c. */
// clang-format off
const db_statement db_accounts_statements[] = {
	{"account_insert",
	 "INSERT INTO accounts (id, email, display_name, password_hash) "
	 "VALUES ($1, $2, $3, $4) "
	 "ON CONFLICT (email) DO NOTHING "
	 "RETURNING id",
	 4, DB_COLUMN_NAMES(ACCOUNT_INSERT_COLUMNS)},
	{"account_by_email",
	 "SELECT id, display_name, password_hash "
	 "  FROM accounts "
	 " WHERE email = $1",
	 1, DB_COLUMN_NAMES(ACCOUNT_BY_EMAIL_COLUMNS)},
	{"account_find",
	 "SELECT id "
	 "  FROM accounts "
	 " WHERE id = $1 "
	 "    OR email = lower($1)",
	 1, DB_COLUMN_NAMES(ACCOUNT_FIND_COLUMNS)},
	{"session_insert",
	 "INSERT INTO sessions (token_hash, account_id) "
	 "VALUES (decode($1, 'hex'), $2)",
	 2, NULL},
	{"session_delete",
	 "DELETE FROM sessions "
	 " WHERE token_hash = decode($1, 'hex')",
	 1, NULL},
	/* the sessions of account $1 idle for $2 s or older than $3 s */
	{"session_purge",
	 "DELETE FROM sessions "
	 " WHERE account_id = $1 "
	 "   AND (last_seen <= now() - $2::float8 * interval '1 second' "
	 "        OR created_at <= now() - $3::float8 * interval '1 second')",
	 3, NULL},
	/* valid: idle less than $2 s and younger than $3 s; last_seen is written when older than
	 * $4 s */
	{"session_get",
	 "WITH s AS ( "
	 "    SELECT token_hash, account_id, last_seen, "
	 "           (clock_timestamp() < last_seen + $2::float8 * interval '1 second' "
	 "            AND clock_timestamp() < created_at + $3::float8 * interval '1 second') AS valid "
	 "      FROM sessions "
	 "     WHERE token_hash = decode($1, 'hex') "
	 "), u AS ( "
	 "    UPDATE sessions t "
	 "       SET last_seen = clock_timestamp() "
	 "      FROM s "
	 "     WHERE t.token_hash = s.token_hash "
	 "       AND s.valid "
	 "       AND s.last_seen < clock_timestamp() - $4::float8 * interval '1 second' "
	 "    RETURNING 1 "
	 ") "
	 "SELECT s.valid, "
	 "       a.id, "
	 "       a.email, "
	 "       a.display_name, "
	 "       l.id IS NOT NULL AS league_found, "
	 "       EXISTS (SELECT 1 "
	 "                 FROM league_owners o "
	 "                WHERE o.league_id = l.id "
	 "                  AND o.account_id = a.id) AS owner, "
	 "       coalesce((SELECT m.id "
	 "                   FROM league_members m "
	 "                  WHERE m.league_id = l.id "
	 "                    AND m.account_id = a.id), '') AS member, "
	 "       l.version "
	 "  FROM s "
	 "  JOIN accounts a ON a.id = s.account_id "
	 "  LEFT JOIN leagues l ON l.id = $5",
	 5, DB_COLUMN_NAMES(SESSION_GET_COLUMNS)},
	{"login_wait",
	 "SELECT greatest(0, ceil(extract(epoch FROM blocked_until - now())))::int AS wait_s "
	 "  FROM login_failures "
	 " WHERE email_hash = decode($2, 'hex') "
	 "   AND addr_group = $1",
	 2, DB_COLUMN_NAMES(LOGIN_WAIT_COLUMNS)},
	/* $3 free failures, $4 base and $5 longest delay, $6 forget after (s) */
	{"login_failed",
	 "WITH gone AS ( "
	 "    DELETE FROM login_failures "
	 "     WHERE last_failure < now() - $6::float8 * interval '1 second' "
	 "       AND NOT (email_hash = decode($2, 'hex') AND addr_group = $1) "
	 ") "
	 "INSERT INTO login_failures AS f "
	 "       (email_hash, addr_group, failures, last_failure, blocked_until) "
	 "VALUES (decode($2, 'hex'), $1, 1, now(), "
	 "        now() + login_delay(1, $3::int, $4::float8, $5::float8)) "
	 "ON CONFLICT (email_hash, addr_group) DO UPDATE "
	 "   SET failures = login_failures_next(f.failures, f.last_failure, $6::float8), "
	 "       last_failure = now(), "
	 "       blocked_until = now() + login_delay( "
	 "           login_failures_next(f.failures, f.last_failure, $6::float8), "
	 "           $3::int, $4::float8, $5::float8) "
	 "RETURNING f.failures",
	 6, DB_COLUMN_NAMES(LOGIN_FAILED_COLUMNS)},
	{"login_forget",
	 "DELETE FROM login_failures "
	 " WHERE email_hash = decode($2, 'hex') "
	 "   AND addr_group = $1",
	 2, NULL},
	DB_STATEMENTS_END,
};
// clang-format on

db_status db_account_insert(db_conn *c, const char *id, const char *email, const char *name,
                            const char *password_hash, bool *inserted)
{
	const char *p[4] = {id, email, name, password_hash};
	int n;
	db_status st = db_run_count(c, "account_insert", 4, p, &n);
	*inserted = n == 1;
	return st;
}

static void read_account_login(const PGresult *r, int i, void *row)
{
	db_account_login *x = row;
	ACCOUNT_BY_EMAIL_COLUMNS(DB_COPY_COLUMN)
}

db_status db_account_by_email(db_conn *c, const char *email, db_account_login *out)
{
	const char *p[1] = {email};
	return db_get_one(c, "account_by_email", 1, p, read_account_login, out, &out->found);
}

db_status db_account_find(db_conn *c, const char *key, bool *found, char id[DB_ACCT_ID_MAX + 1])
{
	const char *p[1] = {key};
	PGresult *r;
	*found = false;
	db_status st = db_run(c, "account_find", 1, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		*found = true;
		db_col_copy(r, 0, ACCOUNT_FIND_ID, id, DB_ACCT_ID_MAX + 1);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_session_get(db_conn *c, const char *hash_hex, const char *idle, const char *max,
                         const char *touch, const char *league, db_session_row *out,
                         db_league_access *access)
{
	const char *p[5] = {hash_hex, idle, max, touch, league};
	PGresult *r;
	memset(out, 0, sizeof *out);
	memset(access, 0, sizeof *access);
	db_status st = db_run(c, "session_get", 5, p, &r);
	if (st != DB_OK)
		return st;
	out->found = db_nrows(r) == 1;
	if (out->found) {
		out->valid = db_col_bool(r, 0, SESSION_GET_VALID);
		db_col_copy(r, 0, SESSION_GET_ID, out->id, sizeof out->id);
		db_col_copy(r, 0, SESSION_GET_EMAIL, out->email, sizeof out->email);
		db_col_copy(r, 0, SESSION_GET_DISPLAY_NAME, out->display_name,
		            sizeof out->display_name);
		access->found = db_col_bool(r, 0, SESSION_GET_LEAGUE_FOUND);
	}
	if (access->found) {
		access->owner = db_col_bool(r, 0, SESSION_GET_OWNER);
		db_col_copy(r, 0, SESSION_GET_MEMBER, access->member, sizeof access->member);
		access->version = db_col_int64(r, 0, SESSION_GET_VERSION);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_session_insert(db_conn *c, const char *hash_hex, const char *account)
{
	const char *p[2] = {hash_hex, account};
	return db_run_count(c, "session_insert", 2, p, NULL);
}

db_status db_session_delete(db_conn *c, const char *hash_hex)
{
	const char *p[1] = {hash_hex};
	return db_run_count(c, "session_delete", 1, p, NULL);
}

db_status db_session_purge(db_conn *c, const char *account, const char *idle, const char *max)
{
	const char *p[3] = {account, idle, max};
	return db_run_count(c, "session_purge", 3, p, NULL);
}

db_status db_login_wait(db_conn *c, const char *addr_group, const char *email_hash_hex, int *wait_s)
{
	const char *p[2] = {addr_group, email_hash_hex};
	PGresult *r;
	*wait_s = 0;
	db_status st = db_run(c, "login_wait", 2, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1)
		*wait_s = db_col_int(r, 0, LOGIN_WAIT_WAIT_S);
	PQclear(r);
	return DB_OK;
}

db_status db_login_failed(db_conn *c, const char *addr_group, const char *email_hash_hex,
                          const db_login_policy *policy)
{
	char fr[16], base[16], max[16], forget[16];
	snprintf(fr, sizeof fr, "%d", policy->free);
	snprintf(base, sizeof base, "%d", policy->base_s);
	snprintf(max, sizeof max, "%d", policy->max_s);
	snprintf(forget, sizeof forget, "%d", policy->forget_s);
	const char *p[6] = {addr_group, email_hash_hex, fr, base, max, forget};
	return db_run_count(c, "login_failed", 6, p, NULL);
}

db_status db_login_forget(db_conn *c, const char *addr_group, const char *email_hash_hex)
{
	const char *p[2] = {addr_group, email_hash_hex};
	return db_run_count(c, "login_forget", 2, p, NULL);
}
