/* The libmicrohttpd daemon: per-request context, body accumulation with a cap, dispatch to the
 * route table or to static files, problem+json errors, access log, graceful stop.
 *
 * Request life cycle (the standard MHD pattern):
 *   uri_log()      request line parsed: allocate the context (raw target, start time), count
 *                  the request as in flight;
 *   on_request #1  headers parsed: 414 / 413 by Content-Length / 404 / 405 / 415 / 503, and
 *                  what the route's pre-body check refuses (401, 403, …), are answered at once
 *                  (MHD then closes the connection instead of reading a body);
 *   on_request #n  body bytes: appended up to the route's cap (HTTP_MAX_BODY unless the route sets
 * max_body), then discarded (→ 413); on_request end body complete: the handler runs and its
 * http_resp is queued (a heavy route's handler runs on the job pool while the connection is
 * suspended; the call after the resume queues its response); completed()    access-log line,
 * context freed, in-flight count decremented.
 *
 * Ownership: the context belongs to MHD's per-request slot (*con_cls) and is freed only in
 * completed(); http_resp contents move into the MHD_Response when queued (queue_resp). */
#include "http/http.h"

#include "base/log.h"
#include "base/oom.h"
#include "http/jobs.h"
#include "http/sse.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <microhttpd.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

enum {
	MEMORY_LIMIT = 32 * 1024, /* per connection: request line, headers, write buffer */
	DISCARD_LIMIT = 16 * HTTP_MAX_BODY, /* read past the cap before we hang up on a client */
	DRAIN_S = 10,                       /* http_stop waits this long for in-flight requests */
	NOTE_LEN = 300,
	PER_ADDR_DEFAULT = 64,   /* connections per client address */
	DEADLINE_DEFAULT_S = 10, /* a request's head and body */
	REFUSED_DEADLINE_S = 2,  /* a refused connection gets its 429/503 or goes within this */
	CROWDED_HEAD_MS = 2000,  /* the head deadline when every slot is waiting for a head */
	REAP_MS = 250,           /* how often deadlines are checked */
	MAX_TRUSTED = 16,        /* trusted proxy addresses */
	FD_RESERVE = 64,         /* descriptors beyond the connections: DB, files, pipes, log */
	JOB_QUEUE_DEFAULT = 64,  /* heavy requests waiting for a job thread; beyond: 503 */
	/* the connection limit when none is configured: as many as the descriptor limit allows,
	 * up to this (each connection may hold MEMORY_LIMIT: 256 MiB in all) */
	AUTO_CONN_MAX = 8192,
};

/* One TCP connection (MHD's socket context), in the server's list under cmu from
 * MHD_CONNECTION_NOTIFY_STARTED to _CLOSED. Owned by the server; freed at CLOSED. The reaper
 * may shutdown(2) its socket while holding cmu: CLOSED takes cmu before MHD closes the fd, so
 * the descriptor is still this connection's. */
typedef struct conn_slot {
	struct conn_slot *prev, *next;
	int fd;
	struct in6_addr addr; /* IPv4 as IPv4-mapped */
	char addr_text[INET6_ADDRSTRLEN];
	bool trusted;   /* a trusted proxy: X-Forwarded-For names the client */
	bool receiving; /* waiting for a request's head and body (guarded by cmu) */
	bool head;      /* waiting for (the rest of) a request's head: evictable (cmu) */
	bool cut;       /* deadline passed or evicted, socket shut down (cmu) */
	int refuse;     /* 0, or 429 / 503: answer that to its first request and close */
	unsigned deadline_s;
	struct timespec since; /* when it started waiting for the current request */
} conn_slot;

struct http_server {
	struct MHD_Daemon *d;
	http_config cfg;
	char root[PATH_MAX]; /* resolved static_dir, "" when unusable */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned active; /* requests between uri_log() and completed() */
	atomic_bool stopping;
	/* connections, deadlines, per-address caps */
	pthread_mutex_t cmu;
	pthread_cond_t rcv; /* wakes the reaper to stop (CLOCK_MONOTONIC) */
	conn_slot *conns;
	unsigned nconns; /* in the list */
	unsigned ncut;   /* of those, shut down and about to close */
	bool reaper_run;
	pthread_t reaper;
	struct in6_addr trusted[MAX_TRUSTED]; /* networks (IPv4 as IPv4-mapped) */
	unsigned trusted_bits[MAX_TRUSTED];   /* their prefix lengths (0–128) */
	int ntrusted;
	char *tls_cert, *tls_key; /* PEM contents */
	jobs *jobs;               /* heavy routes' pool; NULL: they run on the MHD threads */
};

typedef struct {
	http_server *srv;
	struct timespec t0;
	char *raw;      /* target, credentials redacted (capture_target), cut at '?' once parsed */
	size_t raw_len; /* its full length */
	bool started, replied, too_large, is_static;
	const http_route *route;
	const char *params[HTTP_MAX_PARAMS];
	int nparams;
	char pbuf[HTTP_MAX_URL]; /* decoded parameters */
	char *body;              /* accumulated body, NUL-terminated */
	size_t len, cap, discarded;
	size_t max_body; /* the route's cap (HTTP_MAX_BODY unless the route says otherwise) */
	int status;
	char method[16];
	char note[NOTE_LEN]; /* detail of an error reply, for the log */
	/* An error decided before the body (414, 404, 405, …) on a request without a body is
	 * answered on the final call instead of at once: MHD closes the connection after an
	 * early reply, and a client that sent nothing more deserves its keep-alive. */
	int pending;
	const char *pending_detail, *pending_header;
	char pending_value[64];
	bool close;           /* answer with Connection: close (a refused connection) */
	struct heavy_job *hj; /* a heavy route's job (see run_heavy), freed in completed() */
} req_ctx;

/* A heavy route's request on the job pool. finish() creates it on the connection's thread and
 * suspends the connection; from jobs_push on, the job thread owns it (resp included: every
 * json-c object the handler makes stays on that thread), sets done and resumes the
 * connection as its last act; then the connection's thread owns it again: finish() queues
 * resp, completed() frees it. */
typedef struct heavy_job {
	job base; /* first member: the pool hands back &base */
	req_ctx *c;
	struct MHD_Connection *conn;
	http_req req; /* path points to path below, params into c->pbuf, body to c->body */
	char path[HTTP_MAX_URL + 1];
	http_resp resp;
	atomic_bool done;
} heavy_job;

/* ---- logging ---- */

/* Copies s into dst with control and non-ASCII bytes replaced, at most max bytes. */
static void sanitize(char *dst, size_t dstlen, const char *s, size_t max)
{
	size_t n = 0;
	for (; s && *s && n + 1 < dstlen && n < max; s++)
		dst[n++] =
		    (*s < 0x20 || *s == 0x7f || (unsigned char)*s >= 0x80 || *s == '"') ? '?' : *s;
	dst[n] = '\0';
}

