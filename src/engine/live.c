/* Live updates of a game: the API glue between the LISTEN thread (db/listen.c), the generic
 * event streams (http/sse.c) and the events table.
 *
 * A notification "game:version" wakes the streams of that game; a woken stream reads the
 * events after the last version it sent (db_events_since, at most 64 per call) and
 * formats each as one server-sent event. Reading from the table rather than from the
 * notification means a stream that missed notifications (listener reconnecting) catches up.
 *
 * A token that a join or a new display link replaced ends its streams: the replacing request
 * posts "game:-1" after its commit; every process's listener then counts one more change of
 * tokens in the game's stripe (TOKEN_STRIPES, by hash of the id) and wakes its streams, and a
 * woken stream whose stripe counted a change since its last look asks the database whether its
 * token is one that was replaced (db_token_replaced), ending the stream if so. A catch-all
 * notification, which may stand for lost ones, counts a change in every stripe.
 * Ownership: a live_sub belongs to its stream (sse.h) and is freed by it. */
#include "engine/live.h"

#include "engine/tokens.h"
#include "base/log.h"
#include "base/oom.h"
#include "db/games.h"
#include "db/listen.h"
#include "db/notify.h"
#include "http/sse.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	BATCH = 64,          /* events per read */
	TOKEN_STRIPES = 256, /* counters of token changes, by hash of the game id */
	TOKENS_CHANGED = -1, /* the version of a "game:-1" notification: its tokens changed */
};

/* How many times tokens changed in each stripe of games (any thread; only ever grows). */
static atomic_uint g_token_changes[TOKEN_STRIPES];

typedef struct {
	char game[64];
	int last;                       /* the last version sent */
	char token[TOKEN_HASH_HEX + 1]; /* the hash of the stream's token ("" when none) */
	unsigned changes;               /* its stripe's count when the token was last checked */
} live_sub;

/* The stripe of game id (FNV-1a). */
static atomic_uint *token_stripe(const char *id)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)id; *p; p++)
		h = (h ^ *p) * 16777619u;
	return &g_token_changes[h % TOKEN_STRIPES];
}

unsigned live_token_changes(const char *game_id)
{
	return atomic_load(token_stripe(game_id));
}

/* Has the stream's token been replaced? Asked only when tokens of its stripe changed since the
 * last answer; false when the database cannot say (asked again at the next wake-up). */
static bool token_gone(live_sub *s, db_conn *c)
{
	unsigned now = live_token_changes(s->game);
	if (s->token[0] == '\0' || now == s->changes)
		return false;
	bool replaced = false;
	if (db_token_replaced(c, s->game, s->token, &replaced) != DB_OK)
		return false;
	s->changes = now;
	return replaced;
}

typedef struct {
	live_sub *s;
	char *buf;
	size_t room, len;
	int rows;
	bool full;
} fill_arg;

/* One event as one SSE message; stops the walk when the buffer is full. */
static int fill_one(const db_event_row *row, void *arg)
{
	fill_arg *a = arg;
	a->rows++;
	int n = snprintf(a->buf + a->len, a->room - a->len,
	                 "id: %d\nevent: %s\ndata: {\"version\":%d,\"kind\":\"%s\","
	                 "\"seat\":%d,\"turn\":%d}\n\n",
	                 row->version, row->kind, row->version, row->kind, row->seat, row->turn);
	if (n < 0 || (size_t)n >= a->room - a->len) {
		a->full = true; /* the rest comes with the next call */
		return 1;
	}
	a->len += (size_t)n;
	a->s->last = row->version;
	return 0;
}

/* Appends the events after s->last as SSE messages: `id: version`, `event: kind`,
 * `data: {"version","kind","seat","turn"}`; -1 (the stream ends) once its token is replaced. */
static long live_fill(void *cls, char *buf, size_t room, bool *again)
{
	fill_arg a = {.s = cls, .buf = buf, .room = room};
	db_conn *c = db_thread_conn();
	if (c != NULL && token_gone(a.s, c))
		return -1;
	if (c == NULL ||
	    db_events_since(c, a.s->game, a.s->last, BATCH, fill_one, &a, NULL) != DB_OK)
		return 0; /* the database is away: the next wake-up tries again */
	*again = a.full || a.rows == BATCH;
	return (long)a.len;
}

int live_stream(const http_req *req, http_resp *resp, const char *game_id, int from, int current,
                unsigned changes)
{
	live_sub *s = xcalloc(1, sizeof *s);
	snprintf(s->game, sizeof s->game, "%s", game_id);
	s->changes = changes;
	/* Without Last-Event-ID the stream starts now: a hello names the current version (and is
	 * its id, so a reconnect resumes from there). */
	s->last = from > 0 ? from : current;
	char first[128];
	if (from > 0)
		snprintf(first, sizeof first, "retry: 2000\n\n");
	else
		snprintf(first, sizeof first,
		         "retry: 2000\nid: %d\nevent: hello\ndata: {\"version\":%d}\n\n", current,
		         current);
	/* Capped per token (its hash: the token itself never sits in memory longer than the
	 * request) and per game (sse.h). */
	const char *token = token_for_stream(req);
	if (token)
		token_hash_hex(token, s->token);
	sse_open_args a = {
	    .topic = game_id,
	    .owner = token ? s->token : NULL,
	    .first = first,
	    .fill = live_fill,
	    .cls = s,
	    .cls_free = free,
	};
	return sse_open(req, resp, &a);
}

/* A notification: wake the game's streams (id NULL after a reconnection: all of them). The
 * streams read what follows their own last version; a change of tokens (or a catch-all, which
 * may stand for one) has them check their tokens too. */
static void on_notify(void *cls, const char *id, int version)
{
	(void)cls;
	if (id == NULL)
		for (int i = 0; i < TOKEN_STRIPES; i++)
			atomic_fetch_add(&g_token_changes[i], 1);
	else if (version == TOKENS_CHANGED)
		atomic_fetch_add(token_stripe(id), 1);
	sse_wake(id);
}

int live_start(const char *conninfo)
{
	if (db_notify_start(conninfo, "game_events") != 0)
		return -1;
	if (db_listen_start(conninfo, "game_events", on_notify, NULL) == 0)
		return 0;
	db_notify_stop();
	return -1;
}

void live_changed(const char *game_id, int version)
{
	char payload[DB_NOTIFY_PAYLOAD_MAX];
	int n = snprintf(payload, sizeof payload, "%s:%d", game_id, version);
	db_notify_post(n > 0 && (size_t)n < sizeof payload ? payload : DB_NOTIFY_ALL);
}

void live_tokens_changed(const char *game_id)
{
	char payload[DB_NOTIFY_PAYLOAD_MAX];
	int n = snprintf(payload, sizeof payload, "%s:%d", game_id, TOKENS_CHANGED);
	db_notify_post(n > 0 && (size_t)n < sizeof payload ? payload : DB_NOTIFY_ALL);
}

void live_stop_notifier(void)
{
	db_notify_stop();
	db_notify_stats st;
	db_notify_stats_get(&st);
	if (st.batches) /* how well the notifier batched: changes per statement */
		log_info("live: %lu change(s) announced in %lu notification statement(s)", st.sent,
		         st.batches);
}

void live_shutdown(void)
{
	sse_stop();
	db_listen_stop();
}
