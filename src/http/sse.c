/* Server-sent events on suspended connections (sse.h).
 *
 * Every stream is a node of one list under g.lock. Its content-reader callback (sub_read, on
 * the connection's thread) sends what is buffered; when the buffer is empty it calls the fill
 * callback after a wake-up, or suspends the connection. Flags that other threads set (pending,
 * heartbeat, dead) and `suspended` are guarded by g.lock; the buffer belongs to the connection's
 * thread. A suspended connection is never closed by libmicrohttpd, so its socket stays valid
 * while the probe thread looks at it under g.lock. Ownership: a stream belongs to its
 * MHD_Response from sse_open on; sub_free unlinks and frees it (and its cls). */
#include "http/sse.h"

#include "base/alloc.h"
#include "base/log.h"
#include "base/oom.h"

#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

enum {
	SUB_BUF = 8 * 1024,
	PROBE_MS = 1000,
	KEEPIDLE_S = 4,         /* TCP keep-alive: first probe after 4 s of silence, */
	KEEPINTVL_S = 2,        /* then every 2 s, */
	KEEPCNT = 2,            /* dead after 2 unanswered: ≤ 8 s */
	USER_TIMEOUT_MS = 8000, /* unacknowledged data (a heartbeat to a vanished phone): ≤ 8 s */
};

typedef struct sub {
	struct sub *next;
	struct MHD_Connection *conn;
	int fd;
	char topic[64];
	char owner[128]; /* "" when none */
	sse_fill_fn fill;
	void *cls;
	void (*cls_free)(void *cls);
	/* guarded by g.lock */
	bool suspended, pending, heartbeat, dead;
	time_t last_sent; /* CLOCK_MONOTONIC seconds */
	/* the connection's thread only */
	size_t len, off;
	char buf[SUB_BUF];
} sub;

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	sub *subs;
	unsigned count;
	unsigned long ended; /* streams freed so far */
	sse_limits limits;
	bool closing, running;
	pthread_t prober;
} g = {.lock = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static time_t mono_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec;
}

/* Resumes a suspended stream so its reader runs. g.lock held. */
static void resume_locked(sub *s)
{
	s->pending = true;
	if (s->suspended) {
		s->suspended = false;
		MHD_resume_connection(s->conn);
	}
}

void sse_wake(const char *topic)
{
	pthread_mutex_lock(&g.lock);
	for (sub *s = g.subs; s; s = s->next)
		if (!topic || strcmp(s->topic, topic) == 0)
			resume_locked(s);
	pthread_mutex_unlock(&g.lock);
}

/* Is the peer of this socket gone (closed, reset, or timed out by keep-alive)? */
static bool peer_gone(int fd)
{
	char b;
	ssize_t n = recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
	if (n > 0)
		return false; /* bytes waiting (a pipelined request): alive */
	if (n == 0)
		return true; /* orderly shutdown */
	return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
}

/* Once a second: ends the suspended streams whose peer is gone, and wakes those due for a
 * heartbeat. */
static void *prober(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "sse-probe"); /* in top, perf and gdb */
	unsigned long trimmed = 0;
	pthread_mutex_lock(&g.lock);
	while (!g.closing) {
		struct timespec until; /* g.cv is on CLOCK_REALTIME (static initialiser) */
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += PROBE_MS / 1000;
		while (!g.closing && pthread_cond_timedwait(&g.cv, &g.lock, &until) == 0)
			;
		if (g.closing)
			break;
		if (g.ended != trimmed) {
			/* Streams ended since the last tick: hand their freed memory (buffers,
			 * connection pools, spread over the worker threads' arenas) back to the
			 * system, so RSS follows the number of streams down again. */
			trimmed = g.ended;
			pthread_mutex_unlock(&g.lock);
			alloc_release();
			pthread_mutex_lock(&g.lock);
			if (g.closing)
				break;
		}
		time_t now = mono_s();
		for (sub *s = g.subs; s; s = s->next) {
			if (!s->suspended)
				continue;
			if (peer_gone(s->fd)) {
				s->dead = true;
				resume_locked(s);
			} else if (now - s->last_sent >= SSE_HEARTBEAT_S) {
				s->heartbeat = true;
				resume_locked(s);
			}
		}
	}
	pthread_mutex_unlock(&g.lock);
	return NULL;
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
			pthread_mutex_lock(&g.lock);
			s->last_sent = mono_s();
			pthread_mutex_unlock(&g.lock);
			return (ssize_t)n;
		}
		s->off = s->len = 0;
		pthread_mutex_lock(&g.lock);
		if (s->dead || g.closing) {
			bool dead = s->dead;
			pthread_mutex_unlock(&g.lock);
			return dead ? MHD_CONTENT_READER_END_WITH_ERROR
			            : MHD_CONTENT_READER_END_OF_STREAM;
		}
		if (!s->pending) {
			s->suspended = true;
			MHD_suspend_connection(s->conn);
			pthread_mutex_unlock(&g.lock);
			return 0;
		}
		bool heartbeat = s->heartbeat;
		s->pending = s->heartbeat = false;
		pthread_mutex_unlock(&g.lock);
		bool again = false;
		long n = s->fill(s->cls, s->buf, SUB_BUF, &again);
		if (n < 0)
			return MHD_CONTENT_READER_END_OF_STREAM;
		s->len = (size_t)n < SUB_BUF ? (size_t)n : SUB_BUF;
		if (again) {
			pthread_mutex_lock(&g.lock);
			s->pending = true;
			pthread_mutex_unlock(&g.lock);
		}
		if (s->len == 0 && heartbeat)
			s->len = (size_t)snprintf(s->buf, SUB_BUF, ": keep-alive\n\n");
	}
}

