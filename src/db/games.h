/* Typed rows of the table engine's statements (games, seats, events; migrations 0002, 0005,
 * 0010).
 *
 * Every statement of the engine is run here and its result read here, column by column, into a
 * struct next to its SQL (statements.c): no column numbers anywhere else. Functions return a
 * db_status: DB_OK (rows read), DB_UNAVAILABLE (the database is away), DB_RETRY (serialization
 * failure inside a transaction), DB_FAIL (anything else, logged by db_exec).
 *
 * Ownership: structs are filled in caller-owned memory; strings that do not fit a fixed buffer
 * are malloc'ed and freed by the struct's _clear function. Event rows handed to a callback
 * borrow their strings from the result, valid only during the call. */
#ifndef DB_GAMES_H
#define DB_GAMES_H

#include "db/db.h"
#include "db/f8array.h"

#include <stdbool.h>

enum {
	DB_KIND_MAX = 16,
	DB_CODE_MAX = 6,
	DB_NAME_MAX = 256, /* bytes; names are ≤ 64 characters of UTF-8 */
	DB_TIME_MAX = 32,  /* RFC 3339 UTC with microseconds */
};

/* A game row as seen with one token (game_get / game_lock). */
typedef struct {
	bool found;
	char kind[DB_KIND_MAX + 1];
	char *config; /* owned: the stored configuration (JSON text) */
	int version;
	bool finished;
	bool is_host;          /* the token is the host token */
	int token_seat;        /* the seat whose token it is, 0 if none */
	bool token_claimed;    /* that seat was already claimed (a phone used its token) */
	int replaced_seat;     /* the token was replaced on this seat by a join, 0 if not */
	bool is_display;       /* the token is the game's display token (read-only) */
	bool replaced_display; /* the token was the game's display token before a newer one */
	char code[DB_CODE_MAX + 1];
	char league[DB_NAME_MAX + 1]; /* "" when none */
	char created_at[DB_TIME_MAX + 1];
	char finished_at[DB_TIME_MAX + 1]; /* the finished result's finished_at, "" while playing */
} db_game_row;

void db_game_row_clear(db_game_row *g);

/* Reads game `id` as seen with token hash `hash_hex` (NULL: no token); `lock` takes the row
 * lock (SELECT … FOR UPDATE; inside a transaction). out->found is false when there is no such
 * game. */
db_status db_game_get(db_conn *c, const char *id, const char *hash_hex, bool lock,
                      db_game_row *out);

/* The seats of a new game, column by column (binary arrays, db/f8array.h), for
 * db_game_insert: db_seat_batch_add appends one (hash_hex NULL for a bot seat: it has no
 * token), db_seat_batch_free empties the batch again. */
typedef struct {
	db_f8array seats, names, bots, hashes;
} db_seat_batch;

void db_seat_batch_add(db_seat_batch *b, int seat, const char *name, bool bot,
                       const char *hash_hex);
void db_seat_batch_free(db_seat_batch *b);

/* Inserts a game and its seats in one statement; *inserted is false when the join code is
 * taken (nothing was written: draw another). */
db_status db_game_insert(db_conn *c, const char *id, const char *kind, const char *code,
                         const char *host_hash_hex, const char *config, const char *league,
                         db_seat_batch *seats, bool *inserted);

typedef struct {
	int seat;
	char name[DB_NAME_MAX + 1];
	bool bot;
	bool claimed;
} db_seat_row;

/* The seats of game `id` in seat order (at most max; *n receives the count). */
db_status db_seats_list(db_conn *c, const char *id, db_seat_row *out, int max, int *n);

/* Marks a seat claimed (its token has been used by a phone). */
db_status db_seat_claim(db_conn *c, const char *id, int seat);

/* A join: the seat of the game with join code `code`, locked (FOR UPDATE). */
typedef struct {
	bool found;
	char game[DB_NAME_MAX + 1];
	char kind[DB_KIND_MAX + 1];
	char name[DB_NAME_MAX + 1];
	bool claimed;
} db_join_row;

db_status db_join_lock(db_conn *c, const char *code, int seat, db_join_row *out);
/* Gives the seat a new token hash and marks it claimed. With keep_link (a seat no phone has
 * claimed) the token it had keeps playing it too: the link made at creation still works. Without,
 * the seat's tokens are remembered as replaced, so their next use is told so. */
db_status db_join_take(db_conn *c, const char *game, int seat, const char *new_hash_hex,
                       bool keep_link);
/* Gives game `id` the display token hash new_hash_hex; the one it replaces (if any) is
 * remembered as replaced (seat 0), so its next use is told so. */
