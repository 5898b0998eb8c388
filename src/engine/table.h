/* The table engine: what every game at the table has, written once for every kind of game.
 *
 * A game is a row of `games` (its kind, configuration, version), its seats (names, token
 * hashes) and its append-only event log; the state is the replay of the log through the kind's
 * pure rules. The engine does, for any kind: create (ids, join code, host and seat tokens),
 * join (claimed seats, replacement), load (cache, else replay of one snapshot), lock,
 * authorise, append the event with the next version, NOTIFY, the event stream, the log, the
 * finished result (games.result, and the league hook). A kind is a descriptor (table_kind) of
 * pure-ish functions over a fixed-size state, plus its own request handlers that build an
 * event and call table_mutate().
 *
 * Layering: http/ (requests, replies, streaming) and db/ (typed rows, db/games.h) below; the
 * kinds (games/er/kind.c, games/dh/kind.c, …) above. Ownership is stated per function. */
#ifndef TABLE_H
#define TABLE_H

#include "http/http.h"

#include <stdbool.h>
#include <stddef.h>

struct json_object;
struct jw;

enum {
	TABLE_MAX_SEATS = 6,
	TABLE_NAME_MAX = 64,       /* characters of a player's name (api.md limits) */
	TABLE_NAME_BYTES = 64 * 4, /* the same in UTF-8 bytes */
	TABLE_ID_MAX = 24,         /* ids are 24 hex characters (engine/tokens.h ID_LEN) */
	TABLE_LEAGUE_MAX = 64 * 4, /* a league id */
	TABLE_DETAIL_MAX = 256,
};

/* Why a request is refused: an HTTP status, a stable rule id (static string, or NULL), the JSON
 * pointer of the offending input (or ""), and a sentence for people. */
typedef struct {
	int status;
	const char *rule;
	char field[64];
	char detail[TABLE_DETAIL_MAX];
} table_refusal;

/* Fills r and returns -1: `return table_refuse(r, 409, "turn-stale", NULL, "…")`. */
int table_refuse(table_refusal *r, int status, const char *rule, const char *field, const char *fmt,
                 ...) __attribute__((format(printf, 5, 6)));

/* One event of a game. `name` is a static string ("move", "round", …); `body` points to the
 * kind's own event struct (kind->event_size bytes), owned by whoever built the event. */
typedef struct {
	const char *name;
	int seat; /* 1..nseats, or 0 for the table as a whole */
	int turn; /* the turn or round it belongs to, 0 if none */
	void *body;
} table_event;

/* The seats and the requester, as the kind sees them. */
typedef struct {
	const char *id, *code, *league, *created_at;
	int version;
	int nseats;
	const char (*names)[TABLE_NAME_BYTES + 1];
	const bool *bot;
	bool host; /* the request carries the host token */
	int you;   /* the seat of the request's seat token, 0 for none */
} table_view;

/* A game to create, as the kind's create_parse fills it. */
typedef struct {
	int nseats;
	char names[TABLE_MAX_SEATS][TABLE_NAME_BYTES + 1];
	bool bot[TABLE_MAX_SEATS];
	struct json_object *config; /* owned by this struct (table_new_clear) */
	const char *league;         /* borrowed from the request body, or NULL */
} table_new;

typedef struct table_kind {
	const char *name; /* "er": the path segment /api/v1/{name}/games and games.kind */
	int max_seats;
	size_t state_size; /* bytes of the kind's state: a plain value, no pointers (cached by copy)
	                    */
	size_t event_size; /* bytes of the kind's event body */

	/* Parses the kind's create body (root, strict: unknown fields refused) into *out. On
	 * bad input fills r (400 with field, or 422 with rule) and returns -1. */
	int (*create_parse)(struct json_object *root, table_new *out, table_refusal *r);
	/* Adds the kind's own members (from the stored config) to the create reply. Optional. */
	void (*create_reply)(struct json_object *config, struct json_object *reply);

	/* The initial state from the stored configuration (JSON text). -1: unreadable (a bug). */
	int (*init)(void *state, const char *config, int nseats);
	/* Decodes a stored event into ev->body (name, seat and turn are set). -1: a bug. */
	int (*event_decode)(table_event *ev, const char *payload);
	/* The payload JSON of an event, to store (caller owns the result). */
	struct json_object *(*event_encode)(const table_event *ev);

	/* Completes a requested event from the state (defaults the kind may fill in) and checks
	 * that the requester may send it; fills r and returns -1 otherwise. Optional: without it,
	 * ev->seat must be a human seat and the token the host's or that seat's. */
	int (*prepare)(const void *state, const table_view *v, table_event *ev, table_refusal *r);
	/* True when ev repeats what already stands: it is answered as the first time and not
	 * stored again (idempotent resubmission). Optional. */
	bool (*repeats)(const void *state, const table_event *ev);
	/* Checks ev against the state and applies it, or fills r and leaves the state as it was. */
	int (*apply)(void *state, const table_event *ev, table_refusal *r);
	bool (*finished)(const void *state);
	/* A bot's next event, if a bot should act now (ev->body points to event_size bytes).
	 * Optional. */
	bool (*bot_step)(const void *state, table_event *ev);

	/* Adds the kind's members to the state reply o (which has id, kind, code, status,
	 * version, league). */
	void (*state_json)(const void *state, const table_view *v, struct json_object *o);
	/* The same members, in the same order, written as text (json/jw.h) after the engine's:
	 * the reply to every write and read of the game's state, without building a tree of
	 * objects. Optional (state_json serves when it is NULL). */
	void (*state_text)(const void *state, const table_view *v, struct jw *w);
	/* The finished result kept in games.result for the league history:
	 * {"standings": [{"seat","name","bot","score","rank","breakdown"…}]} (caller owns). */
	struct json_object *(*result_json)(const void *state, const table_view *v);
	/* Called once on the initial state before the log's events are replayed, so a game with
	 * no event yet has the same members (e.g. ER's start sheets and an empty list of turns).
	 * Optional. */
	void (*log_start)(const void *state, const table_view *v, struct json_object *log);
	/* Called after each event while the log is replayed; may add members to the log reply
	 * (e.g. ER's turn-by-turn summary). Optional. */
	void (*log_step)(const void *state, const table_event *ev, const table_view *v,
	                 struct json_object *log);
	/* The event by which a phone plays a seat ("move"): the host's token sending it for a
	 * seat claims that seat, as the seat's own token would (the host's phone plays it, so a
	 * join needs "replace"). NULL: the host's writes claim nothing (a scorekeeper writing for
	 * the whole table). */
	const char *host_plays_event;
} table_kind;

