/* The HTTP layer on libmicrohttpd: route table, body cap, problem+json, static files.
 *
 * Handlers get a request with the body fully accumulated (≤ HTTP_MAX_BODY) and fill a response.
 * Ownership: everything in http_req is owned by the layer and valid for the handler call only;
 * a handler hands the layer ownership of what it puts in http_resp (body via http_reply_*). */
#ifndef HTTP_H
#define HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct json_object;
struct MHD_Connection;

enum {
	HTTP_MAX_BODY = 64 * 1024,
	HTTP_MAX_URL = 2048,
	HTTP_MAX_PARAMS = 4,
	HTTP_MAX_HEADERS = 8,
};

typedef struct http_req {
	const char *method;                  /* "GET", … */
	const char *path;                    /* decoded path, no query */
	const char *params[HTTP_MAX_PARAMS]; /* path parameters ({id}, …) in pattern order */
	int nparams;
	const char *body; /* NUL-terminated; NULL when empty */
	size_t body_len;
	struct MHD_Connection *conn; /* for headers / query arguments */
	/* The handler runs again (on a waiting thread) because the holder of the reply it parked
	 * deferred it (http_park): what the parked work tried need not be tried again. */
	bool after_park;
} http_req;

/* An immutable body many replies share (a cached reply): reference-counted, freed by the last
 * http_blob_unref; the references may be dropped on any thread. */
typedef struct http_blob http_blob;

/* A parked reply (http_park, below). */
typedef struct http_ticket http_ticket;

typedef struct http_resp {
	int status;
	char *body; /* malloc'ed, owned by the response */
	size_t body_len;
	/* Or a shared body (http_reply_blob), when set: the response holds one reference,
	 * dropped once the reply is sent or cleared; body is then NULL and body_len its size. */
	http_blob *blob;
	const char *content_type; /* static string */
	int nheaders;
	char *headers[HTTP_MAX_HEADERS][2]; /* malloc'ed name/value pairs */
	/* Optional streaming body (server-sent events, big downloads): when stream is set, body
	 * is ignored and the layer answers with a chunked response whose bytes come from
	 * stream(stream_cls, pos, buf, max) — same contract as libmicrohttpd's
	 * MHD_ContentReaderCallback: bytes written, or -1 at the end, -2 on error. Ownership of
	 * stream_cls passes to the layer, which calls stream_free(stream_cls) (when not NULL)
	 * once the response is done or could not be sent. Runs on the connection's thread: a
	 * stream that has to wait for data must not return 0 in a loop (it would spin); SSE will
	 * add connection suspension here. */
	ssize_t (*stream)(void *cls, uint64_t pos, char *buf, size_t max);
	void *stream_cls;
	void (*stream_free)(void *cls);
	/* Optional work the reply need not wait for (fresh planner statistics after an import):
	 * after() runs on a job thread once the reply has been handed on (a heavy route's own job
	 * thread, once it resumed the connection), or, with no job pool or a full queue, on the
	 * handler's thread before the reply is written. It takes nothing from the request; a
	 * cleared response drops it. */
	void (*after)(void);
	/* Set by http_defer alone: the handler would have to wait and did nothing yet; the server
	 * runs it again on a waiting thread (below). */
	bool defer;
	/* Set by http_defer_untried alone: a parked reply's holder deferred it without trying any
	 * of the parked work (the handler runs again with after_park false). */
	bool untried;
	/* Set by http_park alone: another thread finishes the reply (below). */
	void (*park)(http_ticket *ticket, void *arg);
	void *park_arg;
} http_resp;

/* A handler always fills resp (status + body) and returns 0; a non-zero return is a bug and
 * becomes a 500. */
typedef int (*http_handler)(const http_req *req, http_resp *resp);

