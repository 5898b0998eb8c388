/* The table engine (table.h): create, join, load, mutate, read, log, events for every kind.
 *
 * A write is one of two paths, both ending in one statement that appends the events with the
 * next versions and lets the version, status and result follow:
 *   - the optimistic write (one round trip): when this process holds the game's state in its
 *     cache and has seen the request's token before, the event is applied to that state and
 *     the statement itself checks, under the row lock it takes, that the game is still at that
 *     version and the token still the host's or the seat's; it commits on its own;
 *   - the locking write (three round trips), for everything else and whenever the optimistic
 *     statement writes nothing: BEGIN, lock the game row (SELECT … FOR UPDATE) and take the
 *     state at its version (cache, else replay of the newer events), apply, append, COMMIT.
 * Writes of one game in one process take turns (turn_take, keyed by the game), so the cached
 * state is the current one when the next write comes; across processes the database's version
 * check keeps two writers of one game serialised. An acknowledged change is committed either way;
 * then "id:version" is NOTIFYed after the commit, in a batch (api/live.h, db/notify.h). A read
 * replays exactly the events up to the version of the row it read (one snapshot), whatever commits
 * meanwhile. */
#include "engine/table.h"

#include "engine/game_cache.h"
#include "engine/live.h"
#include "http/ratelimit.h"
#include "engine/tokens.h"
#include "base/log.h"
#include "base/oom.h"
#include "db/games.h"
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

static const table_kind *g_kinds[MAX_KINDS];
static int g_nkinds;
static ratelimit *g_join_limit;
static table_finish_hook g_finish_hook;
static table_league_check g_league_check;

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
 * answered 503 as a lock timeout would be. */
typedef struct turn {
	const char *id;
	struct turn *next;
} turn;

typedef struct {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* broadcast when a turn is given back */
	turn *taken;       /* the games of this stripe being written now */
} stripe;

static stripe g_stripes[WRITE_STRIPES];

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
	char code[DB_CODE_MAX + 1];
	char league[TABLE_LEAGUE_MAX + 1];
	char created_at[DB_TIME_MAX + 1];
	alignas(max_align_t) unsigned char state[];
};

static size_t game_size(const table_kind *k)
{
	return sizeof(table_game) + k->state_size;
}

/* ---- registry ---- */

int table_register(const table_kind *kind)
{
	if (g_nkinds == MAX_KINDS || table_kind_find(kind->name))
		return -1;
	g_kinds[g_nkinds++] = kind;
	return 0;
}

const table_kind *table_kind_find(const char *name)
{
	for (int i = 0; i < g_nkinds; i++)
		if (strcmp(g_kinds[i]->name, name) == 0)
			return g_kinds[i];
	return NULL;
}

void table_set_finish_hook(table_finish_hook hook)
{
	g_finish_hook = hook;
}

void table_set_league_check(table_league_check check)
{
	g_league_check = check;
}

int table_init(void)
{
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	for (int i = 0; i < WRITE_STRIPES; i++) {
		pthread_mutex_init(&g_stripes[i].mu, NULL);
		pthread_cond_init(&g_stripes[i].cv, &ca);
		g_stripes[i].taken = NULL;
	}
	pthread_condattr_destroy(&ca);
	g_join_limit = ratelimit_new(JOIN_BURST, 1.0 / JOIN_EVERY_S);
	return g_join_limit ? 0 : -1;
}

void table_shutdown(void)
{
	ratelimit_free(g_join_limit);
	g_join_limit = NULL;
	g_nkinds = 0;
	g_finish_hook = NULL;
	g_league_check = NULL;
	for (int i = 0; i < WRITE_STRIPES; i++) {
		pthread_cond_destroy(&g_stripes[i].cv);
		pthread_mutex_destroy(&g_stripes[i].mu);
	}
}

/* The stripe of game `id` (FNV-1a of the id). */
static stripe *stripe_of(const char *id)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)id; *p; p++)
		h = (h ^ *p) * 16777619u;
	return &g_stripes[h % WRITE_STRIPES];
}

/* How long a write waits for its game's turn: the lock timeout (else the statement timeout;
 * both off: as long as it takes). */
static long turn_wait_ms(void)
{
	db_timeouts t = db_get_timeouts();
	return t.lock_ms ? (long)t.lock_ms : (long)t.statement_ms;
}

static bool turn_is_taken(const stripe *s, const char *id)
{
	for (const turn *t = s->taken; t; t = t->next)
		if (strcmp(t->id, id) == 0)
			return true;
	return false;
}

/* Takes game id's turn into t (the caller's node, kept until turn_give); false when another
 * write of the game held it for longer than turn_wait_ms. */
static bool turn_take(stripe *s, turn *t, const char *id)
{
	long ms = turn_wait_ms();
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	bool ok = true;
	pthread_mutex_lock(&s->mu);
	while (ok && turn_is_taken(s, id)) {
		int rc = ms ? pthread_cond_timedwait(&s->cv, &s->mu, &until)
		            : pthread_cond_wait(&s->cv, &s->mu);
		if (rc == ETIMEDOUT)
			ok = !turn_is_taken(s, id);
	}
	if (ok) {
		t->id = id;
		t->next = s->taken;
		s->taken = t;
	}
	pthread_mutex_unlock(&s->mu);
	return ok;
}

