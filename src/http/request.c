/* A request's life on the libmicrohttpd daemon, from its request line to its access-log line:
 * the per-request context, the checks answered before any body byte is read, body accumulation
 * with the route's cap, dispatch to the route's handler or to static files (a heavy route's
 * handler on the job pool, a deferred one on the waiting threads), queueing the reply, the
 * access log. Starting and stopping the daemon is server.c's.
 *
 * Request life cycle (the standard MHD pattern):
 *   request_uri_log()     request line parsed: take a context (raw target, start time), count
 *                         the request as in flight;
 *   request_access #1     headers parsed: 414 / 413 by Content-Length / 404 / 405 / 415 / 503,
 *                         and what the route's pre-body check refuses (401, 403, …), are
 *                         answered at once (MHD then closes the connection instead of reading
 *                         a body);
 *   request_access #n     body bytes: appended up to the route's cap (HTTP_MAX_BODY unless the
 *                         route sets max_body), then discarded (→ 413);
 *   request_access end    body complete: the handler runs and its http_resp is queued (a heavy
 *                         route's handler runs on the job pool while the connection is
 *                         suspended; the call after the resume queues its response);
 *   request_completed()   access-log line, context freed, in-flight count decremented.
 *
 * Ownership: the context belongs to MHD's per-request slot (*con_cls) and is freed only in
 * request_completed(); http_resp contents move into the MHD_Response when queued
 * (queue_resp). */
#include "http/server_internal.h"

/* A heavy route's request on the job pool, or a deferred one on a waiting thread (http_defer).
 * finish() creates it on the connection's thread and
 * suspends the connection; from jobs_push on, the job thread owns it (resp included: every
 * json-c object the handler makes stays on that thread), sets done and resumes the
 * connection as its last act; then the connection's thread owns it again: finish() queues
 * resp, request_completed() frees it. */
typedef struct heavy_job {
	job base; /* first member: the pool hands back &base */
	req_ctx *c;
	struct MHD_Connection *conn;
	http_req req; /* path points to path below, params into c->pbuf, body to c->body */
	char path[HTTP_MAX_URL + 1];
	http_resp resp;
	atomic_bool done;
	bool parked; /* a parked reply (http_park): the holder of the ticket fills resp */
} heavy_job;

/* A parked reply's ticket is its job (request.c alone looks inside). */
struct http_ticket {
	heavy_job hj;
};

/* ---- queueing a reply ---- */

static void remember_problem(req_ctx *c, const http_resp *resp)
{
	c->note[0] = '\0';
	const char *body = http_resp_body(resp);
	if (resp->status < 400 || !body)
		return;
	struct json_object *o = json_tokener_parse(body), *d = NULL, *f = NULL;
	if (o && json_object_object_get_ex(o, "detail", &d)) {
		char tmp[200];
		target_sanitize(tmp, sizeof tmp, json_object_get_string(d), sizeof tmp - 1);
		if (json_object_object_get_ex(o, "field", &f) && *json_object_get_string(f)) {
			char ft[64];
			target_sanitize(ft, sizeof ft, json_object_get_string(f), sizeof ft - 1);
			snprintf(c->note, sizeof c->note, "field=%s %s", ft, tmp);
		} else {
			snprintf(c->note, sizeof c->note, "%s", tmp);
		}
	}
	json_object_put(o);
}

/* The MHD_Response of a shared body is gone: its reference goes. */
static void blob_release(void *cls)
{
	http_blob_unref(cls);
}

/* How long an idle kept-alive connection stays open after this request's reply (conn_reaper
 * closes it after the request deadline, libmicrohttpd after the connection timeout), said in
 * the reply's Keep-Alive header as Apache does: a client that reads it (Node's http.Agent)
 * drops its pooled socket before then, rather than sending a request into a connection being
 * closed. 0: the reply closes the connection (the server's choice or the client's). */
static unsigned keep_alive_s(const req_ctx *c, struct MHD_Connection *conn)
{
	const http_config *cfg = &c->srv->cfg;
	const char *asked =
	    MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONNECTION);
	if (c->close || atomic_load(&c->srv->stopping) || (asked && strcasestr(asked, "close")))
		return 0;
	return cfg->deadline_s < cfg->conn_timeout_s ? cfg->deadline_s : cfg->conn_timeout_s;
}