/* Query parameters whose values are credentials: the seat token (the event stream takes it as
 * ?token=, EventSource cannot send headers), its usual other spelling, and qr.svg's data (the
 * seat links that the front end draws as QR codes carry seat tokens). */
static const char *const SECRET_PARAMS[] = {"token", "access_token", "data"};
static const char REDACTED[] = "REDACTED";

static int hex_digit(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch |= 0x20;
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* Is the query parameter name n[0..len) one of SECRET_PARAMS? libmicrohttpd decodes a name
 * and looks it up without regard to case, so "%54oken" names the token too. */
static bool secret_name(const char *n, size_t len)
{
	char dec[16];
	size_t k = 0;
	for (size_t i = 0; i < len; i++) {
		if (k + 1 >= sizeof dec)
			return false; /* longer than any secret name */
		int hi = n[i] == '%' && i + 2 < len ? hex_digit((unsigned char)n[i + 1]) : -1;
		int lo = hi >= 0 ? hex_digit((unsigned char)n[i + 2]) : -1;
		if (hi >= 0 && lo >= 0) {
			dec[k++] = (char)(hi * 16 + lo);
			i += 2;
		} else {
			dec[k++] = n[i];
		}
	}
	dec[k] = '\0';
	for (size_t j = 0; j < sizeof SECRET_PARAMS / sizeof SECRET_PARAMS[0]; j++)
		if (strcasecmp(dec, SECRET_PARAMS[j]) == 0)
			return true;
	return false;
}

/* Copies src into dst (dstlen > 0 bytes, always NUL-terminated, cut to fit) with the value of
 * every credential query parameter replaced by REDACTED. A parameter starts after each '?'
 * or '&' (a superset of libmicrohttpd's split, which starts at the first '?' only); its value
 * runs from the '=' to the next '&' or, when text is a log message rather than a request
 * target, to the next blank or quote too. Returns the length written. */
static size_t redact(char *dst, size_t dstlen, const char *src, bool text)
{
	const char *stops = text ? "& \t\r\n'\"`" : "&";
	size_t n = 0;
	const char *p = src;
	while (*p && n + 1 < dstlen) {
		char ch = *p++;
		dst[n++] = ch;
		if (ch != '?' && ch != '&')
			continue;
		size_t name = strcspn(p, text ? "=&? \t\r\n'\"`" : "=&");
		if (p[name] != '=' || !secret_name(p, name))
			continue;
		size_t keep = name + 1 < dstlen - 1 - n ? name + 1 : dstlen - 1 - n;
		memcpy(dst + n, p, keep);
		n += keep;
		size_t r =
		    sizeof REDACTED - 1 < dstlen - 1 - n ? sizeof REDACTED - 1 : dstlen - 1 - n;
		memcpy(dst + n, REDACTED, r);
		n += r;
		p += name + 1;
		p += strcspn(p, stops);
	}
	dst[n] = '\0';
	return n;
}

/* The request target as the server keeps it (for routing and the access log): src with its
 * credential query values redacted, cut after HTTP_MAX_URL + 1 bytes (longer is a 414). The
 * raw target is never stored, so no log line can carry a token. Owned by the caller. */
static char *capture_target(const char *src)
{
	size_t eq = 0, len = strnlen(src, HTTP_MAX_URL + 1);
	for (size_t i = 0; i < len; i++)
		eq += src[i] == '=';
	size_t cap = len + 1 + eq * (sizeof REDACTED - 1);
	char *t = xmalloc(cap);
	size_t n = redact(t, cap, src, false);
	if (n > HTTP_MAX_URL + 1)
		t[HTTP_MAX_URL + 1] = '\0';
	return t;
}

static void mhd_logger(void *cls, const char *fm, va_list ap)
{
	char buf[512], clean[512];
	(void)cls;
	vsnprintf(buf, sizeof buf, fm, ap);
	size_t n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	/* its messages name a request by libmicrohttpd's path, without the query; redacted
	 * anyway, so that no version of the library can put a token in the log */
	redact(clean, sizeof clean, buf, true);
	log_warn("mhd: %s", clean);
}

/* ---- connections: deadlines and per-address caps ---- */

static long long ms_since(const struct timespec *t0, const struct timespec *t1)
{
	return (long long)(t1->tv_sec - t0->tv_sec) * 1000 + (t1->tv_nsec - t0->tv_nsec) / 1000000;
}

/* An address as IPv6 (IPv4 as IPv4-mapped), so one comparison covers both. */
static void addr_from_sockaddr(const struct sockaddr *sa, struct in6_addr *out)
{
	memset(out, 0, sizeof *out);
	if (sa && sa->sa_family == AF_INET) {
		out->s6_addr[10] = out->s6_addr[11] = 0xff;
		memcpy(out->s6_addr + 12, &((const struct sockaddr_in *)(const void *)sa)->sin_addr,
		       4);
	} else if (sa && sa->sa_family == AF_INET6) {
		*out = ((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
	}
}

static void addr_to_text(const struct in6_addr *a, char *buf, size_t len)
{
	if (IN6_IS_ADDR_V4MAPPED(a))
		inet_ntop(AF_INET, a->s6_addr + 12, buf, (socklen_t)len);
	else
		inet_ntop(AF_INET6, a, buf, (socklen_t)len);
}

/* A numeric IPv4 or IPv6 address; false when text is not one. */
static bool addr_parse(const char *text, struct in6_addr *out)
{
	struct in_addr v4;
	memset(out, 0, sizeof *out);
	if (inet_pton(AF_INET, text, &v4) == 1) {
		out->s6_addr[10] = out->s6_addr[11] = 0xff;
		memcpy(out->s6_addr + 12, &v4, 4);
		return true;
	}
	return inet_pton(AF_INET6, text, out) == 1;
}

/* Is a inside the network net/bits? */
static bool in_network(const struct in6_addr *a, const struct in6_addr *net, unsigned bits)
{
	unsigned whole = bits / 8, rest = bits % 8;
	if (memcmp(a->s6_addr, net->s6_addr, whole) != 0)
		return false;
	if (rest == 0)
		return true;
	unsigned char mask = (unsigned char)(0xff << (8 - rest));
	return (a->s6_addr[whole] & mask) == (net->s6_addr[whole] & mask);
}

static conn_slot *slot_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *i =
	    conn ? MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT) : NULL;
	return i ? i->socket_context : NULL;
}

/* Logs a refusal at most once a second (an attack must not flood the log). */
static void log_refusal(const char *addr, int status, unsigned count)
{
	static atomic_llong last;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	long long now = (long long)t.tv_sec, prev = atomic_load(&last);
	if (now != prev && atomic_compare_exchange_strong(&last, &prev, now))
		log_client("http: refusing connections (%d) from %s, which has %u open", status,
		           addr, count);
}

/* Shuts a connection's socket (libmicrohttpd sees the hang-up and closes it). cmu held. */
static void cut_slot(http_server *srv, conn_slot *sl)
{
	if (sl->cut || sl->fd < 0)
		return;
	shutdown(sl->fd, SHUT_RDWR);
	sl->cut = true;
	srv->ncut++;
}

/* At the connection limit: shuts the connection that has waited longest for a request's head
 * (a refused one first), so that a new connection which sends its request whole is served
 * rather than refused. A slow-header client loses its slot to a prompt one, an idle
 * keep-alive connection (nothing in flight) too; a request whose head is in is never
 * touched. No grace period: a new connection is only at risk after conn_limit newer ones
 * arrived before its head did. Returns false when no connection waits for a head. cmu held. */
static bool evict_slowest_head(http_server *srv)
{
	conn_slot *victim = NULL;
	for (conn_slot *sl = srv->conns; sl; sl = sl->next) {
		if (!sl->head || sl->cut || sl->fd < 0)
			continue;
		bool older = !victim || sl->since.tv_sec < victim->since.tv_sec ||
		             (sl->since.tv_sec == victim->since.tv_sec &&
		              sl->since.tv_nsec < victim->since.tv_nsec);
		if (!victim || (sl->refuse && !victim->refuse) ||
		    (!sl->refuse == !victim->refuse && older))
			victim = sl;
	}
	if (!victim)
		return false;
	cut_slot(srv, victim);
	return true;
}

/* Logs at most once a second that connections are being evicted. */
static void log_eviction(unsigned limit)
{
	static atomic_llong last;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	long long now = (long long)t.tv_sec, prev = atomic_load(&last);
	if (now != prev && atomic_compare_exchange_strong(&last, &prev, now))
		log_client("http: %u connections: closing those that waited longest for a request",
		           limit);
}

/* STARTED: a slot in the list. Over the per-address cap, the connection is marked to be
 * refused (its first request gets 429 and it must send it within REFUSED_DEADLINE_S), far
 * over it shut at once. At the connection limit the slowest connection still waiting for a
 * head makes room (evict_slowest_head); when there is none, 503 the same way as 429.
 * CLOSED: the slot goes. */
static void notify_conn(void *cls, struct MHD_Connection *conn, void **sctx,
                        enum MHD_ConnectionNotificationCode toe)
{
	http_server *srv = cls;
	if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		conn_slot *sl = *sctx;
		if (!sl)
			return;
		pthread_mutex_lock(&srv->cmu);
		if (sl->prev)
			sl->prev->next = sl->next;
		else
			srv->conns = sl->next;
		if (sl->next)
			sl->next->prev = sl->prev;
		srv->nconns--;
		if (sl->cut)
			srv->ncut--;
		pthread_mutex_unlock(&srv->cmu);
		free(sl);
		*sctx = NULL;
		return;
	}
	const union MHD_ConnectionInfo *fi =
	    MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	const union MHD_ConnectionInfo *ai =
	    MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	conn_slot *sl = xcalloc(1, sizeof *sl);
	sl->fd = fi ? fi->connect_fd : -1;
	addr_from_sockaddr(ai ? ai->client_addr : NULL, &sl->addr);
	addr_to_text(&sl->addr, sl->addr_text, sizeof sl->addr_text);
	for (int i = 0; i < srv->ntrusted; i++)
		sl->trusted =
		    sl->trusted || in_network(&sl->addr, &srv->trusted[i], srv->trusted_bits[i]);
	sl->receiving = true;
	sl->head = true;
	sl->deadline_s = srv->cfg.deadline_s;
	clock_gettime(CLOCK_MONOTONIC, &sl->since);

	pthread_mutex_lock(&srv->cmu);
	unsigned same = 0;
	for (const conn_slot *o = srv->conns; o && !sl->trusted; o = o->next)
		same += !o->cut && memcmp(&o->addr, &sl->addr, sizeof sl->addr) == 0;
	bool hangup = false, evicted = false;
	if (!sl->trusted && same >= srv->cfg.per_addr) {
		sl->refuse = 429;
		hangup = same >= 2 * srv->cfg.per_addr;
	} else if (srv->nconns - srv->ncut >= srv->cfg.conn_limit) {
		evicted = evict_slowest_head(srv);
		if (!evicted)
			sl->refuse = 503;
	}
	if (sl->refuse)
		sl->deadline_s = REFUSED_DEADLINE_S;
	sl->next = srv->conns;
	if (srv->conns)
		srv->conns->prev = sl;
	srv->conns = sl;
	srv->nconns++;
	if (hangup)
		cut_slot(srv, sl);
	unsigned live = srv->nconns - srv->ncut;
	pthread_mutex_unlock(&srv->cmu);
	if (sl->refuse)
		log_refusal(sl->addr_text, sl->refuse, sl->refuse == 429 ? same + 1 : live);
	if (evicted)
		log_eviction(srv->cfg.conn_limit);
	*sctx = sl;
}