static void turn_give(stripe *s, turn *t)
{
	pthread_mutex_lock(&s->mu);
	for (turn **p = &s->taken; *p; p = &(*p)->next)
		if (*p == t) {
			*p = t->next;
			break;
		}
	pthread_cond_broadcast(&s->cv); /* waiters of other games of the stripe look again */
	pthread_mutex_unlock(&s->mu);
}

/* The kind of a path /api/v1/{kind}/games…, or NULL. */
static const table_kind *kind_of_path(const char *path)
{
	static const char prefix[] = "/api/v1/";
	char name[32];
	if (strncmp(path, prefix, sizeof prefix - 1) != 0)
		return NULL;
	const char *s = path + sizeof prefix - 1;
	size_t n = strcspn(s, "/");
	if (n == 0 || n >= sizeof name)
		return NULL;
	memcpy(name, s, n);
	name[n] = '\0';
	return table_kind_find(name);
}

/* ---- replies ---- */

int table_refuse(table_refusal *r, int status, const char *rule, const char *field, const char *fmt,
                 ...)
{
	va_list ap;
	r->status = status;
	r->rule = rule;
	snprintf(r->field, sizeof r->field, "%s", field ? field : "");
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof r->detail, fmt, ap);
	va_end(ap);
	return -1;
}

int table_reply_refusal(http_resp *resp, const table_refusal *r)
{
	return http_reply_problem(resp, r->status, r->detail, r->rule,
	                          r->field[0] ? r->field : NULL);
}

/* 503 + Retry-After when trying again can help: the database is away, or one of our timeouts
 * cancelled the statement (DB_BUSY: a row held too long by someone else, nothing written);
 * otherwise 500. */
static int reply_db(http_resp *resp, db_status st)
{
	http_resp_clear(resp);
	if (st == DB_BUSY || (st != DB_UNAVAILABLE && db_thread_busy())) {
		http_reply_problem(resp, 503,
		                   "the database did not answer in time; try again shortly", NULL,
		                   NULL);
		return http_resp_header(resp, "Retry-After", "2");
	}
	if (st == DB_UNAVAILABLE || !db_available()) {
		http_reply_problem(resp, 503, "the database is unavailable; try again shortly",
		                   NULL, NULL);
		return http_resp_header(resp, "Retry-After", "5");
	}
	return http_reply_problem(resp, 500, "internal error while storing the game", NULL, NULL);
}

static int reply_bug(http_resp *resp, const char *detail)
{
	http_resp_clear(resp);
	return http_reply_problem(resp, 500, detail, NULL, NULL);
}

static void view_of(const table_game *g, table_view *v)
{
	*v = (table_view){
	    .id = g->id,
	    .code = g->code,
	    .league = g->league,
	    .created_at = g->created_at,
	    .version = g->version,
	    .nseats = g->nseats,
	    .names = g->names,
	    .bot = g->bot,
	    .host = g->host,
	    .you = g->you,
	};
}

static json_object *state_reply(const table_game *g)
{
	table_view v;
	view_of(g, &v);
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(g->id));
	jx_set(o, "kind", jx_str(g->kind->name));
	jx_set(o, "code", jx_str(g->code));
	jx_set(o, "status", jx_str(g->kind->finished(g->state) ? "finished" : "playing"));
	jx_set(o, "version", jx_int(g->version));
	if (g->league[0])
		jx_set(o, "league", jx_str(g->league));
	g->kind->state_json(g->state, &v, o);
	if (g->you)
		jx_set(o, "you", jx_int(g->you));
	return o;
}

/* ---- loading ---- */

typedef struct {
	table_game *g;
	table_event ev;
	table_refusal why;
	int failed_version;
} replay_arg;

static int replay_one(const db_event_row *row, void *arg)
{
	replay_arg *a = arg;
	table_game *g = a->g;
	memset(a->ev.body, 0, g->kind->event_size);
	a->ev.name = row->kind;
	a->ev.seat = row->seat;
	a->ev.turn = row->turn;
	if (g->kind->event_decode(&a->ev, row->payload) != 0 ||
	    g->kind->apply(g->state, &a->ev, &a->why) != 0) {
		a->failed_version = row->version;
		return 1;
	}
	g->version = row->version;
	return 0;
}

/* Replays the events after g's version up to `upto`. Replies and returns -1 on failure. */
static int replay(db_conn *c, table_game *g, int upto, http_resp *resp)
{
	replay_arg a = {.g = g, .ev = {.body = xcalloc(1, g->kind->event_size)}};
	int stopped = 0;
	db_status st = db_events_between(c, g->id, g->version, upto, replay_one, &a, &stopped);
	free(a.ev.body);
	if (st != DB_OK)
		return reply_db(resp, st), -1;
	if (stopped) {
		log_bug("game %s: event %d does not replay (%s)", g->id, a.failed_version,
		        a.why.detail);
		return reply_bug(resp, "the stored game does not replay"), -1;
	}
	return 0;
}

