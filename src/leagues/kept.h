/* A league's rating input kept between its changes (kept.c): an edit reads one play, not
 * the league. */
#ifndef LEAGUES_KEPT_H
#define LEAGUES_KEPT_H

#include "db/leagues.h"
#include "leagues/rows.h"

#include <stdbool.h>

/* Where a change of one play fell: its game key and local date before (if it was rated) and
 * after (if it is), borrowed from the rows. Only the scopes holding one of them changed. */
typedef struct {
	const char *key[2], *date[2];
	int n;
} league_touch;

typedef struct kept_league kept_league;

/* A kept entry of league (borrowed) made of s (rows_load_keyed, then rated by
 * rows_rate; taken, s is emptied). */
kept_league *kept_from_rows(const char *league, league_rows *s);

/* Its rows (rated in place by the caller). */
league_rows *kept_rows(kept_league *k);

/* How many of its first rows are as the last rating left them (none changed, moved or added
 * since): a rating may start there (rows_rate_from). */
int kept_rated(const kept_league *k);

/* Its rows were all rated again (rows_rate_from). */
void kept_rated_all(kept_league *k);

/* Where the last kept_splice's play was and is. */
const league_touch *kept_touch(const kept_league *k);

/* Replaces play's rows in k by rows (league_play_rows_keyed of it; taken; none: the play is
 * gone or no longer rated), placed in play order. False (rows freed, k as it was but to be
 * dropped) when k has taken too many plays already: read the league again. */
bool kept_splice(kept_league *k, const char *play, db_league_results *rows);

/* The entry of league kept at version under this database server, taken out of the table (the
 * caller owns it), or NULL. A stale entry of league is dropped. */
kept_league *kept_take(const char *league, long long version);

void kept_free(kept_league *k);

/* The thread's pending entry, for version (the league's version the transaction wrote; k
 * taken, replaces any). Only between kept_pending_begin and kept_pending_end (access_tx): an
 * entry set elsewhere is dropped at once. kept_pending_end keeps it when the transaction
 * committed, else drops it. */
void kept_pending_set(kept_league *k, long long version);

void kept_pending_begin(void);

void kept_pending_end(bool committed);

#endif
