/* Server-sent events on libmicrohttpd with suspend/resume, fed by PostgreSQL LISTEN/NOTIFY.
 *
 * Each stream is a subscriber in a global list (mutex-protected). Its content-reader callback
 * sends what is buffered; when the buffer is empty it either fills it from the events table
 * (after a wake-up) or suspends the connection. A wake-up (a notification for its game, the
 * listener reconnecting, a heartbeat every HEARTBEAT_S, shutdown) resumes it. Ownership: a
 * subscriber belongs to its MHD response; stream_free unlinks and frees it. */
#include "api/live.h"

#include <errno.h>
#include <json-c/json.h>
#include <microhttpd.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { HEARTBEAT_S = 15, SUB_BUF = 16 * 1024, BATCH = 64 };

typedef struct sub {
	struct sub *next;
	struct MHD_Connection *conn;
	char game[64];
	int last;       /* the last version sent */
	bool suspended; /* guarded by g_lock */
	bool pending;   /* a wake-up arrived while not suspended */
	bool heartbeat;
	char buf[SUB_BUF];
	size_t len, off;
} sub;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static sub *g_subs;
static atomic_bool g_closing;
static pthread_t g_listener;
static bool g_listener_started;
static char *g_conninfo;

/* Wakes matching subscribers (game NULL: all). Called with g_lock held. */
static void wake_locked(const char *game, bool heartbeat)
{
	for (sub *s = g_subs; s; s = s->next) {
		if (game && strcmp(s->game, game) != 0)
			continue;
		if (heartbeat)
			s->heartbeat = true;
		s->pending = true;
		if (s->suspended) {
			s->suspended = false;
			MHD_resume_connection(s->conn);
		}
	}
}

static void wake(const char *game, bool heartbeat)
{
	pthread_mutex_lock(&g_lock);
	wake_locked(game, heartbeat);
	pthread_mutex_unlock(&g_lock);
}

/* Appends the events after s->last (at most BATCH) as SSE messages. */
static void fill_from_db(sub *s)
{
	db_conn *c = db_thread_conn();
	char last[16];
	snprintf(last, sizeof last, "%d", s->last);
	const char *p[2] = {s->game, last};
	PGresult *r = c ? db_exec(c, "events_since", 2, p) : NULL;
	if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK) {
		PQclear(r);
		return; /* the database is away: the next wake-up tries again */
	}
	for (int i = 0; i < PQntuples(r); i++) {
		int n = snprintf(s->buf + s->len, SUB_BUF - s->len,
		                 "id: %s\nevent: %s\ndata: {\"version\":%s,\"kind\":\"%s\","
		                 "\"seat\":%s,\"turn\":%s}\n\n",
		                 PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), PQgetvalue(r, i, 0),
		                 PQgetvalue(r, i, 1), PQgetvalue(r, i, 2), PQgetvalue(r, i, 3));
		if (n < 0 || (size_t)n >= SUB_BUF - s->len)
			break; /* full: the rest goes out after this batch */
		s->len += (size_t)n;
		s->last = atoi(PQgetvalue(r, i, 0));
	}
	bool more = PQntuples(r) == BATCH;
	PQclear(r);
	if (more)
		wake(s->game, false);
}

static ssize_t sub_read(void *cls, uint64_t pos, char *out, size_t max)
{
	sub *s = cls;
	(void)pos;
	for (;;) {
		if (s->off < s->len) {
			size_t n = s->len - s->off < max ? s->len - s->off : max;
			memcpy(out, s->buf + s->off, n);
			s->off += n;
			return (ssize_t)n;
		}
		s->off = s->len = 0;
		pthread_mutex_lock(&g_lock);
		if (atomic_load(&g_closing)) {
			pthread_mutex_unlock(&g_lock);
			return MHD_CONTENT_READER_END_OF_STREAM;
		}
		if (!s->pending) {
			s->suspended = true;
			MHD_suspend_connection(s->conn);
			pthread_mutex_unlock(&g_lock);
			return 0;
		}
		bool heartbeat = s->heartbeat;
		s->pending = s->heartbeat = false;
		pthread_mutex_unlock(&g_lock);
		fill_from_db(s);
		if (s->len == 0 && heartbeat)
			s->len = (size_t)snprintf(s->buf, SUB_BUF, ": keep-alive\n\n");
	}
}