/* The kind's initial state from the configuration (version 0). */
static int init_state(table_game *g, const char *config, http_resp *resp)
{
	g->version = 0;
	memset(g->state, 0, g->kind->state_size);
	if (g->kind->init(g->state, config, g->nseats) != 0) {
		log_bug("game %s has an unreadable configuration", g->id);
		return reply_bug(resp, "the stored game is unreadable"), -1;
	}
	return 0;
}

/* A fresh state: the seats and the kind's initial state from the configuration. */
static int fresh(db_conn *c, table_game *g, const char *config, http_resp *resp)
{
	db_seat_row seats[TABLE_MAX_SEATS];
	int n = 0;
	db_status st = db_seats_list(c, g->id, seats, TABLE_MAX_SEATS, &n);
	if (st != DB_OK)
		return reply_db(resp, st), -1;
	g->nseats = n;
	for (int i = 0; i < n; i++) {
		int s = seats[i].seat;
		if (s < 1 || s > TABLE_MAX_SEATS)
			continue;
		snprintf(g->names[s - 1], sizeof g->names[0], "%s", seats[i].name);
		g->bot[s - 1] = seats[i].bot;
	}
	return init_state(g, config, resp);
}

/* ---- tokens this process has seen ---- */

/* The seat (0: the host) a known token authenticated as, or -1. */
static int known_seat(const table_game *g, const char *hash)
{
	for (int i = 0; i < g->ntokens && i < KNOWN_TOKENS; i++)
		if (strcmp(g->tokens[i].hash, hash) == 0)
			return g->tokens[i].seat;
	return -1;
}

/* Remembers that hash authenticates as seat (0: the host); true when g changed. */
static bool learn_token(table_game *g, const char *hash, int seat)
{
	for (int i = 0; i < g->ntokens && i < KNOWN_TOKENS; i++) {
		if (strcmp(g->tokens[i].hash, hash) == 0) {
			if (g->tokens[i].seat == seat)
				return false;
			g->tokens[i].seat = seat;
			return true;
		}
	}
	if (g->ntokens >= KNOWN_TOKENS) { /* full: the oldest goes */
		memmove(&g->tokens[0], &g->tokens[1], (KNOWN_TOKENS - 1) * sizeof g->tokens[0]);
		g->ntokens = KNOWN_TOKENS - 1;
	}
	known_token *t = &g->tokens[g->ntokens++];
	snprintf(t->hash, sizeof t->hash, "%s", hash);
	t->seat = seat;
	return true;
}

/* Forgets hash in the cached copy of game id (a join replaced it, or it is no longer this
 * game's): its next write takes the locking path. */
static void forget_token(const table_kind *kind, const char *id, const char *hash)
{
	size_t size = game_size(kind);
	table_game *g = xmalloc(size);
	int version = game_cache_get(id, g, size);
	int n = version < 0 ? 0 : g->ntokens;
	for (int i = 0; i < n && i < KNOWN_TOKENS; i++) {
		if (strcmp(g->tokens[i].hash, hash) == 0) {
			memmove(&g->tokens[i], &g->tokens[i + 1],
			        (size_t)(n - 1 - i) * sizeof g->tokens[0]);
			g->ntokens--;
			game_cache_put(id, version, g, size);
			break;
		}
	}
	free(g);
}

/* Authenticates a token against the game row: the host's, a seat's, or one that a join
 * replaced (401 seat-replaced) or a stranger's (401). hash NULL: no authentication. */
static int authenticate(const db_game_row *row, const char *hash, http_resp *resp)
{
	if (hash == NULL || row->is_host || row->token_seat)
		return 0;
	if (row->replaced_seat) {
		http_reply_problem(resp, 401,
		                   "another phone has taken this seat; join again to play it",
		                   "seat-replaced", NULL);
		return -1;
	}
	http_reply_problem(resp, 401, "this token does not belong to this game", NULL, NULL);
	return -1;
}

/* Reads the game row (locking it when `lock`), authenticates, and builds the state at the
 * row's version. On success *out is the game (caller frees) and *row its row (caller
 * clears); otherwise replies and returns -1. */
static int load(db_conn *c, const table_kind *kind, const char *id, const char *hash, bool lock,
                table_game **out, db_game_row *row, http_resp *resp)
{
	*out = NULL;
	db_status st = db_game_get(c, id, hash, lock, row);
	if (st != DB_OK)
		return reply_db(resp, st), -1;
	if (!row->found || strcmp(row->kind, kind->name) != 0) {
		http_reply_problem(resp, 404, "no such game", NULL, NULL);
		return -1;
	}
	if (authenticate(row, hash, resp) != 0) {
		forget_token(kind, id, hash);
		return -1;
	}
	size_t size = game_size(kind);
	table_game *g = xcalloc(1, size);
	int cached = game_cache_get(id, g, size);
	g->kind = kind;
	snprintf(g->id, sizeof g->id, "%s", id);
	if ((cached < 0 || cached > row->version) && fresh(c, g, row->config, resp) != 0)
		goto fail;
	if (g->version < row->version && replay(c, g, row->version, resp) != 0)
		goto fail;
	if (g->version != row->version) {
		log_bug("game %s at version %d replays to %d", id, row->version, g->version);
		reply_bug(resp, "the stored game does not replay");
		goto fail;
	}
	g->host = row->is_host;
	g->you = row->token_seat;
	snprintf(g->code, sizeof g->code, "%s", row->code);
	snprintf(g->league, sizeof g->league, "%s", row->league);
	snprintf(g->created_at, sizeof g->created_at, "%s", row->created_at);
	/* a seat is claimed once a phone has used its token */
	if (row->token_seat && !row->token_claimed) {
		st = db_seat_claim(c, id, row->token_seat);
		if (st != DB_OK) {
			reply_db(resp, st);
			goto fail;
		}
	}
	/* A token is remembered once its seat's claim is durable: claimed before this request, or
	 * just now outside a transaction (a read). Inside the locking write the claim may still
	 * roll back with a refused event: table_mutate remembers the token after the commit. */
	bool learnt = hash &&
	              (row->is_host || (row->token_seat && (row->token_claimed || !lock))) &&
	              learn_token(g, hash, row->is_host ? 0 : row->token_seat);
	if (cached != row->version || learnt)
		game_cache_put(id, row->version, g, size);
	*out = g;
	return 0;
fail:
	free(g);
	return -1;
}

