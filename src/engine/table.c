/* The table engine (table.h): the registry, write turns, replies, loading a game and the tokens
 * a process has seen; mutate.c writes, routes.c serves the routes every kind shares.
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
 * then "id:version" is NOTIFYed after the commit, in a batch (engine/live.h, db/notify.h). A read
 * replays exactly the events up to the version of the row it read (one snapshot), whatever commits
 * meanwhile. */
#include "engine/internal.h"
#include "base/clock.h"

static const table_kind *g_kinds[MAX_KINDS];
static int g_nkinds;
ratelimit *g_join_limit;
table_finish_hook g_finish_hook;
table_recorded_hook g_recorded_hook;
table_league_check g_league_check;
static stripe g_stripes[WRITE_STRIPES];

size_t eng_game_size(const table_kind *k)
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

void table_set_recorded_hook(table_recorded_hook hook)
{
	g_recorded_hook = hook;
}

void table_set_league_check(table_league_check check)
{
	g_league_check = check;
}

int table_league_allowed(const http_req *req, http_resp *resp, void *conn, const char *league)
{
	return g_league_check ? g_league_check(req, resp, conn, league) : 0;
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
	g_recorded_hook = NULL;
	g_league_check = NULL;
	for (int i = 0; i < WRITE_STRIPES; i++) {
		pthread_cond_destroy(&g_stripes[i].cv);
		pthread_mutex_destroy(&g_stripes[i].mu);
	}
}