typedef struct {
	const char *method;
	const char *pattern; /* "/api/v1/er/games/{id}/seats/{seat}/moves" */
	http_handler handler;
	bool api; /* under /api: answered 503 while the DB is down */
	/* Per-route body limits (leagues import); zero values keep the defaults. */
	size_t max_body; /* bytes accepted for this route; 0 = HTTP_MAX_BODY */
	bool any_type;   /* the handler checks Content-Type itself (not only application/json) */
	/* Slow work (password hashing, imports, PDFs): the handler runs on a job thread
	 * (http/jobs.h) while the connection is suspended, so the libmicrohttpd threads keep
	 * serving; a full job queue answers 503 with Retry-After. */
	bool heavy;
	/* Optional check once the headers are in, before any body byte is read (runs on the
	 * libmicrohttpd thread: keep it to a cheap lookup). Returns 0 like a handler; leaving
	 * resp empty (status 0) lets the request go on, a filled resp (401, 403, …) is answered at
	 * once and the body is never read. req has no body; headers, query and params are there
	 * as for the handler. */
	http_handler pre_body;
} http_route;

/* ---- replies (response.c) ---- */
/* Serialises obj (takes ownership, frees it) as application/json. */
int http_reply_json(http_resp *resp, int status, struct json_object *obj);
/* application/json from text already written (len bytes, a copy is taken: a success reply of
 * up to about 32 KB in a block reused from reply to reply, as a blob). */
int http_reply_json_text(http_resp *resp, int status, const char *text, size_t len);
/* resp's body (NUL-terminated, body_len bytes) whether it is its own or a blob; NULL: none. */
const char *http_resp_body(const http_resp *resp);
/* application/problem+json {"type","title","status","detail"} plus "rule" / "field" when not
 * NULL. type is derived from status (or rule). */
int http_reply_problem(http_resp *resp, int status, const char *detail, const char *rule,
                       const char *field);
/* Same, with an extra member set (takes ownership of extra, an object merged into the problem). */
int http_reply_problem_ex(http_resp *resp, int status, const char *detail, const char *rule,
                          const char *field, struct json_object *extra);
int http_resp_header(http_resp *resp, const char *name, const char *value);
/* Has resp a header of this name (any case)? */
bool http_resp_has_header(const http_resp *resp, const char *name);
void http_resp_clear(http_resp *resp);
/* A blob of data (len bytes, malloc'ed; taken), with one reference. */
http_blob *http_blob_take(char *data, size_t len);
/* Another reference to b (returned). */
http_blob *http_blob_ref(http_blob *b);
void http_blob_unref(http_blob *b);
size_t http_blob_len(const http_blob *b);
const char *http_blob_data(const http_blob *b);
/* Replaces resp's body with b (a reference taken) as a 200 reply of type ct (static). */
void http_reply_blob(http_resp *resp, http_blob *b, const char *ct);

/* Request helpers */
const char *http_header(const http_req *req, const char *name);
const char *http_query(const http_req *req, const char *name);
/* s as a whole number from lo to hi (0 ≤ lo: decimal digits only, no sign or space); -1 when
 * it is not one. */
int http_whole_number(const char *s, int lo, int hi);
/* Query parameter `name` as a whole number from lo to hi (0 ≤ lo), def when it is absent: true
 * with *v, else false after a 400 problem naming it (field "/name", rule, which may be NULL). */
bool http_query_number(const http_req *req, http_resp *resp, const char *name, int def, int lo,
                       int hi, const char *rule, int *v);
/* Does an If-None-Match value (a list, or "*"; NULL: none) name etag? Weak comparison (RFC 9110
 * §13.1.2). Static files and PDFs answer 304 with it. */
bool http_etag_matches(const char *if_none_match, const char *etag);
/* in (size bytes) gzip-compressed (zlib, level 6): a malloc'd buffer (caller frees) and its
 * length in *out_len, or NULL when compressing fails (the caller sends it as it is). */