/* The request's token hashed into hash, or a 401 reply and -1. */
static int request_token(const http_req *req, bool query_allowed, char hash[TOKEN_HASH_HEX + 1],
                         http_resp *resp)
{
	/* ?token= only where allowed: the event stream (EventSource cannot send headers) */
	const char *token = query_allowed ? token_for_stream(req) : token_from_request(req);
	if (token == NULL) {
		http_reply_problem(resp, 401, "send the game's token: Authorization: Bearer …",
		                   NULL, NULL);
		return -1;
	}
	token_hash_hex(token, hash);
	return 0;
}

static table_game *load_for_read(const http_req *req, http_resp *resp, const table_kind *kind,
                                 const char *id, bool query_allowed)
{
	char hash[TOKEN_HASH_HEX + 1];
	db_game_row row;
	table_game *g = NULL;
	if (request_token(req, query_allowed, hash, resp) != 0)
		return NULL;
	db_conn *c = db_thread_conn();
	if (c == NULL) {
		reply_db(resp, DB_UNAVAILABLE);
		return NULL;
	}
	load(c, kind, id, hash, false, &g, &row, resp);
	db_game_row_clear(&row);
	return g;
}

table_game *table_load_for_read(const http_req *req, http_resp *resp, const table_kind *kind,
                                const char *id)
{
	return load_for_read(req, resp, kind, id, false);
}

void table_game_free(table_game *g)
{
	free(g);
}

const void *table_game_state(const table_game *g)
{
	return g->state;
}

void table_game_view(const table_game *g, table_view *v)
{
	view_of(g, v);
}

/* ---- mutations ---- */

typedef struct {
	const table_kind *kind;
	const char *id, *hash;
	table_event *ev;
	http_resp *resp;
	table_game *g; /* the state after the transaction (owned; replaced on a retry) */
} mutate_arg;

/* The default authorisation: a human seat of this game, written by its token or the host's. */
static int default_prepare(const table_view *v, const table_event *ev, table_refusal *r)
{
	if (ev->seat < 1 || ev->seat > v->nseats)
		return table_refuse(r, 404, "no-such-seat", NULL, "no such seat");
	if (v->bot[ev->seat - 1])
		return table_refuse(r, 403, "bot-seat", NULL, "a bot plays this seat by itself");
	if (!v->host && v->you != ev->seat)
		return table_refuse(r, 403, NULL, NULL, "a seat token writes only its own seat");
	return 0;
}

/* Adds ev, at the game's version, to the batch of events this mutation appends. */
static void append(table_game *g, const table_event *ev, json_object *batch)
{
	json_object *e = jx_obj();
	jx_set(e, "version", jx_int(g->version));
	jx_set(e, "kind", jx_str(ev->name));
	jx_set(e, "seat", ev->seat ? jx_int(ev->seat) : jx_null());
	jx_set(e, "turn", jx_int(ev->turn));
	jx_set(e, "payload", g->kind->event_encode(ev));
	jx_push(batch, e);
}

/* Lets the bots act while they should; each action is an event of its own. Returns -1 (logged
 * as our bug) if the kind refuses its own bot's event. */
static int bots_act(table_game *g, json_object *batch)
{
	if (g->kind->bot_step == NULL)
		return 0;
	table_event bot = {.body = xcalloc(1, g->kind->event_size)};
	table_refusal why;
	int rc = 0;
	while (g->kind->bot_step(g->state, &bot)) {
		if (g->kind->apply(g->state, &bot, &why) != 0) {
			log_bug("game %s: the bot's %s is refused: %s (%s)", g->id, bot.name,
			        why.rule ? why.rule : "-", why.detail);
			rc = -1;
			break;
		}
		g->version++;
		append(g, &bot, batch);
		memset(bot.body, 0, g->kind->event_size);
	}
	free(bot.body);
	return rc;
}

typedef enum { STEP_OK, STEP_REFUSED, STEP_REPEAT, STEP_BUG } step_rc;

/* Completes ev (the kind's prepare, which authorises it), applies it to g and lets the bots
 * act. STEP_OK: *batch (caller puts) holds the events to append, g is at its new version;
 * STEP_REFUSED: why says why; STEP_REPEAT: ev repeats what stands (g unchanged); STEP_BUG: a
 * bot's event was refused (logged). */
