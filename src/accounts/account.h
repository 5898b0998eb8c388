/* The account a session names (accounts.c fills it, passes.c keeps it for a moment). */
#ifndef ACCOUNTS_ACCOUNT_H
#define ACCOUNTS_ACCOUNT_H

#include "db/db.h"
#include "db/leagues.h"
#include "engine/tokens.h"

enum { ACCT_NAME_MAX = 64 * 4 + 1, ACCT_EMAIL_MAX = 254 + 1 };

typedef struct {
	char id[ID_LEN + 1];
	char email[ACCT_EMAIL_MAX];
	char display_name[ACCT_NAME_MAX];
	char session[TOKEN_HASH_HEX + 1]; /* the session's key (its token's hash), "" for none */
	/* The account's access to one league, read with the session (acct_session_league) on
	 * the connection conn (NULL: none read): access_as takes it there. */
	const db_conn *pre_conn;
	char pre_league[ID_LEN + 1];
	db_league_access pre;
} account;

#endif