void *http_gzip(const void *in, size_t size, size_t *out_len);
/* Does an Accept-Encoding value (NULL: none) take gzip? RFC 9110 §12.5.3: gzip (or x-gzip)
 * listed with a weight above 0, or, when it is not listed, "*" with a weight above 0; q=0,
 * q=0.0 and q=0.000 refuse, and a malformed weight counts as 0. */
bool http_accepts_gzip(const char *accept_encoding);
/* Parses the body strictly (json/spec.h) into *out (caller owns), or fills a 400/415 problem
 * into resp and returns -1. Checks Content-Type: application/json. */
int http_body_json(const http_req *req, http_resp *resp, struct json_object **out);
/* Did the request come over TLS: the daemon serves HTTPS, or a trusted reverse proxy
 * (http_config.trust_proxy) says so with X-Forwarded-Proto: https? Secure cookies depend on
 * it (leagues). */
bool http_req_tls(const http_req *req);
/* Is the request's peer a trusted reverse proxy (http_config.trust_proxy)? */
bool http_req_via_trusted_proxy(const http_req *req);

/* ---- the addresses other phones reach this server at (addresses.c) ---- */
/* What they depend on: the port, HTTPS, LISTEN ("" for every interface) and whether a proxy is
 * trusted. Called before the server starts; http_addresses_port() gives the port it got
 * (PORT=0: one the system chose). */
void http_addresses_init(unsigned port, bool https, const char *listen, bool proxied);
void http_addresses_port(unsigned port);
enum { HTTP_URL_MAX = 64 };
struct ifaddrs;
/* The URLs ("http://192.168.1.20:8080/") of the IPv4 addresses in the interface list ifa that are
 * up and neither loopback nor link-local, at most max of them into out; returns how many. */
size_t http_lan_urls(const struct ifaddrs *ifa, unsigned port, bool https,
                     char (*out)[HTTP_URL_MAX], size_t max);
/* The URLs other phones on the network can open this server at: the machine's LAN addresses, or
 * the LISTEN address; none when PUBLIC_URL is set (that is the address to give), a proxy is
 * trusted, or LISTEN is a loopback address. At most max into out; returns how many. */
size_t http_share_lan(char (*out)[HTTP_URL_MAX], size_t max);
/* Is the numeric address addr (IPv4, IPv6, IPv4-mapped IPv6) the machine itself or on a
 * private network: loopback, 10/8, 172.16/12, 192.168/16, link-local 169.254/16 and fe80::/10,
 * unique local fc00::/7? false for any other address (the Internet, a carrier's 100.64/10) and
 * for a text that is no address. */
bool http_addr_is_local(const char *addr);
/* Is the request's client (http_client_addr: behind a trusted proxy, the client it forwarded)
 * such an address? Only those are told the machine's LAN addresses. */
bool http_client_is_local(const http_req *req);
/* Is this Host header value (or LISTEN address) the machine itself: localhost, 127.x, [::1]? */
bool http_host_is_loopback(const char *host);
/* The origin ("http://192.168.1.20:8080", no trailing slash) that links and QR codes for other
 * phones start with: PUBLIC_URL; else, for a request to a loopback Host from a local client
 * (http_client_is_local), the first LAN address (http_share_lan); else the scheme of the
 * request and its Host. Into out (cap bytes). */
void http_share_origin(const http_req *req, char *out, size_t cap);
/* 400 problem+json from a js_fields/js_value error (its field pointer and detail). */
int http_reply_invalid(http_resp *resp, const char *field, const char *detail);

/* ---- waiting (jobs.c): no libmicrohttpd thread ever waits for another request ----
 * A handler that would have to wait — for its game's turn, for a row another session holds, for
 * another request computing the same reply — does so only where http_may_wait() is true: on a
 * job thread or a waiting thread. On a libmicrohttpd thread it calls http_defer before it
 * builds any reply or changes anything; the server then suspends the connection and runs the
 * handler again, from the start, on one of its waiting threads (a full queue of them: 503 with
 * Retry-After). So a handler that defers must be one that can be run twice. */