static step_rc step(table_game *g, table_event *ev, json_object **batch, table_refusal *why)
{
	table_view v;
	view_of(g, &v);
	*batch = NULL;
	if ((g->kind->prepare ? g->kind->prepare(g->state, &v, ev, why)
	                      : default_prepare(&v, ev, why)) != 0)
		return STEP_REFUSED;
	if (g->kind->repeats && g->kind->repeats(g->state, ev))
		return STEP_REPEAT;
	if (g->kind->apply(g->state, ev, why) != 0)
		return STEP_REFUSED;
	g->version++;
	*batch = jx_arr();
	append(g, ev, *batch);
	return bots_act(g, *batch) == 0 ? STEP_OK : STEP_BUG;
}

/* The finished result kept in games.result, with when the game was played (RFC 3339 UTC, for
 * the league history); NULL while the game goes on. Caller owns it. */
static json_object *result_of(const table_game *g)
{
	if (!g->kind->finished(g->state))
		return NULL;
	table_view v;
	view_of(g, &v);
	json_object *result = g->kind->result_json(g->state, &v);
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	jx_set_copy(result, "created_at", jx_str(g->created_at));
	jx_set_copy(result, "finished_at", jx_str(now));
	return result;
}

/* Appends the batch of events and stores the new version (and the result once finished) in one
 * statement (one round trip per move whatever the bots did); a game that finishes in a league
 * becomes a play in the same transaction. */
static db_status commit_events(db_conn *c, table_game *g, json_object *batch)
{
	json_object *result = result_of(g);
	const char *text = result ? jx_text(result) : NULL;
	db_status st = db_events_append(c, g->id, jx_text(batch), g->version, result != NULL, text);
	if (st == DB_OK && result && g->league[0] && g_finish_hook &&
	    g_finish_hook(c, g->id, g->league, g->kind->name, text) != 0)
		st = DB_FAIL;
	json_object_put(result);
	return st;
}

/* The locking write: one transaction (db_tx) around load with the row lock, step, append. The
 * success reply is built by the caller after COMMIT; refusals are replied here. */
static db_status mutate_tx(db_conn *c, void *arg)
{
	mutate_arg *a = arg;
	db_game_row row;
	table_refusal why;
	json_object *batch = NULL;
	http_resp_clear(a->resp);
	free(a->g);
	a->g = NULL;
	int rc = load(c, a->kind, a->id, a->hash, true, &a->g, &row, a->resp);
	db_game_row_clear(&row);
	if (rc != 0)
		return DB_ABORT;
	db_status st = DB_ABORT;
	switch (step(a->g, a->ev, &batch, &why)) {
	case STEP_OK:
		st = commit_events(c, a->g, batch);
		break;
	case STEP_REFUSED:
		table_reply_refusal(a->resp, &why);
		break;
	case STEP_REPEAT: /* an identical resubmission of what stands is answered as before */
		http_reply_json(a->resp, 200, state_reply(a->g));
		break;
	case STEP_BUG:
		reply_bug(a->resp, "a bot could not play");
		break;
	}
	json_object_put(batch);
	return st;
}

/* The optimistic write (one round trip): ev applied to the cached state, written by one
 * statement that checks the game is still at that version and the token still its own.
 * Returns 1 when it committed (*out: the game at its new version, caller frees), 0 when
 * nothing was written and the locking write must decide (no cached state, unknown token, a
 * refusal or a resubmission, a finish that records a league play, a version or token that no
 * longer holds), -1 when the connection failed with the statement sent (outcome unknown), -2
 * when a timeout cancelled the statement (nothing written: the row is held by someone else, and
 * the locking write would only wait for it again). ev itself is left as the request made it. */
static int mutate_fast(db_conn *c, const table_kind *kind, const char *id, const char *hash,
                       const table_event *ev, table_game **out)
{
	size_t size = game_size(kind);
	table_game *g = xmalloc(size);
	int cached = game_cache_get(id, g, size);
	int seat = cached >= 0 && g->kind == kind ? known_seat(g, hash) : -1;
	if (seat < 0) {
		free(g);
		return 0;
	}
	g->host = seat == 0;
	g->you = seat;
	table_event e = *ev; /* the kind's prepare completes the event: work on a copy */
	e.body = xmalloc(kind->event_size);
	memcpy(e.body, ev->body, kind->event_size);
	json_object *batch = NULL, *result = NULL;
	table_refusal why;
	int rc = 0;
	if (step(g, &e, &batch, &why) != STEP_OK)
		goto done;
	if (kind->finished(g->state) && g->league[0] && g_finish_hook)
		goto done; /* the league play is recorded in the locking write's transaction */
	result = result_of(g);
	bool applied = false;
	db_status st =
	    db_events_append_if(c, id, jx_text(batch), g->version, result != NULL,
	                        result ? jx_text(result) : NULL, cached, seat, hash, &applied);
	if (st == DB_UNAVAILABLE) {
		rc = -1;
	} else if (st == DB_BUSY) {
		rc = -2;
	} else if (st == DB_OK && applied) {
		rc = 1;
		*out = g;
		g = NULL;
	}
done:
	json_object_put(result);
	json_object_put(batch);
	free(e.body);
	free(g);
	return rc;
}

