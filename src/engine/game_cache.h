/* A per-process cache of replayed game states, keyed by game id and version.
 *
 * The log is append-only, so the state of a game at version V never changes: a cached state is
 * valid for as long as the game is still at V, on any server. A request that finds the game at
 * the cached version skips reading and replaying the log; one that finds it further on replays
 * only the newer events. Entries are copied in and out (the cache owns its copies).
 *
 * One exception: after a failover a version the old primary showed may never have reached the
 * standby, and the new primary may give that version number to another event. The cache is
 * therefore emptied whenever the process reaches another database server (db_server_epoch), and
 * a state read before that is not stored. */
#ifndef GAME_CACHE_H
#define GAME_CACHE_H

#include <stdbool.h>
#include <stddef.h>

/* Copies the cached value for id into out (size bytes) if there is one; returns its version,
 * or -1 when there is none. */
int game_cache_get(const char *id, void *out, size_t size);
/* Stores a copy of value (size bytes) for id at version, unless a newer version is cached, or
 * the value was read from the database under another server epoch than the current one
 * (epoch: db_server_epoch() before the read). */
void game_cache_put(const char *id, int version, const void *value, size_t size, unsigned epoch);

#endif