bool http_may_wait(void);
/* Marks the calling thread as one that may wait (job and waiting threads; tests). */
void http_thread_may_wait(bool yes);
/* resp cleared and marked deferred; returns 0 (a handler's return value). */
int http_defer(http_resp *resp);

/* ---- parking (request.c): a reply that another thread finishes ----
 * A handler whose reply waits for work another thread does for many requests at once (the
 * table engine's grouped writes) calls http_park(resp, start, arg) and returns 0. The server
 * suspends the connection, then calls start(ticket, arg) on the connection's thread; from then
 * on the ticket's holder owns the reply: it fills http_ticket_resp(ticket) — a reply, or
 * http_defer to have the handler run again from the start on a waiting thread — and calls
 * http_ticket_done(ticket) exactly once, from any thread; the ticket is not its own after
 * that. The server's stop waits for every parked reply. */
/* As http_defer, by a parked reply's holder that tried none of the parked work: the handler
 * runs again as if it had deferred before it parked. */
int http_defer_untried(http_resp *resp);
/* resp cleared and marked parked (start runs once the connection is suspended); returns 0. */
int http_park(http_resp *resp, void (*start)(http_ticket *ticket, void *arg), void *arg);
/* The reply the ticket's holder fills (no json-c object in it outlives the holder's thread
 * once done: bodies are text). */
http_resp *http_ticket_resp(http_ticket *ticket);
/* The reply is complete: the connection resumes and its thread sends it. */
void http_ticket_done(http_ticket *ticket);

/* ---- router (router.c) ---- */
typedef enum { ROUTE_FOUND, ROUTE_NOT_FOUND, ROUTE_BAD_METHOD } route_match;
/* Matches path against the table; on ROUTE_FOUND *route and params are set (params point into
 * buf, a caller scratch buffer of HTTP_MAX_URL bytes); on ROUTE_BAD_METHOD allow receives the
 * comma-separated allowed methods. path is the raw (percent-encoded) path without the query:
 * segments are split on '/' first, then decoded, so a parameter never contains '/' (a segment
 * that decodes to one, a NUL, or a malformed escape matches no route). HEAD matches GET
 * routes. */
route_match router_match(const http_route *routes, size_t nroutes, const char *method,
                         const char *path, const http_route **route, const char **params,
                         int *nparams, char *buf, size_t buflen, char *allow, size_t allowlen);

/* ---- server (server.c, request.c, conns.c) ---- */
typedef struct {
	uint16_t port;
	unsigned threads;    /* thread pool size */
	unsigned conn_limit; /* 0: from the file descriptor limit (conns.c conn_fit_fd_limit) */
	unsigned conn_timeout_s;
	/* ---- hostile and broken clients (conns.c, sse.c) ---- */
	const char *listen;             /* numeric IPv4/IPv6 address; NULL or "": every interface */
	unsigned per_addr;              /* connections per client address (0: 64); beyond: 429 */
	unsigned deadline_s;            /* a request's head and body within this (0: 10 s) */
	const char *trust_proxy;        /* comma-separated proxy addresses whose X-Forwarded-For is
	                                 * believed (NULL: none) */
	const char *tls_cert, *tls_key; /* PEM file paths: serve HTTPS (both or neither) */
	unsigned sse_per_topic, sse_per_owner; /* event streams per game / per token (0: none) */
	const char *static_dir;
	const http_route *routes;
	size_t nroutes;
	bool (*api_available)(void); /* false → 503 + Retry-After for api routes */
	/* Optional: runs for every request to a route whose method is not GET or HEAD, once the
	 * headers are in and before any body byte is read, like http_route.pre_body (a filled resp
	 * is answered at once). The table's read-only display token is refused here. */
	http_handler write_guard;
	/* Optional: called by http_stop once no new connection is accepted and before it waits
	 * for in-flight requests, to end long-lived responses (server-sent events) so the drain
	 * can finish. Suspended connections must be resumed here (libmicrohttpd requires it). */
	void (*on_quiesce)(void);
	/* Optional: called for every request to a route whose method is not GET or HEAD once its
	 * head is in, and again right before its reply is queued (after whatever it wrote is
	 * committed): what this process keeps of the database's state drops its copies there. */
	void (*on_write)(void);
	/* the job pool of heavy routes: threads (0: 2) and waiting jobs (0: 64) */
	unsigned job_threads, job_queue;
	/* the waiting threads of deferred requests (http_defer): threads (0: as many as the
	 * libmicrohttpd threads) and requests queued for them (0: 256) */
	unsigned wait_threads, wait_queue;
	/* run first on each job and waiting thread, before the server answers (its database
	 * connection, so that a request handed to the thread never waits for one); may be NULL */
	void (*pool_thread_start)(void);
} http_config;