db_status db_display_replace(db_conn *c, const char *id, const char *new_hash_hex);
/* Is the token of hash hash_hex one that a join or a new display link of game `id` replaced
 * (*replaced)? The event streams of a token ask (engine/live.c). */
db_status db_token_replaced(db_conn *c, const char *id, const char *hash_hex, bool *replaced);

/* The game id and kind of join code `code` (found false when none). */
db_status db_game_by_code(db_conn *c, const char *code, bool *found, char game[DB_NAME_MAX + 1],
                          char kind[DB_KIND_MAX + 1]);

/* One event of the log. Strings are borrowed from the result (valid during the callback);
 * `at` is "" unless the statement reads it. */
typedef struct {
	int version;
	const char *kind;
	int seat; /* 0: the table */
	int turn;
	const char *payload;
	const char *at;
} db_event_row;

/* Called for each row in version order; a non-zero return stops the walk (returned through
 * *stopped_rc when not NULL). */
typedef int (*db_event_fn)(const db_event_row *row, void *arg);

/* The events of game `id` with after < version ≤ upto, in version order: the replay of one
 * snapshot (upto is the game row's version), whatever commits meanwhile. */
db_status db_events_between(db_conn *c, const char *id, int after, int upto, db_event_fn fn,
                            void *arg, int *stopped_rc);
/* The whole log of game `id` up to version upto, with creation times. */
db_status db_events_log(db_conn *c, const char *id, int upto, db_event_fn fn, void *arg,
                        int *stopped_rc);
/* At most `limit` events after version `after` (payload is ""), for the event stream. */
db_status db_events_since(db_conn *c, const char *id, int after, int limit, db_event_fn fn,
                          void *arg, int *stopped_rc);

/* A batch of events to append, column by column (binary arrays, db/f8array.h): the events a
 * mutation makes, in version order. Owns its buffers; a zeroed batch is empty, and
 * db_event_batch_free empties it again. */
typedef struct {
	db_f8array versions, kinds, seats, turns, payloads;
} db_event_batch;

/* Adds an event: its version, kind name, seat (0: none, stored as NULL), turn and payload (JSON
 * text of len bytes). */
void db_event_batch_add(db_event_batch *b, int version, const char *kind, int seat, int turn,
                        const char *payload, size_t len);
void db_event_batch_free(db_event_batch *b);

/* Appends a batch of events (the unique (game, version) key refuses a second writer) and sets
 * the game's version, status and result (JSON text or NULL): one statement, one round trip,
 * inside the caller's transaction. The NOTIFY follows the commit (db/notify.h). */
db_status db_events_append(db_conn *c, const char *id, db_event_batch *events, int version,
                           bool finished, const char *result);

/* The optimistic write of a move computed on a cached state: appends the batch and sets
 * version, status and result as db_events_append does, in ONE statement run outside any
 * transaction (it commits by itself) — but only while the game is still playing at version
 * `expected` and `hash_hex` is still the host token (seat 0) or the claimed token of `seat`;
 * with `claim`, a token of `seat` not claimed yet will do, and the statement claims the seat.
 * *applied is false when either no longer holds: nothing was written. */
db_status db_events_append_if(db_conn *c, const char *id, db_event_batch *events, int version,
                              bool finished, const char *result, int expected, int seat, bool claim,
                              const char *hash_hex, bool *applied);

/* One optimistic write of db_events_append_group: db_events_append_if's arguments, and its
 * outcome. A write may carry later writes of the same game (`next`), each computed on the state
 * the one before leaves: they go as ONE entry of the group (one row update from the first's
 * `expected` to the last's `version`, status and result; every write's token checked; their
 * events in order), written all or none. The caller owns every pointer. */
typedef struct db_append_one {
	const char *id;
	db_event_batch *events;
	int version;        /* the game's version after the events */
	bool finished;      /* status 'finished' after them, with result (JSON text) */
	const char *result; /* NULL while the game goes on */
	int expected;       /* the version the events were computed on */
	int seat;           /* whose token hash_hex is (0: the host) */
	bool claim;         /* a token of seat not claimed yet will do; the statement claims it */
	const char *hash_hex;
	struct db_append_one *next; /* the same game's next write (NULL: none) */
	bool applied; /* out: written (false: the game was not as expected, nothing written) */
} db_append_one;

/* The optimistic writes of several games (ids distinct) in ONE statement that commits by
 * itself: each entry (w[i] and the writes chained to it) written or not exactly as
 * db_events_append_if would write them one after another (its own version, status and token
 * checks), the others whatever its outcome. A failed statement writes none of them (every
 * applied is false). */
db_status db_events_append_group(db_conn *c, db_append_one *const *w, int n);

#endif
