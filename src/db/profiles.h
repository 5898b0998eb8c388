/* Typed rows of the stored scoring profiles (migration 0003_profiles.sql). Functions return a
 * db_status as in db/games.h. Ownership: strings handed to callbacks are borrowed from the
 * result and valid only during the call; db_profile_get's *body is malloc'ed (caller frees). */
#ifndef DB_PROFILES_H
#define DB_PROFILES_H

#include "db/db.h"

#include <stdbool.h>

/* Stores a profile; *inserted is false when (game, id) exists already. */
db_status db_profile_insert(db_conn *c, const char *game, const char *id, const char *name,
                            const char *body, const char *league, bool *inserted);
/* The body (JSON text) of profile (game, id), or *body = NULL when there is none. */
db_status db_profile_get(db_conn *c, const char *game, const char *id, char **body);
/* Calls fn for every stored profile of game (NULL: both games), by game then id. */
typedef void (*db_profile_fn)(const char *game, const char *id, const char *body,
                              const char *league, const char *created_at, void *arg);
db_status db_profiles_list(db_conn *c, const char *game, db_profile_fn fn, void *arg);

#endif