/* The request's head is in: from now on the connection is not evictable. */
static void head_in(http_server *srv, struct MHD_Connection *conn)
{
	conn_slot *sl = slot_of(conn);
	if (!sl)
		return;
	pthread_mutex_lock(&srv->cmu);
	sl->head = false;
	pthread_mutex_unlock(&srv->cmu);
}

/* The request's head and body are in (or it was answered early): no deadline while the
 * response goes out (a stream may last for hours). */
static void head_done(http_server *srv, struct MHD_Connection *conn)
{
	conn_slot *sl = slot_of(conn);
	if (!sl)
		return;
	pthread_mutex_lock(&srv->cmu);
	sl->receiving = false;
	pthread_mutex_unlock(&srv->cmu);
}

/* A response is done: the connection waits for its next request, within the deadline (so an
 * idle keep-alive connection is closed after it too, like Apache's KeepAliveTimeout). */
static void next_request(http_server *srv, struct MHD_Connection *conn)
{
	conn_slot *sl = slot_of(conn);
	if (!sl)
		return;
	pthread_mutex_lock(&srv->cmu);
	sl->receiving = true;
	sl->head = true;
	clock_gettime(CLOCK_MONOTONIC, &sl->since);
	pthread_mutex_unlock(&srv->cmu);
}

/* The deadline for a request's head, in ms: the configured one while at most half the slots
 * wait for a head, then shorter in proportion down to CROWDED_HEAD_MS when all of them do
 * (slow-header clients from many addresses, each under its cap, would otherwise hold the
 * slots for the whole deadline). cmu held. */
static long long head_deadline_ms(const http_server *srv)
{
	long long full = (long long)srv->cfg.deadline_s * 1000, lim = srv->cfg.conn_limit;
	long long heads = 0;
	for (const conn_slot *sl = srv->conns; sl; sl = sl->next)
		heads += sl->head && !sl->cut && !sl->refuse;
	if (full <= CROWDED_HEAD_MS || 2 * heads <= lim)
		return full;
	long long over = 2 * heads - lim > lim ? lim : 2 * heads - lim; /* 0 … lim */
	return full - (full - CROWDED_HEAD_MS) * over / lim;
}