/* ---- registry (at start, before the server runs) ---- */
int table_register(const table_kind *kind);
const table_kind *table_kind_find(const char *name);
/* Called inside the transaction that finishes a game that has a league (leagues). Returns 0,
 * or -1 to roll the transaction back. */
typedef int (*table_finish_hook)(void *db_conn, const char *game_id, const char *league,
                                 const char *kind, const char *result_json);
void table_set_finish_hook(table_finish_hook hook);
/* Called after the commit of a write whose transaction ran the finish hook, on the thread of
 * the request that wrote it (req) and the connection that committed it (leagues: that client's
 * next league reads see the play). */
typedef void (*table_recorded_hook)(const http_req *req, void *db_conn);
void table_set_recorded_hook(table_recorded_hook hook);
/* Called before a game is created with a league: may this request record games there? Returns
 * 0, or -1 after filling resp (401/403/404/503). Without a hook any league id is taken. */
typedef int (*table_league_check)(const http_req *req, http_resp *resp, void *db_conn,
                                  const char *league);
void table_set_league_check(table_league_check check);
/* The same check for other data a request files under a league (a scoring profile): 0 when
 * allowed (or no hook is set), else -1 after filling resp. */
int table_league_allowed(const http_req *req, http_resp *resp, void *conn, const char *league);

int table_init(void);
void table_shutdown(void);

/* ---- handlers every kind shares (the kind comes from the path /api/v1/{kind}/games…) ---- */
int table_api_create(const http_req *req, http_resp *resp);     /* POST …/games */
int table_api_get(const http_req *req, http_resp *resp);        /* GET  …/games/{id} */
int table_api_log(const http_req *req, http_resp *resp);        /* GET  …/games/{id}/log */
int table_api_events(const http_req *req, http_resp *resp);     /* GET  …/games/{id}/events */
int table_api_join(const http_req *req, http_resp *resp);       /* POST /api/v1/join */
int table_api_join_seats(const http_req *req, http_resp *resp); /* GET /api/v1/join/{code} */
/* POST …/games/{id}/display: a new display token (read-only) for the host, replacing the
 * game's previous one (401 display-replaced from then on): {"display_token", "url"}. */
int table_api_display(const http_req *req, http_resp *resp);
/* The guard of every request but GET and HEAD (http_config.write_guard): 403 display-read-only
 * when it carries a display token (Authorization: Bearer, or ?token=). */
int table_write_guard(const http_req *req, http_resp *resp);

/* Runs one mutation of game req->params[0] of `kind`: authenticates the token, takes the
 * game's state (cached, else locked and replayed), prepares, authorises and applies ev, lets
 * bots act, appends the events and stores the result when finished — committed in one
 * statement when the cached state still holds (one round trip), else in one locking
 * transaction — then NOTIFYs after the commit and replies with the state at the new version
 * (200), or the refusal. ev->body stays the caller's (the optimistic try works on a copy). */
int table_mutate(const http_req *req, http_resp *resp, const table_kind *kind, table_event *ev);

/* Replies a refusal as problem+json. */
int table_reply_refusal(http_resp *resp, const table_refusal *r);

/* ---- reads for other resources (PDFs): a loaded game ---- */
typedef struct table_game table_game;
/* Loads game `id` of `kind` for a read with the request's token (any token of the game), or
 * replies (401/404/503/500) and returns NULL. Caller frees with table_game_free. */
table_game *table_load_for_read(const http_req *req, http_resp *resp, const table_kind *kind,
                                const char *id);
void table_game_free(table_game *g);
const void *table_game_state(const table_game *g);
void table_game_view(const table_game *g, table_view *v);

/* ---- games other domains create and read on their own authority (leagues' challenges) ---- */
/* Creates a game of `kind` from a create body (as POST …/games takes it; root borrowed) in the
 * caller's transaction on db_conn: 0 with *reply the create reply (caller owns: id, code,
 * host_token, seats with their tokens, the kind's members), or -1 with r filled (a refused
 * body: r->status 4xx) or r->status 0 and *st the database's failure. */
int table_create_in(void *conn, const table_kind *kind, struct json_object *root,
                    struct json_object **reply, table_refusal *r, int *st);
/* Loads game `id` of `kind` without a token (the caller has checked the reader's rights) on
 * db_conn, or replies (404/503/500) and returns NULL. Caller frees with table_game_free. */
table_game *table_load_trusted(void *conn, http_resp *resp, const table_kind *kind, const char *id);
/* The game's state as its GET reply has it (caller owns), read by no seat. */
struct json_object *table_game_json(const table_game *g);

#endif
