/* The kept standings and rating lines of every scope of a league (scopes.c): the whole
 * league, each season, each game, each season's game. */
#ifndef LEAGUES_SCOPES_H
#define LEAGUES_SCOPES_H

#include "db/db.h"
#include "leagues/kept.h"
#include "leagues/rows.h"
#include "rules/rating.h"

#include <stdbool.h>

/* Rewrites the kept standings of every scope of the league (the whole league, each season,
 * each game, each season's game) from its rows s (rows_load_keyed), rated in order by
 * rows_rate with all (nmembers) the final ratings; each other scope's rows are rated
 * again here, scope by scope. With touch (not NULL: one play changed, the scopes kept are
 * those of the rows before it), only the whole league and the scopes holding the play before
 * or after are rewritten. Inside ratings_recompute's transaction. */
db_status scopes_keep(db_conn *c, const char *league, league_rows *s, const rating *all,
                      const league_touch *touch);

/* When play (just added) comes after every other play of the league and the league's scopes
 * are kept: rates it from its players' kept standings in each scope it is in, updates those,
 * appends to the scopes' lines and stores its results' ratings (*done true). Otherwise
 * nothing is written (*done false): the caller rates the whole league. */
db_status scopes_append(db_conn *c, const char *league, const char *play, bool *done);

#endif