/* Every REAP_MS: shuts the socket of each connection past its deadline (libmicrohttpd sees
 * the hang-up and closes it); a head's deadline shortens when heads crowd the slots
 * (head_deadline_ms). MHD's own timeout restarts on every byte, so a client sending one
 * header byte a second would otherwise hold its slot for ever. */
static void *reaper(void *arg)
{
	http_server *srv = arg;
	pthread_mutex_lock(&srv->cmu);
	while (srv->reaper_run) {
		struct timespec until;
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += (long)REAP_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&srv->rcv, &srv->cmu, &until);
		if (!srv->reaper_run)
			break;
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		long long head_ms = head_deadline_ms(srv);
		for (conn_slot *sl = srv->conns; sl; sl = sl->next) {
			long long ms = (long long)sl->deadline_s * 1000;
			if (sl->head && head_ms < ms)
				ms = head_ms;
			if (sl->receiving && ms_since(&sl->since, &now) >= ms)
				cut_slot(srv, sl);
		}
	}
	pthread_mutex_unlock(&srv->cmu);
	return NULL;
}

bool http_req_via_trusted_proxy(const http_req *req)
{
	conn_slot *sl = req ? slot_of(req->conn) : NULL;
	return sl && sl->trusted;
}

void http_client_addr(const http_req *req, char *buf, size_t len)
{
	if (!buf || !len)
		return;
	buf[0] = '\0';
	conn_slot *sl = req ? slot_of(req->conn) : NULL;
	if (!sl)
		return;
	const char *xff =
	    sl->trusted ? MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, "X-Forwarded-For")
	                : NULL;
	if (xff) {
		/* the last hop is the one our proxy appended; the others are the client's word */
		const char *last = strrchr(xff, ',');
		last = last ? last + 1 : xff;
		while (*last == ' ' || *last == '\t')
			last++;
		char tmp[INET6_ADDRSTRLEN + 1];
		size_t n = strcspn(last, " \t");
		struct in6_addr a;
		if (n < sizeof tmp) {
			memcpy(tmp, last, n);
			tmp[n] = '\0';
			if (addr_parse(tmp, &a)) {
				addr_to_text(&a, buf, len);
				return;
			}
		}
	}
	snprintf(buf, len, "%s", sl->addr_text);
}

/* ---- queueing a reply ---- */

static void remember_problem(req_ctx *c, const http_resp *resp)
{
	c->note[0] = '\0';
	if (resp->status < 400 || !resp->body)
		return;
	struct json_object *o = json_tokener_parse(resp->body), *d = NULL, *f = NULL;
	if (o && json_object_object_get_ex(o, "detail", &d)) {
		char tmp[200];
		sanitize(tmp, sizeof tmp, json_object_get_string(d), sizeof tmp - 1);
		if (json_object_object_get_ex(o, "field", &f) && *json_object_get_string(f)) {
			char ft[64];
			sanitize(ft, sizeof ft, json_object_get_string(f), sizeof ft - 1);
			snprintf(c->note, sizeof c->note, "field=%s %s", ft, tmp);
		} else {
			snprintf(c->note, sizeof c->note, "%s", tmp);
		}
	}
	json_object_put(o);
}

/* Hands resp to MHD (its body, headers and stream move into the MHD_Response) and clears it. */
static enum MHD_Result queue_resp(req_ctx *c, struct MHD_Connection *conn, http_resp *resp)
{
	struct MHD_Response *r;
	remember_problem(c, resp);
	head_done(c->srv, conn);
	if (resp->stream) {
		r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, resp->stream,
		                                      resp->stream_cls, resp->stream_free);
		if (r)
			resp->stream = NULL; /* MHD calls stream_free now */
	} else if (resp->body && resp->body_len) {
		r = MHD_create_response_from_buffer(resp->body_len, resp->body,
		                                    MHD_RESPMEM_MUST_FREE);
		if (r)
			resp->body = NULL; /* MHD frees it */
	} else {
		r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
	}
	if (!r) {
		http_resp_clear(resp);
		return MHD_NO;
	}
	bool ok = true;
	if (resp->content_type)
		ok = MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, resp->content_type) ==
		     MHD_YES;
	for (int i = 0; ok && i < resp->nheaders; i++)
		ok =
		    MHD_add_response_header(r, resp->headers[i][0], resp->headers[i][1]) == MHD_YES;
	if (ok && (c->close || atomic_load(&c->srv->stopping)))
		ok = MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close") == MHD_YES;
	int status = resp->status;
	http_resp_clear(resp);
	enum MHD_Result res = ok ? MHD_queue_response(conn, (unsigned)status, r) : MHD_NO;
	MHD_destroy_response(r);
	if (res == MHD_YES) {
		c->status = status;
		c->replied = true;
	}
	return res;
}

/* Answers a problem at once; header/value (may be NULL) is added to it. */
static enum MHD_Result reply_problem(req_ctx *c, struct MHD_Connection *conn, int status,
                                     const char *detail, const char *header, const char *value)
{
	http_resp resp = {0};
	if (http_reply_problem(&resp, status, detail, NULL, NULL) != 0 ||
	    (header && http_resp_header(&resp, header, value) != 0)) {
		http_resp_clear(&resp);
		return MHD_NO;
	}
	return queue_resp(c, conn, &resp);
}

/* 413 naming the route's cap. */
static enum MHD_Result reply_too_large(req_ctx *c, struct MHD_Connection *conn)
{
	char detail[96];
	snprintf(detail, sizeof detail, "The request body is larger than %zu bytes.", c->max_body);
	http_resp resp = {0};
	if (http_reply_problem(&resp, 413, detail, NULL, NULL) != 0) {
		http_resp_clear(&resp);
		return MHD_NO;
	}
	return queue_resp(c, conn, &resp);
}

/* ---- the request ---- */

static void *uri_log(void *cls, const char *uri, struct MHD_Connection *conn)
{
	http_server *srv = cls;
	(void)conn;
	req_ctx *c = xcalloc(1, sizeof *c);
	c->srv = srv;
	clock_gettime(CLOCK_MONOTONIC, &c->t0);
	c->raw_len = strlen(uri);
	c->raw = capture_target(uri);
	c->max_body = HTTP_MAX_BODY;
	pthread_mutex_lock(&srv->mu);
	srv->active++;
	pthread_mutex_unlock(&srv->mu);
	return c;
}

static bool is_api_path(const char *path)
{
	return strncmp(path, "/api", 4) == 0 && (path[4] == '/' || path[4] == '\0');
}

static bool header_present(struct MHD_Connection *conn, const char *name)
{
	return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name) != NULL;
}

