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
} http_req;

typedef struct http_resp {
	int status;
	char *body; /* malloc'ed, owned by the response */
	size_t body_len;
	const char *content_type; /* static string */
	int nheaders;
	char *headers[HTTP_MAX_HEADERS][2]; /* malloc'ed name/value pairs */
} http_resp;

/* A handler always fills resp (status + body) and returns 0; a non-zero return is a bug and
 * becomes a 500. */
typedef int (*http_handler)(const http_req *req, http_resp *resp);

typedef struct {
	const char *method;
	const char *pattern; /* "/api/v1/er/games/{id}/seats/{seat}/moves" */
	http_handler handler;
	bool api; /* under /api: answered 503 while the DB is down */
} http_route;

/* ---- replies (response.c) ---- */
/* Serialises obj (takes ownership, frees it) as application/json. */
int http_reply_json(http_resp *resp, int status, struct json_object *obj);
/* application/problem+json {"type","title","status","detail"} plus "rule" / "field" when not
 * NULL. type is derived from status (or rule). */
int http_reply_problem(http_resp *resp, int status, const char *detail, const char *rule,
                       const char *field);
/* Same, with an extra member set (takes ownership of extra, an object merged into the problem). */
int http_reply_problem_ex(http_resp *resp, int status, const char *detail, const char *rule,
                          const char *field, struct json_object *extra);
int http_resp_header(http_resp *resp, const char *name, const char *value);
void http_resp_clear(http_resp *resp);

/* Request helpers */
const char *http_header(const http_req *req, const char *name);
const char *http_query(const http_req *req, const char *name);
/* Parses the body strictly (json/spec.h) into *out (caller owns), or fills a 400/415 problem
 * into resp and returns -1. Checks Content-Type: application/json. */
int http_body_json(const http_req *req, http_resp *resp, struct json_object **out);

/* ---- router (router.c) ---- */
typedef enum { ROUTE_FOUND, ROUTE_NOT_FOUND, ROUTE_BAD_METHOD } route_match;
/* Matches path against the table; on ROUTE_FOUND *route and params are set (params point into
 * buf, a caller scratch buffer of HTTP_MAX_URL bytes); on ROUTE_BAD_METHOD allow receives the
 * comma-separated allowed methods. */
route_match router_match(const http_route *routes, size_t nroutes, const char *method,
                         const char *path, const http_route **route, const char **params,
                         int *nparams, char *buf, size_t buflen, char *allow, size_t allowlen);

/* ---- server (server.c) ---- */
typedef struct {
	uint16_t port;
	unsigned threads; /* thread pool size */
	unsigned conn_limit;
	unsigned conn_timeout_s;
	const char *static_dir;
	const http_route *routes;
	size_t nroutes;
	bool (*api_available)(void); /* false → 503 + Retry-After for api routes */
} http_config;

typedef struct http_server http_server;
http_server *http_start(const http_config *cfg);
/* Stops accepting, lets in-flight requests finish, closes connections, frees. */
void http_stop(http_server *srv);

#endif