/* Hands resp to MHD (its body, headers and stream move into the MHD_Response) and clears it. */
static enum MHD_Result queue_resp(req_ctx *c, struct MHD_Connection *conn, http_resp *resp)
{
	struct MHD_Response *r;
	remember_problem(c, resp);
	conn_head_done(c->srv, conn);
	if (resp->stream) {
		r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, resp->stream,
		                                      resp->stream_cls, resp->stream_free);
		if (r)
			resp->stream = NULL; /* MHD calls stream_free now */
	} else if (resp->blob) {
		r = MHD_create_response_from_buffer_with_free_callback_cls(
		    http_blob_len(resp->blob), (void *)http_blob_data(resp->blob), blob_release,
		    resp->blob);
		if (r)
			resp->blob = NULL; /* MHD drops the reference */
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
	unsigned keep_alive = keep_alive_s(c, conn);
	char value[32] = "close";
	if (keep_alive)
		snprintf(value, sizeof value, "timeout=%u", keep_alive);
	if (ok)
		ok = MHD_add_response_header(r,
		                             keep_alive ? "Keep-Alive" : MHD_HTTP_HEADER_CONNECTION,
		                             value) == MHD_YES;
	int status = resp->status;
	http_resp_clear(resp);
	if (c->writes) /* before the client can see the reply and read again */
		c->srv->cfg.on_write();
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

/* One spare request context per connection thread: the next request on the thread takes the
 * block the last one gave back instead of allocating 2.6 KB, and only the fields before its
 * buffers are cleared. A thread's spare is freed when the thread ends (the key's destructor). */
static pthread_key_t spare_key;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;
static bool spare_ok;

static void spare_key_make(void)
{
	spare_ok = pthread_key_create(&spare_key, free) == 0;
}

/* A cleared context; the caller owns it until ctx_give. */
static req_ctx *ctx_take(void)
{
	pthread_once(&spare_once, spare_key_make);
	req_ctx *c = spare_ok ? pthread_getspecific(spare_key) : NULL;
	if (c)
		pthread_setspecific(spare_key, NULL);
	else
		c = xmalloc(sizeof *c);
	memset(c, 0, offsetof(req_ctx, pbuf));
	c->note[0] = '\0';
	c->pending_value[0] = '\0';
	return c;
}

/* Gives back a context whose own allocations are freed: kept as the thread's spare, or freed. */
static void ctx_give(req_ctx *c)
{
	if (spare_ok && !pthread_getspecific(spare_key) && pthread_setspecific(spare_key, c) == 0)
		return;
	free(c);
}

void *request_uri_log(void *cls, const char *uri, struct MHD_Connection *conn)
{
	http_server *srv = cls;
	(void)conn;
	req_ctx *c = ctx_take();
	c->srv = srv;
	clock_gettime(CLOCK_MONOTONIC, &c->t0);
	c->raw_len = strlen(uri);
	c->raw = target_capture(uri);
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
	    .after_park = c->after_park,
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
	target_sanitize(p, sizeof p, c->raw, 120);
	log_bug("handler for %s %s returned %d with status %d", c->method, p, rc, resp->status);
	http_resp_clear(resp);
	http_reply_problem(resp, 500, "Internal server error.", NULL, NULL);
}

/* A check before the body (http_route.pre_body, http_config.write_guard): a refusal is answered
 * now, before any body byte is read (MHD then closes the connection instead of reading the
 * body); MHD_YES without a reply lets the request go on. */
static enum MHD_Result check_pre_body(req_ctx *c, struct MHD_Connection *conn, const char *method,
                                      http_handler check)
{
	char path[HTTP_MAX_URL + 1];
	http_req req;
	make_req(c, conn, method, path, &req);
	http_resp resp = {0};
	int rc = check(&req, &resp);
	if (rc == 0 && resp.status == 0)
		return MHD_YES;
	check_handler_result(c, rc, &resp);
	return queue_resp(c, conn, &resp);
}

/* First call, headers parsed: everything that can be answered before reading a body. */
static enum MHD_Result begin(req_ctx *c, struct MHD_Connection *conn, const char *method)
{
	http_server *srv = c->srv;
	conn_slot *sl = conn_slot_of(conn);
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

	http_resp bad = {0};
	if (http_params_refused(conn, c->route->pattern, c->params, c->nparams, &bad))
		return queue_resp(c, conn, &bad); /* a parameter that is not text: 400 */
	bool reads = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
	if (!reads && srv->cfg.on_write) {
		c->writes = true;
		srv->cfg.on_write();
	}
	if (!reads && srv->cfg.write_guard) {
		enum MHD_Result r = check_pre_body(c, conn, method, srv->cfg.write_guard);
		if (r != MHD_YES || c->replied)
			return r;
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
		return check_pre_body(c, conn, method, c->route->pre_body);
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

/* ---- heavy routes on the job pool, deferred requests on the waiting threads ---- */

/* On a pool thread: the handler fills hj->resp; then the connection's thread takes over. A
 * handler that defers here, where it may wait, is our bug (check_handler_result: 500). */
static void heavy_run(job *j)
{
	heavy_job *hj = (heavy_job *)j;
	struct MHD_Connection *conn = hj->conn;
	check_handler_result(hj->c, hj->c->route->handler(&hj->req, &hj->resp), &hj->resp);
	void (*after)(void) = hj->resp.after;
	atomic_store(&hj->done, true);
	MHD_resume_connection(conn); /* hj may be freed from here on */
	if (after)
		after();
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

/* Hands a complete request to pool (a heavy route's to the job pool, a deferred one to the
 * waiting threads) and suspends its connection; MHD calls request_access again once the job
 * resumes it, and finish() queues the job's response. The connection is suspended before the
 * job is queued, so the resume always follows the suspension. A full queue (or no pool) is
 * answered 503 with Retry-After at once, busy saying why. */
static enum MHD_Result run_on_pool(req_ctx *c, struct MHD_Connection *conn, const char *method,
                                   jobs *pool, const char *busy)
{
	if (!pool || !jobs_reserve(pool))
		return reply_problem(c, conn, 503, busy, MHD_HTTP_HEADER_RETRY_AFTER, "2");
	heavy_job *hj = xcalloc(1, sizeof *hj);
	hj->base.run = heavy_run;
	hj->base.cancel = heavy_cancel;
	hj->c = c;
	hj->conn = conn;
	make_req(c, conn, method, hj->path, &hj->req);
	atomic_init(&hj->done, false);
	c->hj = hj;
	MHD_suspend_connection(conn);
	jobs_push(pool, &hj->base);
	return MHD_YES;
}

/* Suspends the connection of a handler that parked its reply (http_park), then hands the
 * ticket to start; finish() queues the reply once the ticket is done, or runs the handler again
 * on a waiting thread when its holder deferred it. */
static enum MHD_Result park(req_ctx *c, struct MHD_Connection *conn,
                            void (*start)(http_ticket *, void *), void *arg)
{
	http_ticket *t = xcalloc(1, sizeof *t);
	heavy_job *hj = &t->hj;
	hj->c = c;
	hj->conn = conn;
	hj->parked = true;
	atomic_init(&hj->done, false);
	c->hj = hj;
	atomic_fetch_add(&c->srv->parked, 1);
	MHD_suspend_connection(conn);
	start(t, arg);
	return MHD_YES;
}

http_resp *http_ticket_resp(http_ticket *t)
{
	return &t->hj.resp;
}

void http_ticket_done(http_ticket *t)
{
	http_server *srv = t->hj.c->srv;
	struct MHD_Connection *conn = t->hj.conn;
	atomic_store(&t->hj.done, true);
	MHD_resume_connection(conn); /* t may be freed from here on */
	atomic_fetch_sub(&srv->parked, 1);
}

/* A light route's http_resp.after, run on the job pool so that the reply does not wait for it
 * (queued replies are written once the handler's thread is back in libmicrohttpd's loop). */
typedef struct after_job {
	job base; /* first member: the pool hands back &base */
	void (*after)(void);
} after_job;

static void after_run(job *j)
{
	after_job *aj = (after_job *)j;
	aj->after();
	free(aj);
}

static void after_cancel(job *j)
{
	free(j); /* the pool stops: the work is left undone, as on a crash */
}

/* Hands after to the job pool; with no pool or a full queue, runs it here (the reply then
 * waits for it, rather than the work being lost). */
static void run_after(http_server *srv, void (*after)(void))
{
	if (!after)
		return;
	if (!srv->jobs || !jobs_reserve(srv->jobs)) {
		after();
		return;
	}
	after_job *aj = xcalloc(1, sizeof *aj);
	aj->base.run = after_run;
	aj->base.cancel = after_cancel;
	aj->after = after;
	jobs_push(srv->jobs, &aj->base);
}

/* Body complete: static file or handler (or, once a heavy route's job resumed the
 * connection, the job's response). */
static enum MHD_Result finish(req_ctx *c, struct MHD_Connection *conn, const char *method)
{
	http_server *srv = c->srv;
	if (c->hj && !atomic_load(&c->hj->done))
		return MHD_YES;
	if (c->hj && c->hj->parked && c->hj->resp.defer) { /* again, on a waiting thread */
		c->after_park = !c->hj->resp.untried;
		http_resp_clear(&c->hj->resp);
		free(c->hj);
		c->hj = NULL;
		return run_on_pool(c, conn, method, srv->waits,
		                   "Too many requests are waiting; try again shortly.");
	}
	if (c->hj)
		return queue_resp(c, conn, &c->hj->resp);
	conn_head_done(srv, conn);
	if (c->pending)
		return reply_problem(c, conn, c->pending, c->pending_detail, c->pending_header,
		                     c->pending_header ? c->pending_value : NULL);
	if (c->too_large)
		return reply_too_large(c, conn);
	if (c->is_static) {
		http_resp err = {0};
		int st = srv->root[0]
		             ? http_static(srv->root, c->raw, conn, keep_alive_s(c, conn), &err)
		             : (http_reply_problem(&err, 404, "No such file.", NULL, NULL), 404);
		if (st >= 400)
			return err.body ? queue_resp(c, conn, &err) : MHD_NO;
		http_resp_clear(&err);
		if (st == 0)
			return MHD_NO;
		c->status = st;
		c->replied = true;
		return MHD_YES;
	}

	if (c->route->heavy && srv->jobs)
		return run_on_pool(c, conn, method, srv->jobs,
		                   "The server is busy with slow requests; try again shortly.");
	char path[HTTP_MAX_URL + 1];
	http_req req;
	make_req(c, conn, method, path, &req);
	http_resp resp = {0};
	int rc = c->route->handler(&req, &resp);
	if (rc == 0 && resp.defer) { /* it would wait: again, on a waiting thread */
		http_resp_clear(&resp);
		return run_on_pool(c, conn, method, srv->waits,
		                   "Too many requests are waiting; try again shortly.");
	}
	if (rc == 0 && resp.park) { /* another thread finishes the reply */
		void (*start)(http_ticket *, void *) = resp.park;
		void *arg = resp.park_arg;
		http_resp_clear(&resp);
		return park(c, conn, start, arg);
	}
	check_handler_result(c, rc, &resp);
	void (*after)(void) = resp.after;
	enum MHD_Result res = queue_resp(c, conn, &resp);
	run_after(c->srv, after);
	return res;
}

enum MHD_Result request_access(void *cls, struct MHD_Connection *conn, const char *url,
                               const char *method, const char *version, const char *upload_data,
                               size_t *upload_data_size, void **con_cls)
{
	req_ctx *c = *con_cls;
	(void)cls;
	(void)url; /* MHD's decoded copy: we route on the raw target instead */
	(void)version;
	if (!c || !c->raw)
		return MHD_NO; /* out of memory in request_uri_log */
	if (!c->started) {
		c->started = true;
		conn_head_in(c->srv, conn);
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

void request_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
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
	target_sanitize(path, sizeof path, c->raw ? c->raw : "", 200);
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
	ctx_give(c);
	conn_next_request(srv, conn);
	pthread_mutex_lock(&srv->mu);
	if (srv->active)
		srv->active--;
	if (srv->active == 0)
		pthread_cond_broadcast(&srv->cv);
	pthread_mutex_unlock(&srv->mu);
}