/* A body is coming (or may: chunked). */
static bool expects_body(struct MHD_Connection *conn)
{
	const char *cl =
	    MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	return (cl && strcmp(cl, "0") != 0) ||
	       MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
	                                   MHD_HTTP_HEADER_TRANSFER_ENCODING) != NULL;
}

/* An error found before the body: answered now when a body would follow (MHD then closes the
 * connection rather than read it), else on the final call (keep-alive preserved). */
static enum MHD_Result early(req_ctx *c, struct MHD_Connection *conn, int status,
                             const char *detail, const char *header, const char *value)
{
	if (expects_body(conn))
		return reply_problem(c, conn, status, detail, header, value);
	c->pending = status;
	c->pending_detail = detail;
	c->pending_header = header;
	snprintf(c->pending_value, sizeof c->pending_value, "%s", value ? value : "");
	return MHD_YES;
}

/* The handler's view of the request; path receives the decoded path (HTTP_MAX_URL + 1 bytes). */
static void make_req(const req_ctx *c, struct MHD_Connection *conn, const char *method, char *path,
                     http_req *req)
{
	if (http_pct_decode(c->raw, strlen(c->raw), path, HTTP_MAX_URL + 1) < 0)
		snprintf(path, HTTP_MAX_URL + 1, "%s",
		         c->raw); /* cannot happen for a matched route */
	*req = (http_req){
	    .method = method,
	    .path = path,
	    .nparams = c->nparams,
	    .body = c->len ? c->body : NULL,
	    .body_len = c->len,
	    .conn = conn,
	};
	memcpy(req->params, c->params, sizeof req->params);
}

/* Checks a handler's (or pre-body check's) result: a non-zero return or an impossible status
 * is our bug, logged and turned into a 500 problem in resp. */
static void check_handler_result(const req_ctx *c, int rc, http_resp *resp)
{
	if (rc == 0 && resp->status >= 100 && resp->status <= 599)
		return;
	char p[128];
	sanitize(p, sizeof p, c->raw, 120);
	log_bug("handler for %s %s returned %d with status %d", c->method, p, rc, resp->status);
	http_resp_clear(resp);
	http_reply_problem(resp, 500, "Internal server error.", NULL, NULL);
}

/* The route's pre-body check (http_route.pre_body): a refusal is answered now, before any
 * body byte is read (MHD then closes the connection instead of reading the body). */
static enum MHD_Result check_pre_body(req_ctx *c, struct MHD_Connection *conn, const char *method)
{
	char path[HTTP_MAX_URL + 1];
	http_req req;
	make_req(c, conn, method, path, &req);
	http_resp resp = {0};
	int rc = c->route->pre_body(&req, &resp);
	if (rc == 0 && resp.status == 0)
		return MHD_YES;
	check_handler_result(c, rc, &resp);
	return queue_resp(c, conn, &resp);
}

/* First call, headers parsed: everything that can be answered before reading a body. */
static enum MHD_Result begin(req_ctx *c, struct MHD_Connection *conn, const char *method)
{
	http_server *srv = c->srv;
	conn_slot *sl = slot_of(conn);
	if (sl && sl->refuse) { /* set once at STARTED, read-only since */
		c->close = true;
		return reply_problem(
		    c, conn, sl->refuse,
		    sl->refuse == 429 ? "Too many connections from this address; close some."
		                      : "The server has too many connections; try again shortly.",
		    MHD_HTTP_HEADER_RETRY_AFTER, "5");
	}
	char *q = strchr(c->raw, '?');
	if (q)
		*q = '\0';
	if (c->raw_len > HTTP_MAX_URL)
		return early(c, conn, 414, "The URL is longer than 2048 bytes.", NULL, NULL);
	if (c->raw[0] != '/')
		return early(c, conn, 400, "The request target must be a path.", NULL, NULL);

	const char *cl =
	    MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	unsigned long long clen = 0;
	if (cl) {
		char *end;
		errno = 0;
		clen = strtoull(cl, &end, 10);
		if (errno || end == cl)
			clen = ULLONG_MAX;
	}
	char allow[64];
	route_match m =
	    router_match(srv->cfg.routes, srv->cfg.nroutes, method, c->raw, &c->route, c->params,
	                 &c->nparams, c->pbuf, sizeof c->pbuf, allow, sizeof allow);
	c->max_body = m == ROUTE_FOUND && c->route->max_body ? c->route->max_body : HTTP_MAX_BODY;
	if (clen > c->max_body)
		return reply_too_large(c, conn);
	if (m == ROUTE_BAD_METHOD)
		return early(c, conn, 405, "This method is not allowed on this resource.",
		             MHD_HTTP_HEADER_ALLOW, allow);
	if (m == ROUTE_NOT_FOUND) {
		if (is_api_path(c->raw))
			return early(c, conn, 404, "No such resource.", NULL, NULL);
		if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
			return early(c, conn, 405, "Static files are read-only.",
			             MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
		c->is_static = true;
		return MHD_YES;
	}

	bool has_body = clen > 0 || header_present(conn, MHD_HTTP_HEADER_TRANSFER_ENCODING);
	bool mutation = strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0 ||
	                strcmp(method, "PATCH") == 0 || strcmp(method, "DELETE") == 0;
	if (mutation && has_body && !c->route->any_type &&
	    !http_content_type_is_json(
	        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE)))
		return reply_problem(c, conn, 415, "The request body must be application/json.",
		                     NULL, NULL);
	if (c->route->api && srv->cfg.api_available && !srv->cfg.api_available())
		return early(c, conn, 503, "The database is unavailable; try again shortly.",
		             MHD_HTTP_HEADER_RETRY_AFTER, "5");
	if (c->route->pre_body)
		return check_pre_body(c, conn, method);
	return MHD_YES;
}

static void take_body(req_ctx *c, const char *data, size_t n)
{
	if (c->replied || c->too_large || c->len + n > c->max_body) {
		c->too_large = c->too_large || !c->replied;
		c->discarded += n;
		return;
	}
	if (c->len + n + 1 > c->cap) {
		size_t cap = c->cap ? c->cap : 1024;
		while (cap < c->len + n + 1)
			cap *= 2;
		if (cap > c->max_body + 1)
			cap = c->max_body + 1;
		c->body = xrealloc(c->body, cap);
		c->cap = cap;
	}
	memcpy(c->body + c->len, data, n);
	c->len += n;
	c->body[c->len] = '\0';
}

/* ---- heavy routes on the job pool ---- */

/* On a job thread: the handler fills hj->resp; then the connection's thread takes over. */
static void heavy_run(job *j)
{
	heavy_job *hj = (heavy_job *)j;
	struct MHD_Connection *conn = hj->conn;
	check_handler_result(hj->c, hj->c->route->handler(&hj->req, &hj->resp), &hj->resp);
	atomic_store(&hj->done, true);
	MHD_resume_connection(conn); /* hj may be freed from here on */
}

