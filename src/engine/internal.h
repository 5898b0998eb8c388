/* What the files of the table engine share (table.c, mutate.c, routes.c) and nobody else uses:
 * a loaded game, the write turns, the engine's hooks. */
#ifndef ENGINE_INTERNAL_H
#define ENGINE_INTERNAL_H

#include "engine/table.h"

#include "engine/game_cache.h"
#include "engine/live.h"
#include "http/ratelimit.h"
#include "engine/tokens.h"
#include "base/log.h"
#include "base/oom.h"
#include "db/games.h"
#include "json/jw.h"
#include "json/jx.h"
#include "json/spec.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
	MAX_KINDS = 8,
	KNOWN_TOKENS = TABLE_MAX_SEATS + 2, /* host, seats, and a replacement or two */
	WRITE_STRIPES = 256,                /* stripes of the games whose writes hold their turn */
};

/* POST /join guesses a 6-character code: each client address gets JOIN_BURST attempts, then
 * one every JOIN_EVERY_S seconds (429 beyond). A table joining needs a handful. */
enum { JOIN_BURST = 20, JOIN_EVERY_S = 2 };

/* Writes of one game take turns; writes of different games never wait for each other, even when
 * their ids hash to the same stripe. A stripe's mutex guards only its list of the games whose
 * turn is taken (held for a few instructions, never across a statement or a sleep); a writer
 * waits on the stripe's condition only while another writer of the same game holds the turn.
 * So a game whose row is stuck behind a lock (a manual session, a stalled server) stalls its own
 * writes and no other game's. Keyed per game rather than a mutex per stripe because a mutex
 * held across the database work makes every game of the stripe wait for the slowest; a per-game
 * mutex table would need allocation and reclamation, the list needs neither: its nodes live on
 * the writers' stacks, at most one per request thread. The wait is bounded (turn_wait_ms): the
 * holder itself waits at most the lock timeout for the row, so a writer that waits longer is
 * answered 503 as a lock timeout would be. A libmicrohttpd thread never waits here: it takes a free
 * turn or none (eng_turn_try) and defers the request to a waiting thread (http_defer). */
typedef struct turn {
	const char *id;
	struct turn *next;
} turn;

typedef struct {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* broadcast when a turn is given back */
	turn *taken;       /* the games of this stripe being written now */
} stripe;

/* A token this process has seen authenticate as the host (seat 0) or as a claimed seat. */
typedef struct {
	char hash[TOKEN_HASH_HEX + 1];
	int seat;
} known_token;

/* A loaded game: the whole struct plus the kind's state is what the cache keeps (the requester
 * fields are set after every load). Owned by the request that loaded it. */
struct table_game {
	const table_kind *kind;
	char id[TABLE_ID_MAX + 1];
	int version;
	int nseats;
	char names[TABLE_MAX_SEATS][TABLE_NAME_BYTES + 1];
	bool bot[TABLE_MAX_SEATS];
	/* tokens that may take the optimistic write (the statement checks them again) */
	known_token tokens[KNOWN_TOKENS];
	int ntokens; /* entries used; once full, the oldest is replaced */
	/* set per request */
	bool host;
	int you;
	bool display; /* the display token: reads only, and the join code is not shown */
	/* seats (bit seat-1) the host's writes are known to have claimed on this server: a hint
	 * that spares the statement (table_kind.host_plays_event) */
	unsigned host_claimed;
	char code[DB_CODE_MAX + 1];
	char league[TABLE_LEAGUE_MAX + 1];
	char created_at[DB_TIME_MAX + 1];
	char finished_at[DB_TIME_MAX + 1]; /* when it finished (RFC 3339 UTC), "" while playing */
	alignas(max_align_t) unsigned char state[];
};

/* The engine's registry and hooks (table.c; written before the server starts, read after). */
extern ratelimit *g_join_limit;
extern table_finish_hook g_finish_hook;
extern table_recorded_hook g_recorded_hook;
extern table_league_check g_league_check;

/* ---- table.c: shared with mutate.c and routes.c ---- */

size_t eng_game_size(const table_kind *k);
/* The seat (0: the host) a known token authenticated as, or -1. */
int eng_known_seat(const table_game *g, const char *hash);
/* Remembers that hash authenticates as seat (0: the host); true when g changed. */
bool eng_learn_token(table_game *g, const char *hash, int seat);
/* Reads the game row (locking it when `lock`), authenticates, and builds the state at the
 * row's version. On success *out is the game (caller frees) and *row its row (caller
 * clears); otherwise replies and returns -1. */
int eng_load(db_conn *c, const table_kind *kind, const char *id, const char *hash, bool lock,
             table_game **out, db_game_row *row, http_resp *resp);
int eng_reply_bug(http_resp *resp, const char *detail);
/* 503 + Retry-After when trying again can help: the database is away, or one of our timeouts
 * cancelled the statement (DB_BUSY: a row held too long by someone else, nothing written);
 * otherwise 500. */
int eng_reply_db(http_resp *resp, db_status st);
/* The request's token hashed into hash, or a 401 reply and -1. */
int eng_request_token(const http_req *req, bool query_allowed, char hash[TOKEN_HASH_HEX + 1],
                      http_resp *resp);
json_object *eng_state_reply(const table_game *g);
/* The same document as text into w (json/jw.h), when the kind has state_text: byte for byte
 * what eng_state_reply serialises to (tests/unit/test_api_state_text.c). */
void eng_state_text(const table_game *g, struct jw *w);
/* Replies 200 with the game's state: as text when the kind writes it so, else from the objects. */
int eng_reply_state(http_resp *resp, const table_game *g);
/* The stripe of game `id` (FNV-1a of the id). */
stripe *eng_stripe_of(const char *id);
void eng_turn_give(stripe *s, turn *t);
/* Takes game id's turn into t (the caller's node, kept until turn_give); false when another
 * write of the game held it for longer than turn_wait_ms. */
bool eng_turn_take(stripe *s, turn *t, const char *id);
/* The same without waiting (a libmicrohttpd thread): false at once when the turn is taken. */
bool eng_turn_try(stripe *s, turn *t, const char *id);
void eng_view_of(const table_game *g, table_view *v);
/* The kind's initial state from the configuration (version 0). */
int eng_init_state(table_game *g, const char *config, http_resp *resp);
/* The kind of a path /api/v1/{kind}/games…, or NULL. */
const table_kind *eng_kind_of_path(const char *path);
table_game *eng_load_for_read(const http_req *req, http_resp *resp, const table_kind *kind,
                              const char *id, bool query_allowed);

#endif