/* The stripe of game `id` (FNV-1a of the id). */
stripe *eng_stripe_of(const char *id)
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
bool eng_turn_take(stripe *s, turn *t, const char *id)
{
	long ms = turn_wait_ms();
	struct timespec until = clock_in_ms(ms);
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

bool eng_turn_try(stripe *s, turn *t, const char *id)
{
	pthread_mutex_lock(&s->mu);
	bool ok = !turn_is_taken(s, id);
	if (ok) {
		t->id = id;
		t->next = s->taken;
		s->taken = t;
	}
	pthread_mutex_unlock(&s->mu);
	return ok;
}

void eng_turn_give(stripe *s, turn *t)
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
const table_kind *eng_kind_of_path(const char *path)
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
int eng_reply_db(http_resp *resp, db_status st)
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

int eng_reply_bug(http_resp *resp, const char *detail)
{
	http_resp_clear(resp);
	return http_reply_problem(resp, 500, detail, NULL, NULL);
}

void eng_view_of(const table_game *g, table_view *v)
{
	*v = (table_view){
	    .id = g->id,
	    .code = g->display ? "" : g->code, /* the join code lets a phone take a seat */
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

json_object *eng_state_reply(const table_game *g)
{
	table_view v;
	eng_view_of(g, &v);
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(g->id));
	jx_set(o, "kind", jx_str(g->kind->name));
	if (!g->display)
		jx_set(o, "code", jx_str(g->code));
	jx_set(o, "status", jx_str(g->kind->finished(g->state) ? "finished" : "playing"));
	jx_set(o, "version", jx_int(g->version));
	if (g->league[0])
		jx_set(o, "league", jx_str(g->league));
	jx_set(o, "created_at", jx_str(g->created_at));
	if (g->finished_at[0])
		jx_set(o, "finished_at", jx_str(g->finished_at));
	g->kind->state_json(g->state, &v, o);
	if (g->you)
		jx_set(o, "you", jx_int(g->you));
	return o;
}

void eng_state_text(const table_game *g, jw *w)
{
	table_view v;
	eng_view_of(g, &v);
	jw_obj(w);
	jw_kstr(w, "id", g->id);
	jw_kstr(w, "kind", g->kind->name);
	if (!g->display)
		jw_kstr(w, "code", g->code);
	jw_kstr(w, "status", g->kind->finished(g->state) ? "finished" : "playing");
	jw_kint(w, "version", g->version);
	if (g->league[0])
		jw_kstr(w, "league", g->league);
	jw_kstr(w, "created_at", g->created_at);
	if (g->finished_at[0])
		jw_kstr(w, "finished_at", g->finished_at);
	g->kind->state_text(g->state, &v, w);
	if (g->you)
		jw_kint(w, "you", g->you);
	jw_obj_end(w);
}

int eng_reply_state(http_resp *resp, const table_game *g)
{
	if (g->kind->state_text == NULL)
		return http_reply_json(resp, 200, eng_state_reply(g));
	jw *w = jw_thread(); /* this thread's buffer: the reply below takes a copy */
	eng_state_text(g, w);
	return http_reply_json_text(resp, 200, w->s.b, w->s.len);
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
		return eng_reply_db(resp, st), -1;
	if (stopped) {
		log_bug("game %s: event %d does not replay (%s)", g->id, a.failed_version,
		        a.why.detail);
		return eng_reply_bug(resp, "the stored game does not replay"), -1;
	}
	return 0;
}

/* The kind's initial state from the configuration (version 0). */
int eng_init_state(table_game *g, const char *config, http_resp *resp)
{
	g->version = 0;
	memset(g->state, 0, g->kind->state_size);
	if (g->kind->init(g->state, config, g->nseats) != 0) {
		log_bug("game %s has an unreadable configuration", g->id);
		return eng_reply_bug(resp, "the stored game is unreadable"), -1;
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
		return eng_reply_db(resp, st), -1;
	g->nseats = n;
	for (int i = 0; i < n; i++) {
		int s = seats[i].seat;
		if (s < 1 || s > TABLE_MAX_SEATS)
			continue;
		snprintf(g->names[s - 1], sizeof g->names[0], "%s", seats[i].name);
		g->bot[s - 1] = seats[i].bot;
	}
	return eng_init_state(g, config, resp);
}

/* ---- tokens this process has seen ---- */

/* The seat (0: the host) a known token authenticated as, or -1. */
int eng_known_seat(const table_game *g, const char *hash)
{
	for (int i = 0; i < g->ntokens && i < KNOWN_TOKENS; i++)
		if (strcmp(g->tokens[i].hash, hash) == 0)
			return g->tokens[i].seat;
	return -1;
}

/* Remembers that hash authenticates as seat (0: the host); true when g changed. */
bool eng_learn_token(table_game *g, const char *hash, int seat)
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
	size_t size = eng_game_size(kind);
	table_game *g = xmalloc(size);
	unsigned epoch = db_server_epoch();
	int version = game_cache_get(id, g, size);
	int n = version < 0 ? 0 : g->ntokens;
	for (int i = 0; i < n && i < KNOWN_TOKENS; i++) {
		if (strcmp(g->tokens[i].hash, hash) == 0) {
			memmove(&g->tokens[i], &g->tokens[i + 1],
			        (size_t)(n - 1 - i) * sizeof g->tokens[0]);
			g->ntokens--;
			game_cache_put(id, version, g, size, epoch);
			break;
		}
	}
	free(g);
}

/* Authenticates a token against the game row: the host's, a seat's, the display's (reads only:
 * a write gets 403 display-read-only), or one that a join replaced (401 seat-replaced), a
 * display token a newer one replaced (401 display-replaced) or a stranger's (401). hash NULL:
 * no authentication. */
static int authenticate(const db_game_row *row, const char *hash, bool write, http_resp *resp)
{
	if (hash == NULL || row->is_host || row->token_seat)
		return 0;
	if (row->is_display && !write)
		return 0;
	if (row->is_display) {
		http_reply_problem(resp, 403, "a display token only reads the game",
		                   "display-read-only", NULL);
		return -1;
	}
	if (row->replaced_display) {
		http_reply_problem(
		    resp, 401, "the host made a new link for the table's display; open that one",
		    "display-replaced", NULL);
		return -1;
	}
	if (row->replaced_seat) {
		http_reply_problem(resp, 401,
		                   "another phone has taken this seat; join again to play it",
		                   "seat-replaced", NULL);
		return -1;
	}
	http_reply_problem(resp, 401, "this token does not belong to this game", NULL, NULL);
	return -1;
}

/* Marks the seat claimed (a phone has used its token); false when done. A read on a
 * libmicrohttpd thread waits for no lock on the seat's row (a join taking it, a session
 * holding it): the request is deferred to a waiting thread (http_defer) instead. Otherwise
 * replies and returns true. */
static bool claim_seat(db_conn *c, const char *id, int seat, bool lock, http_resp *resp)
{
	bool nowait = !lock && !http_may_wait();
	if (nowait)
		db_conn_nowait(c, true);
	db_status st = db_seat_claim(c, id, seat);
	bool refused = nowait && st != DB_OK && db_conn_lock_refused(c);
	if (nowait)
		db_conn_nowait(c, false);
	if (refused)
		http_defer(resp);
	else if (st != DB_OK)
		eng_reply_db(resp, st);
	return st != DB_OK;
}

/* Reads the game row (locking it when `lock`, which only a write does), authenticates, and
 * builds the state at the row's version. On success *out is the game (caller frees) and *row
 * its row (caller clears); otherwise replies and returns -1. */
int eng_load(db_conn *c, const table_kind *kind, const char *id, const char *hash, bool lock,
             table_game **out, db_game_row *row, http_resp *resp)
{
	*out = NULL;
	unsigned epoch = db_server_epoch(); /* the server the state is read from (game_cache.h) */
	db_status st = db_game_get(c, id, hash, lock, row);
	if (st != DB_OK)
		return eng_reply_db(resp, st), -1;
	if (!row->found || strcmp(row->kind, kind->name) != 0) {
		http_reply_problem(resp, 404, "no such game", NULL, NULL);
		return -1;
	}
	if (authenticate(row, hash, lock, resp) != 0) {
		forget_token(kind, id, hash);
		return -1;
	}
	size_t size = eng_game_size(kind);
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
		eng_reply_bug(resp, "the stored game does not replay");
		goto fail;
	}
	g->host = row->is_host;
	g->you = row->token_seat;
	g->display = row->is_display;
	snprintf(g->code, sizeof g->code, "%s", row->code);
	snprintf(g->league, sizeof g->league, "%s", row->league);
	snprintf(g->created_at, sizeof g->created_at, "%s", row->created_at);
	snprintf(g->finished_at, sizeof g->finished_at, "%s", row->finished_at);
	/* a seat is claimed once a phone has used its token */
	if (row->token_seat && !row->token_claimed &&
	    claim_seat(c, id, row->token_seat, lock, resp))
		goto fail;
	/* A token is remembered once its seat's claim is durable: claimed before this request, or
	 * just now outside a transaction (a read). Inside the locking write the claim may still
	 * roll back with a refused event: table_mutate remembers the token after the commit. */
	bool learnt = hash &&
	              (row->is_host || (row->token_seat && (row->token_claimed || !lock))) &&
	              eng_learn_token(g, hash, row->is_host ? 0 : row->token_seat);
	if (cached != row->version || learnt)
		game_cache_put(id, row->version, g, size, epoch);
	*out = g;
	return 0;
fail:
	free(g);
	return -1;
}

/* The request's token hashed into hash, or a 401 reply and -1. */
int eng_request_token(const http_req *req, bool query_allowed, char hash[TOKEN_HASH_HEX + 1],
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

table_game *eng_load_for_read(const http_req *req, http_resp *resp, const table_kind *kind,
                              const char *id, bool query_allowed)
{
	char hash[TOKEN_HASH_HEX + 1];
	db_game_row row;
	table_game *g = NULL;
	if (eng_request_token(req, query_allowed, hash, resp) != 0)
		return NULL;
	db_conn *c = db_thread_conn();
	if (c == NULL) {
		eng_reply_db(resp, DB_UNAVAILABLE);
		return NULL;
	}
	eng_load(c, kind, id, hash, false, &g, &row, resp);
	db_game_row_clear(&row);
	return g;
}

table_game *table_load_for_read(const http_req *req, http_resp *resp, const table_kind *kind,
                                const char *id)
{
	return eng_load_for_read(req, resp, kind, id, false);
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
	eng_view_of(g, v);
}

table_game *table_load_trusted(void *conn, http_resp *resp, const table_kind *kind, const char *id)
{
	db_game_row row;
	table_game *g = NULL;
	eng_load(conn, kind, id, NULL, false, &g, &row, resp);
	db_game_row_clear(&row);
	return g;
}

json_object *table_game_json(const table_game *g)
{
	return eng_state_reply(g);
}