/* The pool stopped before the job ran (http_stop after its drain time): 503. */
static void heavy_cancel(job *j)
{
	heavy_job *hj = (heavy_job *)j;
	struct MHD_Connection *conn = hj->conn;
	http_reply_problem(&hj->resp, 503, "The server is stopping; try again shortly.", NULL,
	                   NULL);
	http_resp_header(&hj->resp, MHD_HTTP_HEADER_RETRY_AFTER, "5");
	atomic_store(&hj->done, true);
	MHD_resume_connection(conn);
}

/* Hands a complete heavy request to the job pool and suspends its connection; MHD calls
 * on_request again once the job resumes it, and finish() queues the job's response. The
 * connection is suspended before the job is queued, so the resume always follows the
 * suspension. A full queue is answered 503 at once. */
static enum MHD_Result run_heavy(req_ctx *c, struct MHD_Connection *conn, const char *method)
{
	if (!jobs_reserve(c->srv->jobs))
		return reply_problem(c, conn, 503,
		                     "The server is busy with slow requests; try again shortly.",
		                     MHD_HTTP_HEADER_RETRY_AFTER, "2");
	heavy_job *hj = xcalloc(1, sizeof *hj);
	hj->base.run = heavy_run;
	hj->base.cancel = heavy_cancel;
	hj->c = c;
	hj->conn = conn;
	make_req(c, conn, method, hj->path, &hj->req);
	atomic_init(&hj->done, false);
	c->hj = hj;
	MHD_suspend_connection(conn);
	jobs_push(c->srv->jobs, &hj->base);
	return MHD_YES;
}

/* Body complete: static file or handler (or, once a heavy route's job resumed the
 * connection, the job's response). */
static enum MHD_Result finish(req_ctx *c, struct MHD_Connection *conn, const char *method)
{
	http_server *srv = c->srv;
	if (c->hj)
		return atomic_load(&c->hj->done) ? queue_resp(c, conn, &c->hj->resp) : MHD_YES;
	head_done(srv, conn);
	if (c->pending)
		return reply_problem(c, conn, c->pending, c->pending_detail, c->pending_header,
		                     c->pending_header ? c->pending_value : NULL);
	if (c->too_large)
		return reply_too_large(c, conn);
	if (c->is_static) {
		http_resp err = {0};
		struct MHD_Response *r = NULL;
		int st = srv->root[0]
		             ? http_static(srv->root, c->raw, conn, &err, &r)
		             : (http_reply_problem(&err, 404, "No such file.", NULL, NULL), 404);
		if (!r)
			return err.body ? queue_resp(c, conn, &err) : MHD_NO;
		http_resp_clear(&err);
		if (atomic_load(&srv->stopping))
			MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
		enum MHD_Result res = MHD_queue_response(conn, (unsigned)st, r);
		MHD_destroy_response(r);
		if (res == MHD_YES) {
			c->status = st;
			c->replied = true;
		}
		return res;
	}

	if (c->route->heavy && srv->jobs)
		return run_heavy(c, conn, method);
	char path[HTTP_MAX_URL + 1];
	http_req req;
	make_req(c, conn, method, path, &req);
	http_resp resp = {0};
	check_handler_result(c, c->route->handler(&req, &resp), &resp);
	return queue_resp(c, conn, &resp);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
	req_ctx *c = *con_cls;
	(void)cls;
	(void)url; /* MHD's decoded copy: we route on the raw target instead */
	(void)version;
	if (!c || !c->raw)
		return MHD_NO; /* out of memory in uri_log */
	if (!c->started) {
		c->started = true;
		head_in(c->srv, conn);
		snprintf(c->method, sizeof c->method, "%s", method);
		return begin(c, conn, method);
	}
	if (*upload_data_size) {
		take_body(c, upload_data, *upload_data_size);
		*upload_data_size = 0;
		return c->discarded > DISCARD_LIMIT ? MHD_NO : MHD_YES;
	}
	if (c->replied)
		return MHD_YES;
	return finish(c, conn, method);
}

static void completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
	http_server *srv = cls;
	req_ctx *c = *con_cls;
	(void)conn;
	if (!c)
		return;
	*con_cls = NULL;
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	long long us =
	    (long long)(t1.tv_sec - c->t0.tv_sec) * 1000000 + (t1.tv_nsec - c->t0.tv_nsec) / 1000;
	char path[256];
	sanitize(path, sizeof path, c->raw ? c->raw : "", 200);
	const char *method = c->method[0] ? c->method : "-";
	if (c->status == 0 || toe != MHD_REQUEST_TERMINATED_COMPLETED_OK) {
		static const char *const why[] = {"ok",       "error",      "timeout",
		                                  "shutdown", "read-error", "client-abort"};
		log_access("%s %s %d %lldus aborted: %s", method, path, c->status, us,
		           (unsigned)toe < sizeof why / sizeof why[0] ? why[toe] : "?");
	} else if (c->status >= 500) {
		log_access("%s %s %d %lldus SERVER-ERROR %s", method, path, c->status, us, c->note);
	} else if (c->status >= 400) {
		log_access("%s %s %d %lldus client-error %s", method, path, c->status, us, c->note);
	} else {
		log_access("%s %s %d %lldus", method, path, c->status, us);
	}
	if (c->hj)
		http_resp_clear(&c->hj->resp);
	free(c->hj);
	free(c->body);
	free(c->raw);
	free(c);
	next_request(srv, conn);
	pthread_mutex_lock(&srv->mu);
	if (srv->active)
		srv->active--;
	if (srv->active == 0)
		pthread_cond_broadcast(&srv->cv);
	pthread_mutex_unlock(&srv->mu);
}

/* ---- start / stop ---- */