int table_mutate(const http_req *req, http_resp *resp, const table_kind *kind, table_event *ev)
{
	char hash[TOKEN_HASH_HEX + 1];
	if (request_token(req, false, hash, resp) != 0)
		return 0;
	const char *id = req->params[0];
	db_conn *c = db_thread_conn();
	if (c == NULL) {
		reply_db(resp, DB_UNAVAILABLE);
		return 0;
	}
	table_game *g = NULL;
	db_status st = DB_OK;
	stripe *s = stripe_of(id);
	turn t;
	if (!turn_take(s, &t, id)) {
		reply_db(resp, DB_BUSY);
		return 0;
	}
	int fast = mutate_fast(c, kind, id, hash, ev, &g);
	if (fast == -2) {
		st = DB_BUSY;
	} else if (fast == -1 && kind->repeats == NULL) {
		st = DB_UNAVAILABLE; /* it may have committed: only a kind that knows a resubmission
		                      * when it sees one may send the event again */
	} else if (fast != 1) {
		mutate_arg a = {.kind = kind, .id = id, .hash = hash, .ev = ev, .resp = resp};
		st = db_tx(c, false, mutate_tx, &a);
		g = a.g;
	}
	if (st == DB_OK) { /* committed: this state is the game at its new version */
		learn_token(g, hash, g->host ? 0 : g->you); /* and its claim is durable */
		game_cache_put(g->id, g->version, g, game_size(kind));
		live_changed(g->id, g->version);
	}
	turn_give(s, &t);
	if (st == DB_OK)
		http_reply_json(resp, 200, state_reply(g));
	else if (st != DB_ABORT)
		reply_db(resp, st);
	free(g);
	return 0;
}

/* ---- reads ---- */

static const table_kind *kind_or_404(const http_req *req, http_resp *resp)
{
	const table_kind *k = kind_of_path(req->path);
	if (k == NULL)
		http_reply_problem(resp, 404, "no such kind of game", NULL, NULL);
	return k;
}

int table_api_get(const http_req *req, http_resp *resp)
{
	const table_kind *kind = kind_or_404(req, resp);
	if (kind == NULL)
		return 0;
	table_game *g = table_load_for_read(req, resp, kind, req->params[0]);
	if (g == NULL)
		return 0;
	http_reply_json(resp, 200, state_reply(g));
	free(g);
	return 0;
}

typedef struct {
	table_game *g; /* replayed from the start, event by event */
	table_view v;
	table_event ev;
	json_object *log, *events;
	int failed;
} log_arg;

static int log_one(const db_event_row *row, void *arg)
{
	log_arg *a = arg;
	table_game *g = a->g;
	table_refusal why;
	json_object *e = jx_obj();
	jx_set(e, "version", jx_int(row->version));
	jx_set(e, "kind", jx_str(row->kind));
	jx_set(e, "seat", jx_int(row->seat));
	jx_set(e, "turn", jx_int(row->turn));
	jx_set(e, "payload", jx_parse_stored(row->payload));
	jx_set(e, "at", jx_str(row->at));
	jx_push(a->events, e);
	memset(a->ev.body, 0, g->kind->event_size);
	a->ev.name = row->kind;
	a->ev.seat = row->seat;
	a->ev.turn = row->turn;
	if (g->kind->event_decode(&a->ev, row->payload) != 0 ||
	    g->kind->apply(g->state, &a->ev, &why) != 0) {
		a->failed = row->version;
		return 1;
	}
	g->version = row->version;
	a->v.version = g->version;
	if (g->kind->log_step)
		g->kind->log_step(g->state, &a->ev, &a->v, a->log);
	return 0;
}

/* The log: every event, and whatever the kind adds while replaying (ER: turn by turn). */
int table_api_log(const http_req *req, http_resp *resp)
{
	char hash[TOKEN_HASH_HEX + 1];
	db_game_row row;
	table_game *now = NULL;
	const table_kind *kind = kind_or_404(req, resp);
	if (kind == NULL || request_token(req, false, hash, resp) != 0)
		return 0;
	db_conn *c = db_thread_conn();
	if (c == NULL)
		return reply_db(resp, DB_UNAVAILABLE);
	if (load(c, kind, req->params[0], hash, false, &now, &row, resp) != 0)
		goto out;
	log_arg a = {.g = xcalloc(1, game_size(kind)),
	             .ev = {.body = xcalloc(1, kind->event_size)}};
	memcpy(a.g, now, sizeof *now);
	if (init_state(a.g, row.config, resp) == 0) {
		view_of(a.g, &a.v);
		a.log = jx_obj();
		a.events = jx_arr();
		jx_set(a.log, "id", jx_str(now->id));
		jx_set(a.log, "status",
		       jx_str(kind->finished(now->state) ? "finished" : "playing"));
		jx_set(a.log, "version", jx_int(now->version));
		jx_set(a.log, "events", a.events);
		int stopped = 0;
		db_status st = db_events_log(c, now->id, now->version, log_one, &a, &stopped);
		if (st != DB_OK) {
			json_object_put(a.log);
			reply_db(resp, st);
		} else if (stopped) {
			log_bug("game %s: event %d does not replay in the log", now->id, a.failed);
			json_object_put(a.log);
			reply_bug(resp, "the stored game does not replay");
		} else {
			http_reply_json(resp, 200, a.log);
		}
	}
	free(a.ev.body);
	free(a.g);
out:
	db_game_row_clear(&row);
	free(now);
	return 0;
}

