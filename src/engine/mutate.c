/* Mutations of a game (table_mutate): the optimistic one-round-trip write on the cached state,
 * else the locking transaction; bots act after the humans; the finished result and its league
 * hook; the events appended and NOTIFYed after the commit. */
#include "engine/internal.h"
#include "engine/writegroup.h"

#include <pthread.h>

/* ---- the thread's game buffer ---- */

/* The optimistic write works on a copy of the cached state (several kilobytes): each thread
 * keeps one buffer for it, grown to the largest kind it met and freed with the thread, instead
 * of allocating it per move. */
typedef struct {
	table_game *g;
	size_t cap;
} game_buf;

static pthread_key_t g_buf_key;
static pthread_once_t g_buf_once = PTHREAD_ONCE_INIT;
static bool g_buf_key_ok;
static _Thread_local game_buf *t_buf;

static void game_buf_free(void *p)
{
	game_buf *b = p;
	free(b->g);
	free(b);
}

static void game_buf_key(void)
{
	g_buf_key_ok = pthread_key_create(&g_buf_key, game_buf_free) == 0;
}

/* This thread's buffer of at least size bytes (its contents undefined); it stays the thread's. */
static table_game *thread_game(size_t size)
{
	game_buf *b = t_buf;
	if (b == NULL) {
		pthread_once(&g_buf_once, game_buf_key);
		b = xcalloc(1, sizeof *b);
		if (g_buf_key_ok)
			pthread_setspecific(g_buf_key, b); /* freed with the thread */
		t_buf = b;
	}
	if (b->cap < size) {
		free(b->g);
		b->g = xmalloc(size);
		b->cap = size;
	}
	return b->g;
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
static void append(table_game *g, const table_event *ev, db_event_batch *batch)
{
	json_object *payload = g->kind->event_encode(ev);
	size_t len;
	const char *text = json_object_to_json_string_length(payload, JSON_C_TO_STRING_PLAIN, &len);
	db_event_batch_add(batch, g->version, ev->name, ev->seat, ev->turn, text, len);
	json_object_put(payload);
}

/* Lets the bots act while they should; each action is an event of its own. Returns -1 (logged
 * as our bug) if the kind refuses its own bot's event. */
static int bots_act(table_game *g, db_event_batch *batch)
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
 * act. STEP_OK: batch (the caller's, empty, freed by the caller whatever the outcome) holds the
 * events to append, g is at its new version;
 * STEP_REFUSED: why says why; STEP_REPEAT: ev repeats what stands (g unchanged); STEP_BUG: a
 * bot's event was refused (logged). */
static step_rc step(table_game *g, table_event *ev, db_event_batch *batch, table_refusal *why)
{
	table_view v;
	eng_view_of(g, &v);
	if ((g->kind->prepare ? g->kind->prepare(g->state, &v, ev, why)
	                      : default_prepare(&v, ev, why)) != 0)
		return STEP_REFUSED;
	if (g->kind->repeats && g->kind->repeats(g->state, ev))
		return STEP_REPEAT;
	if (g->kind->apply(g->state, ev, why) != 0)
		return STEP_REFUSED;
	g->version++;
	append(g, ev, batch);
	return bots_act(g, batch) == 0 ? STEP_OK : STEP_BUG;
}

/* The finished result kept in games.result, with when the game was played (RFC 3339 UTC, for
 * the league history, and g's finished_at for its state); NULL while the game goes on. Caller
 * owns it. */
static json_object *result_of(table_game *g)
{
	if (!g->kind->finished(g->state))
		return NULL;
	table_view v;
	eng_view_of(g, &v);
	json_object *result = g->kind->result_json(g->state, &v);
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	jx_set_copy(result, "created_at", jx_str(g->created_at));
	jx_set_copy(result, "finished_at", jx_str(now));
	snprintf(g->finished_at, sizeof g->finished_at, "%s", now);
	return result;
}

/* Appends the batch of events and stores the new version (and the result once finished) in one
 * statement (one round trip per move whatever the bots did); a game that finishes in a league
 * becomes a play in the same transaction. */
static db_status commit_events(db_conn *c, table_game *g, db_event_batch *batch)
{
	json_object *result = result_of(g);
	const char *text = result ? jx_text(result) : NULL;
	db_status st = db_events_append(c, g->id, batch, g->version, result != NULL, text);
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
	db_event_batch batch = {0};
	http_resp_clear(a->resp);
	free(a->g);
	a->g = NULL;
	int rc = eng_load(c, a->kind, a->id, a->hash, true, &a->g, &row, a->resp);
	db_game_row_clear(&row);
	if (rc != 0)
		return DB_ABORT;
	db_status st = DB_ABORT;
	switch (step(a->g, a->ev, &batch, &why)) {
	case STEP_OK:
		st = commit_events(c, a->g, &batch);
		break;
	case STEP_REFUSED:
		table_reply_refusal(a->resp, &why);
		break;
	case STEP_REPEAT: /* an identical resubmission of what stands is answered as before */
		eng_reply_state(a->resp, a->g);
		break;
	case STEP_BUG:
		eng_reply_bug(a->resp, "a bot could not play");
		break;
	}
	db_event_batch_free(&batch);
	return st;
}

/* The optimistic write's work before its statement: ev applied to a copy of the cached state,
 * the bots' answers, the events and the finished result. */
typedef struct {
	table_game *g;        /* the game after the events, in the thread's game buffer */
	db_event_batch batch; /* owned */
	char *result;         /* the finished result (JSON text, owned), NULL while playing */
	int cached;           /* the version the events were computed on */
	int seat;             /* whose token writes (0: the host) */
	bool claim;           /* a phone's first move: the statement claims the seat */
} fast_write;

static void fast_write_free(fast_write *fw)
{
	db_event_batch_free(&fw->batch);
	free(fw->result);
	fw->result = NULL;
}

/* The optimistic write of ev on g, a state at version `cached` in the thread's game buffer (left
 * at its new version): 1 when fw is ready to send (the caller frees it with fast_write_free), 0
 * when the locking write must decide (a token that is not the seat's it writes for, a refusal
 * or a resubmission, a finish that records a league play). With may_claim, a token g does not
 * know that writes for a seat a phone plays is tried as that seat's. ev itself is left as the
 * request made it. */
static int fast_step(const table_kind *kind, table_game *g, int cached, const char *hash,
                     const table_event *ev, bool may_claim, fast_write *fw)
{
	memset(fw, 0, sizeof *fw);
	int seat = eng_known_seat(g, hash);
	bool claim = may_claim && seat < 0 && ev->seat >= 1 && ev->seat <= g->nseats &&
	             !g->bot[ev->seat - 1];
	if (claim)
		seat = ev->seat;
	if (seat < 0)
		return 0;
	g->host = seat == 0;
	g->you = seat;
	g->display = false;
	table_event e = *ev; /* the kind's prepare completes the event: work on a copy */
	e.body = xmalloc(kind->event_size);
	memcpy(e.body, ev->body, kind->event_size);
	table_refusal why;
	int rc = 0;
	if (step(g, &e, &fw->batch, &why) != STEP_OK)
		goto done;
	if (kind->finished(g->state) && g->league[0] && g_finish_hook)
		goto done; /* the league play is recorded in the locking write's transaction */
	json_object *result = result_of(g);
	fw->result = result ? xstrdup(jx_text(result)) : NULL;
	json_object_put(result);
	fw->g = g;
	fw->cached = cached;
	fw->seat = seat;
	fw->claim = claim;
	rc = 1;
done:
	if (rc != 1)
		db_event_batch_free(&fw->batch);
	free(e.body);
	return rc;
}

/* Prepares the optimistic write of ev on the cached state (fast_step: fw ready when it returns
 * 1), 0 when none is cached (fw untouched).
 * A token this process has not seen, writing for a seat a phone plays, is tried as that
 * seat's, whose claim the same statement makes (a phone's first move is one statement, not
 * the locking write's five). Any other token is not the seat's: the statement writes nothing,
 * and the locking write answers. */
static int fast_prepare(const table_kind *kind, const char *id, const char *hash,
                        const table_event *ev, fast_write *fw)
{
	size_t size = eng_game_size(kind);
	table_game *g = thread_game(size);
	int cached = game_cache_get(id, g, size);
	if (cached < 0 || g->kind != kind)
		return 0;
	return fast_step(kind, g, cached, hash, ev, true, fw);
}

/* The optimistic write (one round trip): the prepared events, written by one statement that
 * checks the game is still at that version and the token still its own.
 * Returns 1 when it committed (*out: the game at its new version, in the thread's game buffer:
 * not to be freed, valid until the thread's next optimistic write), 0 when
 * nothing was written and the locking write must decide (fast_prepare's cases, a version or
 * token that no longer holds), -1 when the connection failed with the statement sent (outcome
 * unknown), -2 when a timeout cancelled the statement (nothing written: the row is held by
 * someone else, and the locking write would only wait for it again). */
static int mutate_fast(db_conn *c, const table_kind *kind, const char *id, const char *hash,
                       const table_event *ev, table_game **out)
{
	fast_write fw;
	if (fast_prepare(kind, id, hash, ev, &fw) != 1)
		return 0;
	bool applied = false;
	db_status st = db_events_append_if(c, id, &fw.batch, fw.g->version, fw.result != NULL,
	                                   fw.result, fw.cached, fw.seat, fw.claim, hash, &applied);
	int rc = 0;
	if (st == DB_UNAVAILABLE) {
		rc = -1;
	} else if (st == DB_BUSY) {
		rc = -2;
	} else if (st == DB_OK && applied) {
		rc = 1;
		*out = fw.g;
	}
	fast_write_free(&fw);
	return rc;
}

/* Takes game id's turn into t: waiting for it where this thread may wait, else only when it is
 * free. false: 503 replied (waited too long), or deferred (http_defer) when it was taken. */
static bool turn_take(stripe *s, turn *t, const char *id, bool may_wait, http_resp *resp)
{
	if (!may_wait && !eng_turn_try(s, t, id)) {
		http_defer(resp);
		return false;
	}
	if (may_wait && !eng_turn_take(s, t, id)) {
		eng_reply_db(resp, DB_BUSY);
		return false;
	}
	return true;
}

/* After a committed write: the host's token playing a seat claims it (table_kind's
 * host_plays_event), so the join list shows it taken. Best effort, after the commit: a row
 * held by a join is not waited for (the next such write tries again), and a failure leaves the
 * write as it stands. */
static void host_claim(db_conn *c, table_game *g, const table_event *ev, bool may_wait)
{
	const char *plays = g->kind->host_plays_event;
	if (!g->host || plays == NULL || strcmp(ev->name, plays) != 0 || ev->seat < 1 ||
	    ev->seat > g->nseats || g->bot[ev->seat - 1] ||
	    (g->host_claimed >> (ev->seat - 1)) & 1u)
		return;
	db_conn_nowait(c, !may_wait);
	if (db_seat_claim(c, g->id, ev->seat) == DB_OK)
		g->host_claimed |= 1u << (ev->seat - 1);
	db_conn_nowait(c, false);
}

/* ---- writes handed to a write group (engine/writegroup.h) ---- */

enum { CHAIN_MAX = TABLE_MAX_SEATS + 1 }; /* writes of a game in one entry at most */

/* A libmicrohttpd thread's optimistic write, its reply parked (http_park) until a group thread
 * has sent its statement with others: everything the rest of the request needs, owned. The
 * write that waits in the queue holds its game's turn; later writes of the game chained to it
 * (`then`) go in its entry and are answered by its done. */
typedef struct parked_write {
	wg_write base; /* first member: the group hands back &base */
	http_ticket *ticket;
	const table_kind *kind;
	table_game *g; /* the game after the events (owned copy) */
	fast_write fw; /* the events and the result (fw.g: not used) */
	/* the request's event: its static name and seat, for host_claim; its body (owned) only
	 * while a write to chain waits to be chained, else NULL */
	table_event ev;
	struct parked_write *then; /* the next write of the game in this entry (owned) */
	char id[TABLE_ID_MAX + 1];
	char hash[TOKEN_HASH_HEX + 1];
	stripe *s;
	turn t; /* the game's write turn, held until done (the entry's first write) */
	unsigned epoch;
} parked_write;

static void parked_free(parked_write *p)
{
	while (p) {
		parked_write *then = p->then;
		fast_write_free(&p->fw);
		free(p->ev.body);
		free(p->g);
		free(p);
		p = then;
	}
}

/* The rest of table_mutate for the entry's writes, which committed: each token learnt and its
 * host claim made, the last state cached and announced. */
static void entry_committed(parked_write *head, db_conn *c)
{
	parked_write *last = head;
	while (last->then)
		last = last->then;
	table_game *end = last->g; /* the game after the entry: what the cache keeps */
	for (parked_write *p = head; p; p = p->then) {
		eng_learn_token(end, p->hash, p->g->host ? 0 : p->g->you); /* claims are durable */
		if (c)
			host_claim(c, p->g, &p->ev, false);
		end->host_claimed |= p->g->host_claimed;
	}
	game_cache_put(end->id, end->version, end, eng_game_size(head->kind), head->epoch);
	live_changed(end->id, end->version);
}

/* On a group thread, once the statement ran: the rest of table_mutate for the entry's writes
 * that committed, each answered with the game at its own version; an entry that did not commit
 * runs again where waiting is allowed (the locking write decides), as does one whose statement
 * a held row cut short; one whose outcome is unknown (the connection died) only for a kind that
 * knows a resubmission, else 503. */
static void parked_done(wg_write *w, db_conn *c, db_status st)
{
	parked_write *head = (parked_write *)w;
	bool ok = st == DB_OK && w->w.applied; /* the entry's writes went all or none */
	if (ok)
		entry_committed(head, c);
	eng_turn_give(head->s, &head->t);
	for (parked_write *p = head; p; p = p->then) {
		http_resp *resp = http_ticket_resp(p->ticket);
		if (ok)
			eng_reply_state(resp, p->g);
		else if (st == DB_UNAVAILABLE && p->kind->repeats == NULL)
			eng_reply_db(resp, DB_UNAVAILABLE);
		else
			http_defer(resp);
	}
	http_ticket *tickets[CHAIN_MAX];
	int n = 0;
	for (parked_write *p = head; p; p = p->then)
		tickets[n++] = p->ticket;
	parked_free(head);
	for (int i = 0; i < n; i++)
		http_ticket_done(tickets[i]);
}

/* p's write from the prepared fw (taken over) and the state fw->g (copied). */
static void parked_fill(parked_write *p, fast_write *fw)
{
	size_t size = eng_game_size(p->kind);
	p->g = xmalloc(size);
	memcpy(p->g, fw->g, size);
	p->fw = *fw;
	p->fw.g = NULL;
	memset(fw, 0, sizeof *fw);
	db_append_one *one = &p->base.w;
	one->id = p->id;
	one->events = &p->fw.batch;
	one->version = p->g->version;
	one->finished = p->fw.result != NULL;
	one->result = p->fw.result;
	one->expected = p->fw.cached;
	one->seat = p->fw.seat;
	one->claim = p->fw.claim;
	one->hash_hex = p->hash;
	p->base.done = parked_done;
}

/* On the connection's thread, once it is suspended: the write joins the next group. */
static void parked_start(http_ticket *t, void *arg)
{
	parked_write *p = arg;
	p->ticket = t;
	writegroup_push(&p->base);
}

/* A libmicrohttpd thread's write of a game this process holds: handed to a write group when
 * it can be the optimistic write. 1: parked (the turn goes with it); 0: not (p still the
 * caller's, the turn held). */
static int try_park(parked_write *p, const table_event *ev, http_resp *resp)
{
	fast_write fw;
	if (fast_prepare(p->kind, p->id, p->hash, ev, &fw) != 1)
		return 0;
	parked_fill(p, &fw);
	http_park(resp, parked_start, p);
	return 1;
}

/* With the groups' queue held (writegroup_chain), w the game's write waiting there: the write p
 * computed on the state w's entry leaves, and chained to it — when p's token is one this
 * process knows (a token not seen yet would risk the whole entry) and the write is one the
 * optimistic write may make. */
static bool chain_onto(wg_write *w, void *arg)
{
	parked_write *head = (parked_write *)w, *p = arg, *last = head;
	int n = 1;
	for (; last->then; last = last->then)
		n++;
	if (head->kind != p->kind || n >= CHAIN_MAX)
		return false;
	size_t size = eng_game_size(p->kind);
	table_game *g = thread_game(size);
	memcpy(g, last->g, size);
	fast_write fw;
	if (fast_step(p->kind, g, g->version, p->hash, &p->ev, false, &fw) != 1)
		return false;
	parked_fill(p, &fw);
	free(p->ev.body);
	p->ev.body = NULL;
	last->then = p;
	last->base.w.next = &p->base.w;
	return true;
}

/* On the connection's thread, once it is suspended: the write joins its game's entry waiting
 * in the queue; when that entry was sent meanwhile, or the write cannot be chained, it runs
 * again where waiting is allowed, as a write that found the turn taken. */
static void chained_start(http_ticket *t, void *arg)
{
	parked_write *p = arg;
	p->ticket = t;
	if (writegroup_chain(p->id, chain_onto, p))
		return; /* the entry's done answers it */
	http_defer_untried(http_ticket_resp(t));
	parked_free(p);
	http_ticket_done(t);
}

/* A libmicrohttpd thread's write of a game whose write waits in the groups' queue (holding
 * the game's turn): parked to be chained to it (p taken over, with a copy of ev). */
static int chain_park(parked_write *p, const table_event *ev, http_resp *resp)
{
	p->ev = *ev;
	p->ev.body = xmalloc(p->kind->event_size);
	memcpy(p->ev.body, ev->body, p->kind->event_size);
	return http_park(resp, chained_start, p);
}

int table_mutate(const http_req *req, http_resp *resp, const table_kind *kind, table_event *ev)
{
	char hash[TOKEN_HASH_HEX + 1];
	if (eng_request_token(req, false, hash, resp) != 0)
		return 0;
	const char *id = req->params[0];
	db_conn *c = db_thread_conn();
	if (c == NULL) {
		eng_reply_db(resp, DB_UNAVAILABLE);
		return 0;
	}
	unsigned epoch = db_server_epoch(); /* the server what follows reads from (game_cache.h) */
	table_game *g = NULL; /* owned, unless it is the thread's buffer (fast == 1) */
	db_status st = DB_OK;
	stripe *s = eng_stripe_of(id);
	/* A libmicrohttpd thread waits neither for the turn nor for the game's row: whenever it
	 * would, nothing is written and the request runs again on a waiting thread. Nor for its
	 * optimistic write's statement, when write groups run: that goes with the next group. */
	bool may_wait = http_may_wait();
	parked_write *p = NULL;
	turn tl;
	turn *t = &tl;
	if (!may_wait && writegroup_on()) {
		p = xcalloc(1, sizeof *p);
		p->kind = kind;
		/* for host_claim; chain_park copies the body too */
		p->ev = (table_event){.name = ev->name, .seat = ev->seat};
		p->s = s;
		p->epoch = epoch;
		snprintf(p->id, sizeof p->id, "%s", id);
		memcpy(p->hash, hash, sizeof p->hash);
		t = &p->t;
		id = p->id;
	}
	if (p && !eng_turn_try(s, t, id)) {
		if (writegroup_waiting(id)) /* the turn is a parked write's, still in the queue */
			return chain_park(p, ev, resp);
		free(p);
		return http_defer(resp);
	}
	if (!p && !turn_take(s, t, id, may_wait, resp))
		return 0;
	if (p && try_park(p, ev, resp) == 1)
		return 0; /* the turn goes with the parked write */
	db_conn_nowait(c, !may_wait);
	/* A write that could not be parked cannot be the optimistic one either, nor can one whose
	 * group's statement did not take it: the locking write decides. */
	int fast = p || req->after_park ? 0 : mutate_fast(c, kind, id, hash, ev, &g);
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
	bool defer = !may_wait && st != DB_OK && db_conn_lock_refused(c);
	db_conn_nowait(c, false);
	if (st == DB_OK) { /* committed: this state is the game at its new version */
		eng_learn_token(g, hash, g->host ? 0 : g->you); /* and its claim is durable */
		host_claim(c, g, ev, may_wait);
		game_cache_put(g->id, g->version, g, eng_game_size(kind), epoch);
		live_changed(g->id, g->version);
	}
	eng_turn_give(s, t);
	if (st == DB_OK && !defer && g->league[0] && kind->finished(g->state) && g_recorded_hook)
		g_recorded_hook(req, c); /* commit_events ran the finish hook */
	if (defer) /* the row is held: nothing was written, the turn is given back */
		http_defer(resp);
	else if (st == DB_OK)
		eng_reply_state(resp, g);
	else if (st != DB_ABORT)
		eng_reply_db(resp, st);
	if (fast != 1)
		free(g);
	free(p); /* after the turn it held is given back */
	return 0;
}