/* Reads a whole (small) file into a NUL-terminated string; NULL (logged) on failure. */
static char *read_pem(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		log_warn("http: cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	char *buf = xmalloc(256 * 1024);
	size_t n = fread(buf, 1, 256 * 1024 - 1, f);
	bool bad = ferror(f) || n == 0;
	fclose(f);
	if (bad) {
		log_warn("http: %s is empty or unreadable", path);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* Parses cfg.trust_proxy ("addr, addr/prefix …") into srv->trusted. -1 (logged) when an item
 * is not an address or a network. */
static int parse_trusted(http_server *srv, const char *list)
{
	char item[INET6_ADDRSTRLEN + 1];
	for (const char *p = list; p && *p;) {
		p += strspn(p, ", \t");
		size_t n = strcspn(p, ", \t");
		if (n == 0)
			break;
		if (n >= sizeof item || srv->ntrusted == MAX_TRUSTED) {
			log_warn("http: TRUST_PROXY: too many or too long addresses");
			return -1;
		}
		memcpy(item, p, n);
		item[n] = '\0';
		char *slash = strchr(item, '/');
		long bits = -1;
		if (slash) {
			char *end;
			*slash = '\0';
			bits = strtol(slash + 1, &end, 10);
			if (end == slash + 1 || *end)
				bits = 999;
		}
		struct in6_addr *net = &srv->trusted[srv->ntrusted];
		bool v4 = strchr(item, ':') == NULL;
		long max = v4 ? 32 : 128;
		if (!addr_parse(item, net) || bits > max || (slash && bits < 0)) {
			log_warn("http: TRUST_PROXY: %s is not an IP address or network", item);
			return -1;
		}
		srv->trusted_bits[srv->ntrusted] = (unsigned)(bits < 0 ? 128
		                                              : v4     ? 96 + bits
		                                                       : bits);
		srv->ntrusted++;
		p += n;
	}
	return 0;
}

/* The listening socket: cfg.listen (numeric address) or every interface (IPv6 dual stack,
 * else IPv4). No SO_REUSEPORT: a second server on the same port fails with "address in use"
 * instead of silently taking half the traffic. Returns the socket or -1 (logged). */
static int open_listener(const http_config *cfg)
{
	struct sockaddr_storage ss;
	memset(&ss, 0, sizeof ss);
	struct sockaddr_in *v4 = (struct sockaddr_in *)(void *)&ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)(void *)&ss;
	bool any = !cfg->listen || !*cfg->listen;
	if (any || inet_pton(AF_INET6, cfg->listen, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(cfg->port);
		if (any)
			v6->sin6_addr = in6addr_any;
	} else if (inet_pton(AF_INET, cfg->listen, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(cfg->port);
	} else {
		log_warn("http: LISTEN=%s is not a numeric IPv4 or IPv6 address", cfg->listen);
		return -1;
	}
	int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 && any) { /* no IPv6 on this machine: IPv4 only */
		memset(&ss, 0, sizeof ss);
		v4->sin_family = AF_INET;
		v4->sin_port = htons(cfg->port);
		v4->sin_addr.s_addr = htonl(INADDR_ANY);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	}
	if (fd < 0) {
		log_warn("http: socket: %s", strerror(errno));
		return -1;
	}
	int on = 1, off = 0;
	/* SO_REUSEADDR only lets a restart bind over connections in TIME_WAIT; Linux still
	 * refuses a second listener on the same address and port. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, any ? &off : &on, sizeof on);
	socklen_t len = ss.ss_family == AF_INET6 ? sizeof *v6 : sizeof *v4;
	if (bind(fd, (struct sockaddr *)&ss, len) != 0 || listen(fd, SOMAXCONN) != 0) {
		int e = errno;
		log_warn("http: cannot listen on %s port %u: %s",
		         any ? "every interface" : cfg->listen, (unsigned)cfg->port,
		         e == EADDRINUSE ? "address in use (another server?)" : strerror(e));
		close(fd);
		return -1;
	}
	return fd;
}

/* Makes the connection limit and RLIMIT_NOFILE agree: raises the soft limit up to the hard
 * one when the connections need more, else lowers the connection limit. Says which. With no
 * configured limit (0) the soft limit goes as high as the hard one allows and the connection
 * limit is what then fits, up to AUTO_CONN_MAX: slow clients from many addresses have to hold
 * that many sockets before anyone is refused. */
static void fit_fd_limit(http_config *cfg, unsigned *mhd_limit)
{
	struct rlimit rl = {RLIM_INFINITY, RLIM_INFINITY}; /* unknown: nothing to fit */
	bool autosize = cfg->conn_limit == 0;
	if (autosize)
		cfg->conn_limit = AUTO_CONN_MAX;
	unsigned margin = cfg->conn_limit / 8 + 4; /* slots that only answer 503 */
	rlim_t need = (rlim_t)cfg->conn_limit + margin + FD_RESERVE + 2 * cfg->threads;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need) {
		rlim_t old = rl.rlim_cur;
		rl.rlim_cur =
		    rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need ? need : rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0 || getrlimit(RLIMIT_NOFILE, &rl) != 0)
			rl.rlim_cur = old;
		if (rl.rlim_cur > old)
			log_info("http: raised the file descriptor limit from %llu to %llu",
			         (unsigned long long)old, (unsigned long long)rl.rlim_cur);
	}
	if (rl.rlim_cur < need) {
		rlim_t room = rl.rlim_cur > FD_RESERVE + 2 * cfg->threads + 8
		                  ? rl.rlim_cur - FD_RESERVE - 2 * cfg->threads
		                  : 8;
		unsigned lim = (unsigned)(room * 8 / 9);
		if (!autosize)
			log_warn("http: CONN_LIMIT %u lowered to %u: the file descriptor limit is "
			         "%llu (raise it with ulimit -n)",
			         cfg->conn_limit, lim ? lim : 1, (unsigned long long)rl.rlim_cur);
		cfg->conn_limit = lim ? lim : 1;
		margin = cfg->conn_limit / 8 + 4;
	}
	*mhd_limit = cfg->conn_limit + margin;
	log_info("http: up to %u connections (%s%u per address, beyond: 429; %u more answered "
	         "503), file descriptor limit %llu",
	         cfg->conn_limit, autosize ? "sized from the file descriptor limit; " : "",
	         cfg->per_addr, margin, (unsigned long long)rl.rlim_cur);
}

static void free_server(http_server *srv)
{
	pthread_mutex_destroy(&srv->mu);
	pthread_cond_destroy(&srv->cv);
	pthread_mutex_destroy(&srv->cmu);
	pthread_cond_destroy(&srv->rcv);
	free(srv->tls_cert);
	free(srv->tls_key);
	free(srv);
}

/* The daemon on the listening socket fd. MHD owns fd from this call on, whatever its outcome:
 * a failed start has closed it already (libmicrohttpd 0.9.75 does so when the TLS set-up or
 * the descriptors for its inter-thread channels fail; tests/unit/test_http_start.c). */
static struct MHD_Daemon *start_daemon(http_server *srv, int fd, unsigned mhd_limit)
{
	/* ITC: needed by MHD_quiesce_daemon; suspend/resume: server-sent events (http/sse.c).
	 * poll(), not epoll: with a thread pool on epoll, libmicrohttpd 0.9.75's
	 * MHD_quiesce_daemon() marks each worker quiesced and then removes the listening socket
	 * from the worker's epoll set, while the woken worker may remove it first; the loser's
	 * epoll_ctl(DEL) fails and the library aborts ("Failed to remove listen FD from epoll
	 * set", seen in the suite under ASan). With poll() quiescing only signals the workers.
	 * At this service's connection counts (≤ 1024, a few per phone) poll costs nothing
	 * measurable (README, benchmarks). */
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME;
	if (MHD_is_feature_supported(MHD_FEATURE_POLL) == MHD_YES)
		flags |= MHD_USE_POLL; /* else select() */
	if (srv->tls_cert)
		flags |= MHD_USE_TLS;
	struct MHD_OptionItem opts[] = {
	    {MHD_OPTION_LISTEN_SOCKET, fd, NULL},
	    {MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)srv->cfg.threads, NULL},
	    {MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)srv->cfg.conn_timeout_s, NULL},
	    {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)mhd_limit, NULL},
	    {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)MEMORY_LIMIT, NULL},
	    {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, srv},
	    {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify_conn, srv},
	    {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_log, srv},
	    {MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)mhd_logger, srv},
	    {srv->tls_cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, srv->tls_cert},
	    {MHD_OPTION_HTTPS_MEM_KEY, 0, srv->tls_key},
	    {MHD_OPTION_END, 0, NULL},
	};
	return MHD_start_daemon(flags, 0, NULL, NULL, on_request, srv, MHD_OPTION_ARRAY, opts,
	                        MHD_OPTION_END);
}

