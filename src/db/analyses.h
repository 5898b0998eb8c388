/* Typed rows of the ER coach's cache (migrations/0029_er_analyses.sql; statements in
 * analyses.c; src/games/er/coach_api.c uses them). Parameters are text. */
#ifndef DB_ANALYSES_H
#define DB_ANALYSES_H

#include "db/db.h"

#include <stdbool.h>

/* er_analysis_get: the stored analysis of (game, seat, width): *out a malloc'ed copy of its
 * JSON text (caller frees) and *found true, or *out NULL and *found false. */
db_status db_er_analysis_get(db_conn *c, const char *game, int seat, int width, char **out,
                             bool *found);
/* er_analysis_put: stores it unless one is there already (the first one stands). */
db_status db_er_analysis_put(db_conn *c, const char *game, int seat, int width, const char *json);

#endif