static void sub_free(void *cls)
{
	sub *s = cls;
	pthread_mutex_lock(&g.lock);
	for (sub **pp = &g.subs; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			g.count--;
			g.ended++;
			break;
		}
	}
	pthread_mutex_unlock(&g.lock);
	if (s->cls_free)
		s->cls_free(s->cls);
	free(s);
}

/* TCP keep-alive and a user timeout, so a peer that vanished without a word (a phone out of
 * range) turns into a socket error within SSE_DEAD_S. Best effort (not a TCP socket: no-op). */
static void keepalive(int fd)
{
	int on = 1, idle = KEEPIDLE_S, intvl = KEEPINTVL_S, cnt = KEEPCNT;
	unsigned user = USER_TIMEOUT_MS;
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
	setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user, sizeof user);
}

/* Refuses with a problem (status 429 or 503) and frees the caller's cls. */
static int refuse(http_resp *resp, const sse_open_args *a, int status, const char *detail)
{
	if (a->cls_free)
		a->cls_free(a->cls);
	http_reply_problem(resp, status, detail, NULL, NULL);
	http_resp_header(resp, "Retry-After", status == 429 ? "10" : "5");
	return 0;
}

/* The cap a new stream of this topic/owner would cross, or NULL. g.lock held. */
static const char *over_cap_locked(const char *topic, const char *owner)
{
	unsigned same_topic = 0, same_owner = 0;
	for (const sub *s = g.subs; s; s = s->next) {
		same_topic += strcmp(s->topic, topic) == 0;
		same_owner += owner && strcmp(s->owner, owner) == 0;
	}
	if (g.limits.per_topic && same_topic >= g.limits.per_topic)
		return "too many event streams are open on this game; close one or retry later";
	if (g.limits.per_owner && same_owner >= g.limits.per_owner)
		return "too many event streams are open with this token; close one or retry later";
	return NULL;
}

int sse_open(const http_req *req, http_resp *resp, const sse_open_args *a)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(req->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!ci || !a->fill || !a->topic)
		return refuse(resp, a, 503, "event streams are unavailable");
	sub *s = xcalloc(1, sizeof *s);
	s->conn = req->conn;
	s->fd = ci->connect_fd;
	snprintf(s->topic, sizeof s->topic, "%s", a->topic);
	snprintf(s->owner, sizeof s->owner, "%s", a->owner ? a->owner : "");
	s->fill = a->fill;
	s->cls = a->cls;
	s->cls_free = a->cls_free;
	if (a->first)
		s->len = (size_t)snprintf(s->buf, SUB_BUF, "%s", a->first);
	s->pending = true; /* fill straight away */
	s->last_sent = mono_s();

	pthread_mutex_lock(&g.lock);
	const char *why =
	    g.closing ? "the server is stopping" : over_cap_locked(s->topic, a->owner);
	if (why) {
		bool closing = g.closing;
		pthread_mutex_unlock(&g.lock);
		free(s);
		if (!closing)
			log_client("sse: refused a stream of %s: %s", a->topic, why);
		return refuse(resp, a, closing ? 503 : 429, why);
	}
	s->next = g.subs;
	g.subs = s;
	g.count++;
	pthread_mutex_unlock(&g.lock);

	keepalive(s->fd);
	resp->status = 200;
	resp->content_type = "text/event-stream";
	resp->stream = sub_read;
	resp->stream_cls = s;
	resp->stream_free = sub_free;
	http_resp_header(resp, "Cache-Control", "no-cache");
	http_resp_header(resp, "X-Accel-Buffering", "no");
	return 0;
}

int sse_start(const sse_limits *limits)
{
	pthread_mutex_lock(&g.lock);
	if (g.running) {
		pthread_mutex_unlock(&g.lock);
		return -1;
	}
	g.limits = limits ? *limits : (sse_limits){0};
	g.closing = false;
	int rc = pthread_create(&g.prober, NULL, prober, NULL);
	g.running = rc == 0;
	pthread_mutex_unlock(&g.lock);
	if (rc != 0)
		log_warn("sse: cannot start the probe thread");
	return rc == 0 ? 0 : -1;
}

void sse_stop(void)
{
	pthread_mutex_lock(&g.lock);
	g.closing = true;
	for (sub *s = g.subs; s; s = s->next)
		resume_locked(s);
	bool running = g.running;
	g.running = false;
	pthread_cond_broadcast(&g.cv);
	pthread_mutex_unlock(&g.lock);
	if (running)
		pthread_join(g.prober, NULL);
}