/* Job threads when none are configured: one less than the CPUs this process may run on, at
 * least one. Heavy jobs are CPU-bound (a password hash, a PDF) and memory-hungry (Argon2id
 * takes 19 MiB): with one CPU left to the connection threads and the database, cheap
 * requests keep their latency while the heavy ones queue (tests/bench/jobs.sh). */
static unsigned default_job_threads(void)
{
	cpu_set_t set;
	int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 2;
	return n > 1 ? (unsigned)n - 1 : 1;
}

http_server *http_start(const http_config *cfg)
{
	if (!cfg || (!cfg->routes && cfg->nroutes))
		return NULL;
	http_server *srv = xcalloc(1, sizeof *srv);
	srv->cfg = *cfg;
	if (srv->cfg.threads == 0)
		srv->cfg.threads = 4;
	if (srv->cfg.conn_timeout_s == 0)
		srv->cfg.conn_timeout_s = 30;
	if (srv->cfg.per_addr == 0)
		srv->cfg.per_addr = PER_ADDR_DEFAULT;
	if (srv->cfg.deadline_s == 0)
		srv->cfg.deadline_s = DEADLINE_DEFAULT_S;
	if (srv->cfg.job_threads == 0)
		srv->cfg.job_threads = default_job_threads();
	if (srv->cfg.job_queue == 0)
		srv->cfg.job_queue = JOB_QUEUE_DEFAULT;
	if (cfg->static_dir && !realpath(cfg->static_dir, srv->root)) {
		log_warn("http: static dir %s unusable (%s); static files answer 404",
		         cfg->static_dir, strerror(errno));
		srv->root[0] = '\0';
	}
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&srv->mu, NULL);
	pthread_cond_init(&srv->cv, &ca);
	pthread_mutex_init(&srv->cmu, NULL);
	pthread_cond_init(&srv->rcv, &ca);
	pthread_condattr_destroy(&ca);
	atomic_init(&srv->stopping, false);

	if (parse_trusted(srv, cfg->trust_proxy) != 0) {
		free_server(srv);
		return NULL;
	}
	bool tls = (cfg->tls_cert && *cfg->tls_cert) || (cfg->tls_key && *cfg->tls_key);
	if (tls) {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
			log_warn("http: this libmicrohttpd has no TLS support");
			free_server(srv);
			return NULL;
		}
		srv->tls_cert = cfg->tls_cert && *cfg->tls_cert ? read_pem(cfg->tls_cert) : NULL;
		srv->tls_key =
		    srv->tls_cert && cfg->tls_key && *cfg->tls_key ? read_pem(cfg->tls_key) : NULL;
		if (!srv->tls_cert || !srv->tls_key) {
			log_warn(
			    "http: HTTPS needs both TLS_CERT and TLS_KEY (readable PEM files)");
			free_server(srv);
			return NULL;
		}
	}
	unsigned mhd_limit;
	fit_fd_limit(&srv->cfg, &mhd_limit);
	int fd = open_listener(&srv->cfg);
	if (fd < 0) {
		free_server(srv);
		return NULL;
	}
	srv->d = start_daemon(srv, fd, mhd_limit);
	if (!srv->d) { /* fd is closed: start_daemon */
		log_warn("http: cannot start the HTTP daemon%s",
		         tls ? " (is the key pair valid?)" : "");
		free_server(srv);
		return NULL;
	}
	srv->jobs = jobs_start(srv->cfg.job_threads, srv->cfg.job_queue);
	if (!srv->jobs)
		log_warn("http: no job threads: slow requests run on the connection threads");
	srv->reaper_run = true;
	if (pthread_create(&srv->reaper, NULL, reaper, srv) != 0) {
		log_warn("http: cannot start the deadline thread: no request deadline");
		srv->reaper_run = false;
	}
	sse_limits lim = {.per_topic = srv->cfg.sse_per_topic, .per_owner = srv->cfg.sse_per_owner};
	if (sse_start(&lim) != 0)
		log_warn("http: cannot start the event-stream probe: dead streams are found late");
	return srv;
}

uint16_t http_port(const http_server *srv)
{
	if (!srv || !srv->d)
		return 0;
	const union MHD_DaemonInfo *i = MHD_get_daemon_info(srv->d, MHD_DAEMON_INFO_LISTEN_FD);
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;
	if (!i || getsockname(i->listen_fd, (struct sockaddr *)&ss, &len) != 0)
		return 0;
	return ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)(void *)&ss)->sin6_port
	                                      : ((struct sockaddr_in *)(void *)&ss)->sin_port);
}

bool http_tls(const http_server *srv)
{
	return srv && srv->tls_cert;
}

void http_stop(http_server *srv)
{
	if (!srv)
		return;
	atomic_store(&srv->stopping, true);
	MHD_socket ls = MHD_quiesce_daemon(srv->d);
	if (ls != MHD_INVALID_SOCKET)
		close(ls);
	if (srv->cfg.on_quiesce)
		srv->cfg.on_quiesce();
	sse_stop(); /* ends the event streams so the drain can finish */
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += DRAIN_S;
	pthread_mutex_lock(&srv->mu);
	while (srv->active > 0) {
		if (pthread_cond_timedwait(&srv->cv, &srv->mu, &deadline) == ETIMEDOUT) {
			log_warn("http: %u request(s) still in flight after %d s; closing them",
			         srv->active, (int)DRAIN_S);
			break;
		}
	}
	pthread_mutex_unlock(&srv->mu);
	/* Jobs still queued after the drain are answered 503, running ones finish; either way
	 * their connections are resumed before MHD_stop_daemon, which must find none suspended. */
	jobs_stop(srv->jobs);
	srv->jobs = NULL;
	pthread_mutex_lock(&srv->cmu);
	bool joined = srv->reaper_run;
	srv->reaper_run = false;
	pthread_cond_broadcast(&srv->rcv);
	pthread_mutex_unlock(&srv->cmu);
	if (joined)
		pthread_join(srv->reaper, NULL);
	MHD_stop_daemon(srv->d);
	free_server(srv);
}
