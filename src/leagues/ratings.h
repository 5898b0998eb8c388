/* A league's ratings recomputed after every change of its plays (ratings.c): which game each
 * play is, every member's line, the kept scopes; from the kept rows when one play changed. */
#ifndef LEAGUES_RATINGS_H
#define LEAGUES_RATINGS_H

#include "db/db.h"

/* Recomputes which game each play is (league_game_names) and every rating of the league in one
 * pass (plays in order), and stores what changed. */
db_status ratings_recompute(db_conn *c, const char *league);

/* ratings_recompute after a change of play alone (an edit, a deletion): the league's rows kept
 * since its last change (kept.c), with that play's read again, when there are; else the whole
 * league read. ratings_recompute_added does the same for a play added before others. */
db_status ratings_recompute_play(db_conn *c, const char *league, const char *play);

/* ratings_recompute after adding play: when it is the league's last play and nothing else
 * changed, only it is rated, from the kept state (scopes.c scopes_append). */
db_status ratings_recompute_added(db_conn *c, const char *league, const char *play);

#endif