static void sub_free(void *cls)
{
	sub *s = cls;
	pthread_mutex_lock(&g_lock);
	for (sub **pp = &g_subs; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	pthread_mutex_unlock(&g_lock);
	free(s);
}

int live_stream(const http_req *req, http_resp *resp, const char *game_id, int from, int current)
{
	sub *s = calloc(1, sizeof *s);
	if (s == NULL)
		return http_reply_problem(resp, 500, "out of memory", NULL, NULL);
	s->conn = req->conn;
	snprintf(s->game, sizeof s->game, "%s", game_id);
	/* Without Last-Event-ID the stream starts now: a hello names the current version (and is
	 * its id, so a reconnect resumes from there). */
	s->last = from > 0 ? from : current;
	if (from > 0)
		s->len = (size_t)snprintf(s->buf, SUB_BUF, "retry: 2000\n\n");
	else
		s->len =
		    (size_t)snprintf(s->buf, SUB_BUF,
		                     "retry: 2000\nid: %d\nevent: hello\ndata: {\"version\":%d}"
		                     "\n\n",
		                     current, current);
	s->pending = true; /* look for events after `last` straight away */
	pthread_mutex_lock(&g_lock);
	s->next = g_subs;
	g_subs = s;
	pthread_mutex_unlock(&g_lock);
	resp->status = 200;
	resp->content_type = "text/event-stream";
	resp->stream = sub_read;
	resp->stream_cls = s;
	resp->stream_free = sub_free;
	http_resp_header(resp, "Cache-Control", "no-cache");
	http_resp_header(resp, "X-Accel-Buffering", "no");
	return 0;
}

/* ---- the listener thread ---- */

static void listen_notice(void *arg, const char *message)
{
	(void)arg;
	fprintf(stderr, "live: listener: %s", message);
}

static PGconn *listen_connect(void)
{
	PGconn *pg = PQconnectdb(g_conninfo);
	if (PQstatus(pg) != CONNECTION_OK) {
		PQfinish(pg);
		return NULL;
	}
	PQsetNoticeProcessor(pg, listen_notice, NULL);
	PGresult *r = PQexec(pg, "LISTEN game_events");
	bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
	PQclear(r);
	if (!ok) {
		PQfinish(pg);
		return NULL;
	}
	return pg;
}

static void dispatch(PGconn *pg)
{
	PGnotify *n;
	while ((n = PQnotifies(pg)) != NULL) {
		char game[64];
		const char *colon = strrchr(n->extra, ':');
		size_t len = colon ? (size_t)(colon - n->extra) : strlen(n->extra);
		if (len < sizeof game) {
			memcpy(game, n->extra, len);
			game[len] = '\0';
			wake(game, false);
		}
		PQfreemem(n);
	}
}

static void *listener(void *arg)
{
	(void)arg;
	PGconn *pg = NULL;
	time_t last_beat = time(NULL);
	while (!atomic_load(&g_closing)) {
		if (pg == NULL) {
			pg = listen_connect();
			if (pg == NULL) {
				sleep(1);
				continue;
			}
			wake(NULL, false); /* catch up on whatever was missed meanwhile */
		}
		struct pollfd pfd = {.fd = PQsocket(pg), .events = POLLIN};
		int rc = poll(&pfd, 1, 500);
		if (rc > 0 && PQconsumeInput(pg) == 0) {
			PQfinish(pg);
			pg = NULL;
			continue;
		}
		dispatch(pg);
		if (PQstatus(pg) != CONNECTION_OK) {
			PQfinish(pg);
			pg = NULL;
		}
		if (time(NULL) - last_beat >= HEARTBEAT_S) {
			last_beat = time(NULL);
			wake(NULL, true);
		}
	}
	PQfinish(pg);
	return NULL;
}

int live_start(const char *conninfo)
{
	g_conninfo = strdup(conninfo ? conninfo : "");
	if (g_conninfo == NULL)
		return -1;
	atomic_store(&g_closing, false);
	if (pthread_create(&g_listener, NULL, listener, NULL) != 0)
		return -1;
	g_listener_started = true;
	return 0;
}

void live_shutdown(void)
{
	pthread_mutex_lock(&g_lock);
	atomic_store(&g_closing, true);
	wake_locked(NULL, false);
	pthread_mutex_unlock(&g_lock);
	if (g_listener_started)
		pthread_join(g_listener, NULL);
	g_listener_started = false;
	free(g_conninfo);
	g_conninfo = NULL;
}