/* The version a stream resumes after: Last-Event-ID (or ?last_event_id=) when it is a version
 * this stream could have sent, decimal digits only from 0 to the game's current version;
 * anything else (signs, spaces, garbage, a version the game has not reached) is ignored and the
 * stream starts now, as without the header. Not a 400: browsers echo the last id we sent and
 * give up on an EventSource that gets an error, so a stray value should cost a resumption, not
 * the stream. */
static int resume_version(const char *last, int current)
{
	if (last == NULL || *last == '\0' || strlen(last) > 10)
		return 0;
	long long v = 0;
	for (const char *p = last; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		v = v * 10 + (*p - '0');
	}
	return v <= current && v <= INT_MAX ? (int)v : 0;
}

int table_api_events(const http_req *req, http_resp *resp)
{
	const table_kind *kind = kind_or_404(req, resp);
	if (kind == NULL)
		return 0;
	table_game *g = load_for_read(req, resp, kind, req->params[0], true);
	if (g == NULL)
		return 0;
	const char *last = http_header(req, "Last-Event-ID");
	if (last == NULL)
		last = http_query(req, "last_event_id");
	int rc = live_stream(req, resp, g->id, resume_version(last, g->version), g->version);
	free(g);
	return rc;
}

/* ---- create ---- */

typedef struct {
	const table_kind *kind;
	const table_new *n;
	/* out */
	char id[ID_LEN + 1], code[CODE_LEN + 1], host[TOKEN_LEN + 1];
	char seat_tokens[TABLE_MAX_SEATS][TOKEN_LEN + 1];
} create_arg;

static db_status create_tx(db_conn *c, void *arg)
{
	create_arg *a = arg;
	char hash[TOKEN_HASH_HEX + 1];
	bool inserted = false;
	db_status st = DB_FAIL;
	token_new(a->host);
	token_hash_hex(a->host, hash);
	/* A join code may collide with a live game's: draw again (ON CONFLICT DO NOTHING). */
	for (int attempt = 0; attempt < 8 && !inserted; attempt++) {
		id_new(a->id);
		code_new(a->code);
		st = db_game_insert(c, a->id, a->kind->name, a->code, hash, jx_text(a->n->config),
		                    a->n->league, &inserted);
		if (st != DB_OK)
			return st;
	}
	if (!inserted)
		return DB_FAIL;
	for (int s = 0; st == DB_OK && s < a->n->nseats; s++) {
		a->seat_tokens[s][0] = '\0';
		if (!a->n->bot[s]) {
			token_new(a->seat_tokens[s]);
			token_hash_hex(a->seat_tokens[s], hash);
		}
		st = db_seat_insert(c, a->id, s + 1, a->n->names[s], a->n->bot[s],
		                    a->n->bot[s] ? NULL : hash);
	}
	return st;
}

static json_object *create_reply(const create_arg *a)
{
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(a->id));
	jx_set(o, "kind", jx_str(a->kind->name));
	jx_set(o, "code", jx_str(a->code));
	jx_set(o, "host_token", jx_str(a->host));
	json_object *seats = jx_arr();
	for (int s = 0; s < a->n->nseats; s++) {
		json_object *so = jx_obj();
		jx_set(so, "seat", jx_int(s + 1));
		jx_set(so, "name", jx_str(a->n->names[s]));
		jx_set(so, "seat_token", a->n->bot[s] ? jx_null() : jx_str(a->seat_tokens[s]));
		jx_set(so, "bot", jx_bool(a->n->bot[s]));
		jx_push(seats, so);
	}
	jx_set(o, "seats", seats);
	if (a->kind->create_reply)
		a->kind->create_reply(a->n->config, o);
	jx_set(o, "version", jx_int(0));
	return o;
}

int table_api_create(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	table_new n = {0};
	table_refusal why;
	const table_kind *kind = kind_or_404(req, resp);
	if (kind == NULL || http_body_json(req, resp, &root) != 0)
		return 0;
	if (kind->create_parse(root, &n, &why) != 0) {
		table_reply_refusal(resp, &why);
		goto out;
	}
	db_conn *c = db_thread_conn();
	if (c == NULL) {
		reply_db(resp, DB_UNAVAILABLE);
		goto out;
	}
	/* a game recorded in a league is created by one of its owners or members */
	if (n.league && g_league_check && g_league_check(req, resp, c, n.league) != 0)
		goto out;
	create_arg *a = xcalloc(1, sizeof *a);
	a->kind = kind;
	a->n = &n;
	db_status st = db_tx(c, false, create_tx, a);
	if (st != DB_OK) {
		reply_db(resp, st);
	} else {
		char loc[128];
		http_reply_json(resp, 201, create_reply(a));
		snprintf(loc, sizeof loc, "/api/v1/%s/games/%s", kind->name, a->id);
		http_resp_header(resp, "Location", loc);
	}
	free(a);
out:
	json_object_put(n.config);
	json_object_put(root);
	return 0;
}

