/* What the files of the libmicrohttpd daemon share (server.c, request.c, conns.c, target.c)
 * and nobody else uses: the server, its connection slots and a request's context. */
#ifndef HTTP_SERVER_INTERNAL_H
#define HTTP_SERVER_INTERNAL_H

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
	PER_ADDR_DEFAULT = 64,    /* connections per client address */
	DEADLINE_DEFAULT_S = 10,  /* a request's head and body */
	REFUSED_DEADLINE_S = 2,   /* a refused connection gets its 429/503 or goes within this */
	CROWDED_HEAD_MS = 2000,   /* the head deadline when every slot is waiting for a head */
	REAP_MS = 250,            /* how often deadlines are checked */
	MAX_TRUSTED = 16,         /* trusted proxy addresses */
	FD_RESERVE = 64,          /* descriptors beyond the connections: DB, files, pipes, log */
	JOB_QUEUE_DEFAULT = 64,   /* heavy requests waiting for a job thread; beyond: 503 */
	WAIT_QUEUE_DEFAULT = 256, /* deferred requests waiting for a waiting thread; beyond: 503 */
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
	const http_server *srv; /* its server (for the trusted proxies) */
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
	atomic_uint parked; /* replies parked (http_park) and not done yet */
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
	jobs *waits;              /* deferred requests' pool (http_defer); NULL: they get 503 */
};

typedef struct {
	http_server *srv;
	struct timespec t0;
	char *raw;      /* target, credentials redacted (capture_target), cut at '?' once parsed */
	size_t raw_len; /* its full length */
	bool started, replied, too_large, is_static;
	bool writes; /* a routed request whose method is not GET or HEAD (cfg.on_write) */
	const http_route *route;
	const char *params[HTTP_MAX_PARAMS];
	int nparams;
	char *body; /* accumulated body, NUL-terminated */
	size_t len, cap, discarded;
	size_t max_body; /* the route's cap (HTTP_MAX_BODY unless the route says otherwise) */
	int status;
	char method[16];
	/* An error decided before the body (414, 404, 405, …) on a request without a body is
	 * answered on the final call instead of at once: MHD closes the connection after an
	 * early reply, and a client that sent nothing more deserves its keep-alive. */
	int pending;
	const char *pending_detail, *pending_header;
	bool close;           /* answer with Connection: close (a refused connection) */
	bool after_park;      /* runs again: its parked reply's holder deferred it (http_req) */
	struct heavy_job *hj; /* the job of a heavy or deferred request (run_on_pool), freed in
	                       * request_completed() */
	/* Buffers, from pbuf on not cleared per request (ctx_take): each is written before it
	 * is read. */
	char pbuf[HTTP_MAX_URL]; /* decoded parameters */
	char note[NOTE_LEN];     /* detail of an error reply, for the log ("" when none) */
	char pending_value[64];
} req_ctx;

/* ---- request.c: libmicrohttpd's callbacks of a request, cls the http_server ---- */

/* MHD_OPTION_URI_LOG_CALLBACK: the request line is in; returns its context (*con_cls). */
void *request_uri_log(void *cls, const char *uri, struct MHD_Connection *conn);
/* The access handler: called with the head, with each piece of body, and at its end. */
enum MHD_Result request_access(void *cls, struct MHD_Connection *conn, const char *url,
                               const char *method, const char *version, const char *upload_data,
                               size_t *upload_data_size, void **con_cls);
/* MHD_OPTION_NOTIFY_COMPLETED: the access-log line; the context goes back. */
void request_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                       enum MHD_RequestTerminationCode toe);

/* ---- conns.c ---- */

/* The request's head and body are in (or it was answered early): no deadline while the
 * response goes out (a stream may last for hours). */
void conn_head_done(http_server *srv, struct MHD_Connection *conn);
/* The request's head is in: from now on the connection is not evictable. */
void conn_head_in(http_server *srv, struct MHD_Connection *conn);
/* A response is done: the connection waits for its next request, within the deadline (so an
 * idle keep-alive connection is closed after it too, like Apache's KeepAliveTimeout). */
void conn_next_request(http_server *srv, struct MHD_Connection *conn);
/* STARTED: a slot in the list. Over the per-address cap, the connection is marked to be
 * refused (its first request gets 429 and it must send it within REFUSED_DEADLINE_S), far
 * over it shut at once. At the connection limit the slowest connection still waiting for a
 * head makes room (evict_slowest_head); when there is none, 503 the same way as 429.
 * CLOSED: the slot goes. */
void conn_notify(void *cls, struct MHD_Connection *conn, void **sctx,
                 enum MHD_ConnectionNotificationCode toe);
/* The client's address as text into buf, for a connection from peer with the X-Forwarded-For
 * xff (its lines joined by commas; NULL when absent). When peer is a trusted proxy, the hops of
 * xff are read from the right, past every hop that is itself a trusted proxy
 * (srv->trusted): the first untrusted hop is the client. When every hop is trusted, the
 * leftmost; at a hop that is not an address, the trusted hop after it (or peer). Otherwise
 * peer, whatever xff says. IPv4-mapped IPv6 is shown as IPv4. */
void conn_forwarded_client(const http_server *srv, const struct in6_addr *peer, const char *xff,
                           char *buf, size_t len);
/* Parses cfg.trust_proxy ("addr, addr/prefix …") into srv->trusted. -1 (logged) when an item
 * is not an address or a network. */
int conn_parse_trusted(http_server *srv, const char *list);
/* Every REAP_MS: shuts the socket of each connection past its deadline (libmicrohttpd sees
 * the hang-up and closes it); a head's deadline shortens when heads crowd the slots
 * (head_deadline_ms). MHD's own timeout restarts on every byte, so a client sending one
 * header byte a second would otherwise hold its slot for ever. */
void *conn_reaper(void *arg);
conn_slot *conn_slot_of(struct MHD_Connection *conn);
/* Makes the connection limit and RLIMIT_NOFILE agree: raises the soft limit up to the hard
 * one when the connections need more, else lowers the connection limit. Says which. With no
 * configured limit (0) the soft limit goes as high as the hard one allows and the connection
 * limit is what then fits, up to AUTO_CONN_MAX: slow clients from many addresses have to hold
 * that many sockets before anyone is refused. */
void conn_fit_fd_limit(http_config *cfg, unsigned *mhd_limit);

/* ---- target.c ---- */

/* The request target as the server keeps it (for routing and the access log): src with its
 * credential query values redacted, cut after HTTP_MAX_URL + 1 bytes (longer is a 414). The
 * raw target is never stored, so no log line can carry a token. Owned by the caller. */
char *target_capture(const char *src);
void target_mhd_logger(void *cls, const char *fm, va_list ap);
/* Copies s into dst with control and non-ASCII bytes replaced, at most max bytes. */
void target_sanitize(char *dst, size_t dstlen, const char *s, size_t max);

#endif
