/* The libmicrohttpd daemon: per-request context, body accumulation with a cap, dispatch to the
 * route table or to static files, problem+json errors, access log, graceful stop.
 *
 * Request life cycle (the standard MHD pattern):
 *   uri_log()      request line parsed: allocate the context (raw target, start time), count
 *                  the request as in flight;
 *   on_request #1  headers parsed: 414 / 413 by Content-Length / 404 / 405 / 415 / 503 are
 *                  answered at once (MHD then closes the connection instead of reading a body);
 *   on_request #n  body bytes: appended up to HTTP_MAX_BODY, then discarded (→ 413);
 *   on_request end body complete: the handler runs and its http_resp is queued;
 *   completed()    access-log line, context freed, in-flight count decremented.
 *
 * Ownership: the context belongs to MHD's per-request slot (*con_cls) and is freed only in
 * completed(); http_resp contents move into the MHD_Response when queued (queue_resp). */
#include "http/http.h"

#include "base/log.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
	MEMORY_LIMIT = 32 * 1024, /* per connection: request line, headers, write buffer */
	DISCARD_LIMIT = 16 * HTTP_MAX_BODY, /* read past the cap before we hang up on a client */
	DRAIN_S = 10,                       /* http_stop waits this long for in-flight requests */
	NOTE_LEN = 300,
};

struct http_server {
	struct MHD_Daemon *d;
	http_config cfg;
	char root[PATH_MAX]; /* resolved static_dir, "" when unusable */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned active; /* requests between uri_log() and completed() */
	atomic_bool stopping;
};

typedef struct {
	http_server *srv;
	struct timespec t0;
	char *raw;      /* request target as sent, cut at '?' once parsed (≤ HTTP_MAX_URL + 1) */
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
} req_ctx;

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

static void mhd_logger(void *cls, const char *fm, va_list ap)
{
	char buf[512];
	(void)cls;
	vsnprintf(buf, sizeof buf, fm, ap);
	size_t n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	log_warn("mhd: %s", buf);
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
	if (ok && atomic_load(&c->srv->stopping))
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
	req_ctx *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->srv = srv;
	clock_gettime(CLOCK_MONOTONIC, &c->t0);
	c->raw_len = strlen(uri);
	c->raw = strndup(uri, HTTP_MAX_URL + 1);
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

/* First call, headers parsed: everything that can be answered before reading a body. */
static enum MHD_Result begin(req_ctx *c, struct MHD_Connection *conn, const char *method)
{
	http_server *srv = c->srv;
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
		char *b = realloc(c->body, cap);
		if (!b) {
			c->too_large = true; /* out of memory: answered as too large */
			c->discarded += n;
			return;
		}
		c->body = b;
		c->cap = cap;
	}
	memcpy(c->body + c->len, data, n);
	c->len += n;
	c->body[c->len] = '\0';
}

/* Body complete: static file or handler. */
static enum MHD_Result finish(req_ctx *c, struct MHD_Connection *conn, const char *method)
{
	http_server *srv = c->srv;
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

	char path[HTTP_MAX_URL + 1];
	if (http_pct_decode(c->raw, strlen(c->raw), path, sizeof path) < 0)
		snprintf(path, sizeof path, "%s", c->raw); /* cannot happen for a matched route */
	http_req req = {
	    .method = method,
	    .path = path,
	    .nparams = c->nparams,
	    .body = c->len ? c->body : NULL,
	    .body_len = c->len,
	    .conn = conn,
	};
	memcpy(req.params, c->params, sizeof req.params);
	http_resp resp = {0};
	int rc = c->route->handler(&req, &resp);
	if (rc != 0 || resp.status < 100 || resp.status > 599) {
		char p[128];
		sanitize(p, sizeof p, c->raw, 120);
		log_bug("handler for %s %s returned %d with status %d", c->method, p, rc,
		        resp.status);
		http_resp_clear(&resp);
		return reply_problem(c, conn, 500, "Internal server error.", NULL, NULL);
	}
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
	free(c->body);
	free(c->raw);
	free(c);
	pthread_mutex_lock(&srv->mu);
	if (srv->active)
		srv->active--;
	if (srv->active == 0)
		pthread_cond_broadcast(&srv->cv);
	pthread_mutex_unlock(&srv->mu);
}

/* ---- start / stop ---- */

http_server *http_start(const http_config *cfg)
{
	if (!cfg || (!cfg->routes && cfg->nroutes))
		return NULL;
	http_server *srv = calloc(1, sizeof *srv);
	if (!srv)
		return NULL;
	srv->cfg = *cfg;
	if (srv->cfg.threads == 0)
		srv->cfg.threads = 4;
	if (srv->cfg.conn_timeout_s == 0)
		srv->cfg.conn_timeout_s = 30;
	if (srv->cfg.conn_limit == 0)
		srv->cfg.conn_limit = 1024;
	if (cfg->static_dir && !realpath(cfg->static_dir, srv->root)) {
		log_warn("http: static dir %s unusable (%s); static files answer 404",
		         cfg->static_dir, strerror(errno));
		srv->root[0] = '\0';
	}
	pthread_condattr_t ca;
	if (pthread_condattr_init(&ca) != 0) {
		free(srv);
		return NULL;
	}
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	int e1 = pthread_mutex_init(&srv->mu, NULL);
	int e2 = pthread_cond_init(&srv->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (e1 || e2) {
		if (!e1)
			pthread_mutex_destroy(&srv->mu);
		if (!e2)
			pthread_cond_destroy(&srv->cv);
		free(srv);
		return NULL;
	}
	atomic_init(&srv->stopping, false);

	/* ITC: needed by MHD_quiesce_daemon; suspend/resume: server-sent events (http_resp.stream
	 * callbacks suspend their connection while they wait for data).
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
	srv->d = MHD_start_daemon(
	    flags, srv->cfg.port, NULL, NULL, on_request, srv, MHD_OPTION_THREAD_POOL_SIZE,
	    (unsigned int)srv->cfg.threads, MHD_OPTION_CONNECTION_TIMEOUT,
	    (unsigned int)srv->cfg.conn_timeout_s, MHD_OPTION_CONNECTION_LIMIT,
	    (unsigned int)srv->cfg.conn_limit, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
	    (size_t)MEMORY_LIMIT, MHD_OPTION_NOTIFY_COMPLETED, completed, srv,
	    MHD_OPTION_URI_LOG_CALLBACK, uri_log, srv, MHD_OPTION_EXTERNAL_LOGGER, mhd_logger, srv,
	    MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1, MHD_OPTION_END);
	if (!srv->d) {
		log_warn("http: cannot listen on port %u", (unsigned)srv->cfg.port);
		pthread_mutex_destroy(&srv->mu);
		pthread_cond_destroy(&srv->cv);
		free(srv);
		return NULL;
	}
	return srv;
}

uint16_t http_port(const http_server *srv)
{
	if (!srv || !srv->d)
		return 0;
	const union MHD_DaemonInfo *i = MHD_get_daemon_info(srv->d, MHD_DAEMON_INFO_BIND_PORT);
	return i ? i->port : 0;
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
	MHD_stop_daemon(srv->d);
	pthread_mutex_destroy(&srv->mu);
	pthread_cond_destroy(&srv->cv);
	free(srv);
}