typedef struct http_server http_server;
http_server *http_start(const http_config *cfg);
/* Stops accepting, lets in-flight requests finish, closes connections, frees. */
void http_stop(http_server *srv);
/* The port the server listens on (useful with cfg.port = 0: any free port). */
uint16_t http_port(const http_server *srv);
/* The client's address as text into buf: the peer's (IPv4-mapped IPv6 shown as IPv4), or,
 * when the peer is a trusted proxy (http_config.trust_proxy), the first address of its
 * X-Forwarded-For, read from the right, that is not itself a trusted proxy. "" when unknown. */
void http_client_addr(const http_req *req, char *buf, size_t len);
/* Does the server speak HTTPS (TLS_CERT / TLS_KEY)? */
bool http_tls(const http_server *srv);

/* ---- internals shared by request.c, router.c, static.c (not for handlers) ---- */
struct MHD_Response;
/* Percent-decodes src[0..len) into dst (room for dstlen bytes with the NUL). Returns the
 * decoded length, or -1 on a malformed escape, a decoded NUL byte, or too little room. */
long http_pct_decode(const char *src, size_t len, char *dst, size_t dstlen);
/* ---- parameters as text (query.c) ---- */
/* Why s[0..len) is not text PostgreSQL takes: "nul-byte" (a NUL), "not-utf8" (not UTF-8 in
 * its shortest form, a surrogate, or above U+10FFFF); NULL when it is text. */
const char *http_text_problem(const char *s, size_t len);
bool http_text_ok(const char *s, size_t len);
/* One query parameter (value NULL: a name without "="): true after filling resp with its 400
 * when its name or value is not text. */
bool http_query_arg_refused(const char *key, size_t key_size, const char *value, size_t value_size,
                            http_resp *resp);
/* Checks every query parameter of conn (name and value, as libmicrohttpd decoded them; conn
 * may be NULL) and every path parameter (params[0..nparams), named by pattern's "{name}"s):
 * true after filling resp with a 400 problem (rule nul-byte or not-utf8, field "/name") for
 * the first that is not text; false when all are. The server runs it before any handler. */
bool http_params_refused(struct MHD_Connection *conn, const char *pattern,
                         const char *const *params, int nparams, http_resp *resp);
/* Is this Content-Type application/json (parameters such as ;charset=utf-8 allowed)? */
bool http_content_type_is_json(const char *content_type);
/* Answers GET/HEAD of raw_path (percent-encoded, no query) from root (an absolute, resolved
 * directory): queues a 200/304 on conn and returns its status (the reply may be one queued on
 * other connections too: static.c), returns 0 when queueing failed, or returns an error status
 * with nothing queued and a problem filled into err. keep_alive_s: the seconds an idle
 * kept-alive connection stays open, said in the reply's Keep-Alive header (the same in every
 * call of a process: the replies of unchanged files are kept and shared); 0: the reply
 * carries Connection: close. */
int http_static(const char *root, const char *raw_path, struct MHD_Connection *conn,
                unsigned keep_alive_s, http_resp *err);

#endif
