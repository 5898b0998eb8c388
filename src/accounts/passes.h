/* League reads' session checks kept for a moment (passes.c): the account, its access to the
 * league and the league's version, per session and league, for one second; and each player's
 * league and name. Any write request of this process drops them all. */
#ifndef ACCOUNTS_PASSES_H
#define ACCOUNTS_PASSES_H

#include "accounts/account.h"
#include "db/leagues.h"

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* Drops every pass: called for each write request (http_config.on_write). */
void passes_forget_all(void);
/* When a check began: a pass made from it is void if a write request came since. */
typedef struct {
	unsigned gen, epoch;
	struct timespec at;
} passes_mark;
void passes_begin(passes_mark *m);
/* The pass of session (a token hash) for league when one is kept and still good: *acc filled
 * (pre_conn NULL). */
bool passes_get(const char *session, const char *league, account *acc);
/* Keeps the successful check of acc (session, account, access to league) begun at m. */
void passes_put(const passes_mark *m, const char *league, const account *acc);
/* The league and name of member as read at league version (version < 0: any; a member's league
 * never changes, its name and existence only with a new version): true with *out when kept. */
bool passes_member_get(const char *member, int64_t version, db_member_league *out);
/* Keeps ml (found) of member, read at version on the server of epoch (db_server_epoch before
 * the read). */
void passes_member_put(const char *member, int64_t version, unsigned epoch,
                       const db_member_league *ml);

#endif
