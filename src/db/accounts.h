/* Typed rows of accounts and sessions (migrations/0004_leagues.sql) and of failed log-ins
 * (migrations/0022_login_failures.sql). Every statement
 * of src/accounts/accounts.c is run here and its result read here, next to a comment naming the
 * statement (SQL in statements.c) and its columns: no column numbers anywhere else.
 *
 * Functions return a db_status: DB_OK, DB_UNAVAILABLE (the database is away), DB_RETRY
 * (serialization failure inside a transaction), DB_FAIL (anything else, logged by db_exec).
 * Ownership: rows are filled into caller-owned structs with fixed buffers (values longer than a
 * buffer are cut; the schema's limits fit). */
#ifndef DB_ACCOUNTS_H
#define DB_ACCOUNTS_H

#include "db/db.h"
#include "db/leagues.h"

#include <stdbool.h>

enum {
	DB_ACCT_ID_MAX = 24, /* ids are hex of 12 random bytes (api/tokens.h ID_LEN) */
	DB_ACCT_EMAIL_MAX = 255,
	DB_ACCT_NAME_MAX = 64 * 4 + 1,
	DB_ACCT_HASH_MAX = 128, /* crypto_pwhash_STRBYTES */
};

/* account_insert: stores an account; *inserted is false when the e-mail is taken. */
db_status db_account_insert(db_conn *c, const char *id, const char *email, const char *name,
                            const char *password_hash, bool *inserted);

/* account_by_email: columns id, display_name, password_hash. */
typedef struct {
	bool found;
	char id[DB_ACCT_ID_MAX + 1];
	char display_name[DB_ACCT_NAME_MAX];
	char password_hash[DB_ACCT_HASH_MAX + 1];
} db_account_login;
db_status db_account_by_email(db_conn *c, const char *email, db_account_login *out);

/* account_find: column id of the account whose id or (lower-cased) e-mail is key. */
db_status db_account_find(db_conn *c, const char *key, bool *found, char id[DB_ACCT_ID_MAX + 1]);

/* session_get: columns valid, id, email, display_name of the session with token hash hash_hex
 * (idle/max/touch are seconds as text; refreshes last_seen at most every touch seconds) and, in
 * the same statement (one round trip for a league read), the account's access to league
 * (found, owner, member, version; league NULL: none, access->found false). */
typedef struct {
	bool found, valid;
	char id[DB_ACCT_ID_MAX + 1];
	char email[DB_ACCT_EMAIL_MAX];
	char display_name[DB_ACCT_NAME_MAX];
} db_session_row;
db_status db_session_get(db_conn *c, const char *hash_hex, const char *idle, const char *max,
                         const char *touch, const char *league, db_session_row *out,
                         db_league_access *access);

/* session_insert / session_delete / session_purge (no rows read). */
db_status db_session_insert(db_conn *c, const char *hash_hex, const char *account);
db_status db_session_delete(db_conn *c, const char *hash_hex);
db_status db_session_purge(db_conn *c, const char *account, const char *idle, const char *max);

/* login_wait: seconds until the pair (addr_group, email_hash_hex) may try again (0: now,
 * also when it has no failures). */
db_status db_login_wait(db_conn *c, const char *addr_group, const char *email_hash_hex,
                        int *wait_s);

/* A failed log-in of the pair. Its wait: none for the first free - 1 failures, then base_s
 * doubled with each failure up to max_s; its count starts again after forget_s without a
 * failure (and older pairs are dropped). */
typedef struct {
	int free, base_s, max_s, forget_s;
} db_login_policy;
db_status db_login_failed(db_conn *c, const char *addr_group, const char *email_hash_hex,
                          const db_login_policy *policy);

/* login_forget: a successful log-in forgets the pair's failures. */
db_status db_login_forget(db_conn *c, const char *addr_group, const char *email_hash_hex);

#endif