/* ---- join ---- */

/* Upper-cases a join code (codes are typed by people; the alphabet is upper case). */
static void code_upper(const char *code, char out[CODE_LEN + 1])
{
	size_t i = 0;
	for (; i < CODE_LEN && code[i]; i++)
		out[i] = (char)(code[i] >= 'a' && code[i] <= 'z' ? code[i] - 32 : code[i]);
	out[i] = '\0';
}

typedef struct {
	char code[CODE_LEN + 1];
	int seat;
	bool replace;
	char token[TOKEN_LEN + 1];
	db_join_row row;
	table_refusal why;
} join_arg;

static db_status join_tx(db_conn *c, void *arg)
{
	join_arg *a = arg;
	char hash[TOKEN_HASH_HEX + 1];
	db_status st = db_join_lock(c, a->code, a->seat, &a->row);
	if (st != DB_OK)
		return st;
	if (!a->row.found) {
		table_refuse(&a->why, 404, NULL, "/code",
		             "no game with this code has a player in this seat");
		return DB_ABORT;
	}
	if (a->row.claimed && !a->replace) {
		table_refuse(&a->why, 409, "seat-claimed", "/seat",
		             "a phone already plays %s's seat: send \"replace\": true to take it "
		             "over (that phone is told it lost the seat)",
		             a->row.name);
		return DB_ABORT;
	}
	token_new(a->token);
	token_hash_hex(a->token, hash);
	return db_join_take(c, a->row.game, a->seat,
	                    a->row.has_token ? a->row.token_hash_hex : NULL, hash);
}

/* POST /api/v1/join {"code","seat","replace"}: hands a phone its seat. Tokens are stored only as
 * hashes, so joining issues a fresh token for the seat; the previous one stops working (401
 * seat-replaced). A seat a phone has claimed needs "replace": true (409 seat-claimed). */
int table_api_join(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *code = NULL;
	int64_t seat = 0;
	js_error err = {{0}, {0}};
	join_arg *a = NULL;
	if (ratelimit_reply(g_join_limit, req, resp) || http_body_json(req, resp, &root) != 0)
		return 0;
	a = xcalloc(1, sizeof *a);
	const js_field f[] = {
	    {"code", JS_STRING, JS_F_REQUIRED, CODE_LEN, CODE_LEN, NULL, &code, NULL},
	    {"seat", JS_INT, JS_F_REQUIRED, 1, TABLE_MAX_SEATS, NULL, &seat, NULL},
	    {"replace", JS_BOOL, 0, 0, 0, NULL, &a->replace, NULL},
	};
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
		goto out;
	}
	code_upper(code, a->code);
	a->seat = (int)seat;
	db_conn *c = db_thread_conn();
	db_status st = c ? db_tx(c, false, join_tx, a) : DB_UNAVAILABLE;
	if (st == DB_ABORT) {
		table_reply_refusal(resp, &a->why);
	} else if (st != DB_OK) {
		reply_db(resp, st);
	} else {
		json_object *o = jx_obj();
		jx_set(o, "game", jx_str(a->row.game));
		jx_set(o, "kind", jx_str(a->row.kind));
		jx_set(o, "seat", jx_int(a->seat));
		jx_set(o, "name", jx_str(a->row.name));
		jx_set(o, "seat_token", jx_str(a->token));
		http_reply_json(resp, 200, o);
	}
out:
	free(a);
	json_object_put(root);
	return 0;
}

/* GET /api/v1/join/{code}: the seats a phone may join, by name, and which are claimed. */
int table_api_join_seats(const http_req *req, http_resp *resp)
{
	char code[CODE_LEN + 1], game[DB_NAME_MAX + 1], kind[DB_KIND_MAX + 1];
	db_seat_row seats[TABLE_MAX_SEATS];
	int n = 0;
	bool found = false;
	if (ratelimit_reply(g_join_limit, req, resp))
		return 0;
	if (strlen(req->params[0]) != CODE_LEN)
		return http_reply_problem(resp, 404, "no game has this code", NULL, NULL);
	code_upper(req->params[0], code);
	db_conn *c = db_thread_conn();
	db_status st = c ? db_game_by_code(c, code, &found, game, kind) : DB_UNAVAILABLE;
	if (st == DB_OK && found)
		st = db_seats_list(c, game, seats, TABLE_MAX_SEATS, &n);
	if (st != DB_OK)
		return reply_db(resp, st);
	if (!found)
		return http_reply_problem(resp, 404, "no game has this code", NULL, NULL);
	json_object *o = jx_obj(), *arr = jx_arr();
	jx_set(o, "game", jx_str(game));
	jx_set(o, "kind", jx_str(kind));
	for (int i = 0; i < n; i++) {
		json_object *s = jx_obj();
		jx_set(s, "seat", jx_int(seats[i].seat));
		jx_set(s, "name", jx_str(seats[i].name));
		jx_set(s, "bot", jx_bool(seats[i].bot));
		jx_set(s, "claimed", jx_bool(seats[i].claimed));
		jx_push(arr, s);
	}
	jx_set(o, "seats", arr);
	return http_reply_json(resp, 200, o);
}
