/* The HTTP layer: route matching (router.c), and the server (server.c, request.c, response.c,
 * static.c)
 * started in-process on a free port with a test route table, driven over raw sockets. */
#include "http/http.h"
#include "json/spec.h"
#include "test.h"

#include <arpa/inet.h>
#include <json-c/json.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- router */

static int h_dummy(const http_req *req, http_resp *resp)
{
	(void)req;
	(void)resp;
	return 0;
}

static const http_route R[] = {
    {"GET", "/api/v1/health", h_dummy, false, 0, false, false, NULL},
    {"GET", "/api/v1/er/games/new", h_dummy, true, 0, false, false,
     NULL}, /* literal before the pattern wins */
    {"GET", "/api/v1/er/games/{id}", h_dummy, true, 0, false, false, NULL},
    {"DELETE", "/api/v1/er/games/{id}", h_dummy, true, 0, false, false, NULL},
    {"POST", "/api/v1/er/games/{id}/seats/{seat}/moves", h_dummy, true, 0, false, false, NULL},
    {"DELETE", "/api/v1/er/games/{id}/seats/{seat}/moves/{turn}", h_dummy, true, 0, false, false,
     NULL},
    {"POST", "/api/v1/er/games", h_dummy, true, 0, false, false, NULL},
};
enum { NR = sizeof R / sizeof R[0] };

static route_match M(const char *method, const char *path, const http_route **rt,
                     const char **params, int *np, char *allow)
{
	static char buf[HTTP_MAX_URL];
	return router_match(R, NR, method, path, rt, params, np, buf, sizeof buf, allow, 64);
}

static void t_match(void)
{
	const http_route *rt;
	const char *p[HTTP_MAX_PARAMS];
	int np = -1;
	char allow[64];
	CHECK_EQ_INT(M("GET", "/api/v1/health", &rt, p, &np, allow), ROUTE_FOUND);
	CHECK(rt == &R[0]);
	CHECK_EQ_INT(np, 0);
	CHECK_EQ_INT(M("GET", "/api/v1/er/games/new", &rt, p, &np, allow), ROUTE_FOUND);
	CHECK(rt == &R[1]);
	CHECK_EQ_INT(M("GET", "/api/v1/er/games/abc123", &rt, p, &np, allow), ROUTE_FOUND);
	CHECK(rt == &R[2]);
	CHECK_EQ_INT(np, 1);
	CHECK_STR(p[0], "abc123");
	CHECK_EQ_INT(M("POST", "/api/v1/er/games/g1/seats/3/moves", &rt, p, &np, allow),
	             ROUTE_FOUND);
	CHECK(rt == &R[4]);
	CHECK_EQ_INT(np, 2);
	CHECK_STR(p[0], "g1");
	CHECK_STR(p[1], "3");
	CHECK_EQ_INT(M("DELETE", "/api/v1/er/games/g1/seats/3/moves/7", &rt, p, &np, allow),
	             ROUTE_FOUND);
	CHECK_EQ_INT(np, 3);
	CHECK_STR(p[2], "7");
	CHECK_EQ_INT(M("POST", "/api/v1/er/games", &rt, p, &np, allow), ROUTE_FOUND);
	CHECK(rt == &R[6]);
	/* HEAD is answered by GET routes */
	CHECK_EQ_INT(M("HEAD", "/api/v1/health", &rt, p, &np, allow), ROUTE_FOUND);
}

static void t_params_decoded(void)
{
	const http_route *rt;
	const char *p[HTTP_MAX_PARAMS];
	int np;
	char allow[64];
	CHECK_EQ_INT(M("GET", "/api/v1/er/games/a%20b%C3%A9", &rt, p, &np, allow), ROUTE_FOUND);
	CHECK_STR(p[0], "a b\xc3\xa9");
	/* '/' after decoding, NUL, malformed escapes, empty parameters: no route */
	CHECK_EQ_INT(M("GET", "/api/v1/er/games/a%2Fb", &rt, p, &np, allow), ROUTE_NOT_FOUND);
	CHECK_EQ_INT(M("GET", "/api/v1/er/games/a%2fb", &rt, p, &np, allow), ROUTE_NOT_FOUND);
	CHECK_EQ_INT(M("GET", "/api/v1/er/games/a%00b", &rt, p, &np, allow), ROUTE_NOT_FOUND);
	CHECK_EQ_INT(M("GET", "/api/v1/er/games/a%zz", &rt, p, &np, allow), ROUTE_NOT_FOUND);
	CHECK_EQ_INT(M("GET", "/api/v1/er/games/a%4", &rt, p, &np, allow), ROUTE_NOT_FOUND);
	CHECK_EQ_INT(M("GET", "/api/v1/er/games/", &rt, p, &np, allow), ROUTE_NOT_FOUND);
	CHECK_EQ_INT(M("POST", "/api/v1/er/games//seats/1/moves", &rt, p, &np, allow),
	             ROUTE_NOT_FOUND);
	/* encoded literals still match the literal */
	CHECK_EQ_INT(M("GET", "/api/v1/%68ealth", &rt, p, &np, allow), ROUTE_FOUND);
}

static void t_not_found(void)
{
	const http_route *rt = R;
	char allow[64];
	CHECK_EQ_INT(M("GET", "/api/v1/healthz", &rt, NULL, NULL, allow), ROUTE_NOT_FOUND);
	CHECK(rt == NULL);
	CHECK_EQ_INT(M("GET", "/api/v1/health/", &rt, NULL, NULL, allow), ROUTE_NOT_FOUND);
	CHECK_EQ_INT(M("GET", "/api/v1", &rt, NULL, NULL, allow), ROUTE_NOT_FOUND);
	CHECK_EQ_INT(M("GET", "", &rt, NULL, NULL, allow), ROUTE_NOT_FOUND);
	CHECK_EQ_INT(M("GET", "api/v1/health", &rt, NULL, NULL, allow), ROUTE_NOT_FOUND);
	CHECK_EQ_INT(M("GET", "/api/v1/er/games/1/seats/2/moves/3/4", &rt, NULL, NULL, allow),
	             ROUTE_NOT_FOUND);
	char deep[HTTP_MAX_URL];
	strcpy(deep, "");
	for (int i = 0; i < 40; i++)
		strcat(deep, "/a");
	CHECK_EQ_INT(M("GET", deep, &rt, NULL, NULL, allow), ROUTE_NOT_FOUND);
	/* a tiny scratch buffer is refused, not overrun */
	char small[4];
	CHECK_EQ_INT(router_match(R, NR, "GET", "/api/v1/health", &rt, NULL, NULL, small,
	                          sizeof small, allow, sizeof allow),
	             ROUTE_NOT_FOUND);
}

static void t_bad_method(void)
{
	const http_route *rt;
	char allow[64];
	CHECK_EQ_INT(M("POST", "/api/v1/health", &rt, NULL, NULL, allow), ROUTE_BAD_METHOD);
	CHECK_STR(allow, "GET, HEAD");
	CHECK_EQ_INT(M("PUT", "/api/v1/er/games/x", &rt, NULL, NULL, allow), ROUTE_BAD_METHOD);
	CHECK_STR(allow, "GET, HEAD, DELETE");
	CHECK_EQ_INT(M("GET", "/api/v1/er/games", &rt, NULL, NULL, allow), ROUTE_BAD_METHOD);
	CHECK_STR(allow, "POST");
	/* "new" matches both the literal (GET) and the pattern (GET, DELETE): listed once */
	CHECK_EQ_INT(M("PATCH", "/api/v1/er/games/new", &rt, NULL, NULL, allow), ROUTE_BAD_METHOD);
	CHECK_STR(allow, "GET, HEAD, DELETE");
}

static void t_pct_decode(void)
{
	char out[8];
	CHECK_EQ_INT(http_pct_decode("a%41", 4, out, sizeof out), 2);
	CHECK_STR(out, "aA");
	CHECK_EQ_INT(http_pct_decode("%", 1, out, sizeof out), -1);
	CHECK_EQ_INT(http_pct_decode("%0", 2, out, sizeof out), -1);
	CHECK_EQ_INT(http_pct_decode("%00", 3, out, sizeof out), -1);
	CHECK_EQ_INT(http_pct_decode("abcdefgh", 8, out, sizeof out), -1); /* no room for NUL */
	CHECK_EQ_INT(http_pct_decode("abcdefg", 7, out, sizeof out), 7);
}

/* ---------------------------------------------------------------- server */

static atomic_bool g_db_up = true;
static bool db_up(void)
{
	return atomic_load(&g_db_up);
}

/* POST /api/v1/things {"name": string 1..64} → 201 {"name"} */
static int h_things(const http_req *req, http_resp *resp)
{
	struct json_object *body = NULL;
	if (http_body_json(req, resp, &body) != 0)
		return 0;
	const char *name = NULL;
	js_error err;
	const js_field f[] = {
	    {"name", JS_STRING, JS_F_REQUIRED, 1, JS_MAX_NAME, NULL, &name, NULL}};
	if (js_fields(body, "", f, 1, &err) != 0) {
		json_object_put(body);
		return http_reply_invalid(resp, err.field, err.detail);
	}
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_put(body);
	return http_reply_json(resp, 201, o);
}

/* GET /api/v1/things/{id} → {"id", "path", "q"} */
static int h_thing(const http_req *req, http_resp *resp)
{
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_string(req->params[0]));
	json_object_object_add(o, "path", json_object_new_string(req->path));
	const char *q = http_query(req, "q");
	json_object_object_add(o, "q", q ? json_object_new_string(q) : NULL);
	const char *x = http_header(req, "X-Test");
	json_object_object_add(o, "x", x ? json_object_new_string(x) : NULL);
	if (http_resp_header(resp, "X-Reply", "yes") != 0)
		return -1;
	return http_reply_json(resp, 200, o);
}

static int h_fail(const http_req *req, http_resp *resp)
{
	(void)req;
	http_resp_header(resp, "X-Leak-Check", "freed by the layer");
	return -1;
}

static int h_slow(const http_req *req, http_resp *resp)
{
	(void)req;
	usleep(300 * 1000);
	return http_reply_json(resp, 200, json_object_new_string("slow"));
}

/* A streamed body: "0123456789" in two blocks. */
static ssize_t stream_digits(void *cls, uint64_t pos, char *buf, size_t max)
{
	(void)cls;
	if (pos >= 10)
		return -1;
	size_t n = 5 < max ? 5 : max;
	memcpy(buf, &"0123456789"[pos], n);
	return (ssize_t)n;
}
static atomic_int g_stream_freed;
static void stream_free(void *cls)
{
	free(cls);
	atomic_fetch_add(&g_stream_freed, 1);
}
static int h_stream(const http_req *req, http_resp *resp)
{
	(void)req;
	resp->status = 200;
	resp->content_type = "text/plain";
	resp->stream = stream_digits;
	resp->stream_cls = malloc(8);
	resp->stream_free = stream_free;
	return 0;
}

static const http_route SR[] = {
    {"POST", "/api/v1/things", h_things, true, 0, false, false, NULL},
    {"GET", "/api/v1/things/{id}", h_thing, true, 0, false, false, NULL},
    {"GET", "/api/v1/fail", h_fail, false, 0, false, false, NULL},
    {"GET", "/api/v1/slow", h_slow, false, 0, false, false, NULL},
    {"GET", "/api/v1/stream", h_stream, false, 0, false, false, NULL},
};

static char g_dir[64], g_static[96];
static uint16_t g_port;

/* Sends req (len bytes), reads the whole reply (the server closes: Connection: close or an
 * early error) into out. Returns the status, 0 on a transport error. */
static int xfer(const char *req, size_t len, char *out, size_t outlen)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(g_port)};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	struct timeval tv = {5, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(fd);
		return 0;
	}
	for (size_t off = 0; off < len;) {
		ssize_t w = send(fd, req + off, len - off, MSG_NOSIGNAL);
		if (w <= 0)
			break; /* an early reply may close the connection before we finish */
		off += (size_t)w;
	}
	size_t n = 0;
	for (;;) {
		ssize_t r = recv(fd, out + n, outlen - 1 - n, 0);
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n + 1 >= outlen)
			break;
	}
	out[n] = '\0';
	close(fd);
	int st = 0;
	if (sscanf(out, "HTTP/1.1 %d", &st) != 1)
		return 0;
	return st;
}

static int get(const char *method, const char *target, const char *extra, char *out, size_t outlen)
{
	char req[8192];
	int n =
	    snprintf(req, sizeof req, "%s %s HTTP/1.1\r\nHost: t\r\nConnection: close\r\n%s\r\n",
	             method, target, extra ? extra : "");
	return xfer(req, (size_t)n, out, outlen);
}

static int post(const char *target, const char *ctype, const char *body, char *out, size_t outlen)
{
	char req[8192];
	int n = snprintf(req, sizeof req,
	                 "POST %s HTTP/1.1\r\nHost: t\r\nConnection: close\r\n%s%s%s"
	                 "Content-Length: %zu\r\n\r\n%s",
	                 target, ctype ? "Content-Type: " : "", ctype ? ctype : "",
	                 ctype ? "\r\n" : "", strlen(body), body);
	return xfer(req, (size_t)n, out, outlen);
}

/* Value of header name in a raw reply ("" when absent), copied to a static buffer. */
static const char *hdr(const char *reply, const char *name)
{
	static char v[256];
	char pat[80];
	snprintf(pat, sizeof pat, "\r\n%s:", name);
	const char *p = strcasestr(reply, pat);
	v[0] = '\0';
	if (!p)
		return v;
	p += strlen(pat);
	while (*p == ' ')
		p++;
	size_t n = strcspn(p, "\r\n");
	snprintf(v, sizeof v, "%.*s", (int)n, p);
	return v;
}

static const char *body_of(const char *reply)
{
	const char *p = strstr(reply, "\r\n\r\n");
	return p ? p + 4 : "";
}

/* Is the reply problem+json with this status (and field, when not NULL)? */
static bool is_problem(const char *reply, int status, const char *field)
{
	if (strncmp(hdr(reply, "Content-Type"), "application/problem+json", 24) != 0)
		return false;
	struct json_object *o = json_tokener_parse(body_of(reply)), *v;
	bool ok = o && json_object_object_get_ex(o, "status", &v) &&
	          json_object_get_int(v) == status && json_object_object_get_ex(o, "type", &v) &&
	          json_object_object_get_ex(o, "title", &v) &&
	          json_object_object_get_ex(o, "detail", &v);
	if (ok && field)
		ok = json_object_object_get_ex(o, "field", &v) &&
		     strcmp(json_object_get_string(v), field) == 0;
	if (!ok)
		printf("  not a %d problem (field %s): %s\n", status, field ? field : "-",
		       body_of(reply));
	json_object_put(o);
	return ok;
}

static char R1[200000];

static void t_srv_json(void)
{
	CHECK_EQ_INT(
	    post("/api/v1/things", "application/json", "{\"name\":\"Ann\"}", R1, sizeof R1), 201);
	CHECK_STR(hdr(R1, "Content-Type"), "application/json");
	CHECK_STR(body_of(R1), "{\"name\":\"Ann\"}");
	CHECK_EQ_INT(post("/api/v1/things", "Application/JSON; charset=utf-8", "{\"name\":\"Ann\"}",
	                  R1, sizeof R1),
	             201);
	CHECK_EQ_INT(get("GET", "/api/v1/things/a%20b?q=x%20y", "X-Test: 1\r\n", R1, sizeof R1),
	             200);
	CHECK_STR(body_of(R1),
	          "{\"id\":\"a b\",\"path\":\"/api/v1/things/a b\",\"q\":\"x y\",\"x\":\"1\"}");
	CHECK_STR(hdr(R1, "X-Reply"), "yes");
}

static void t_srv_errors(void)
{
	CHECK_EQ_INT(post("/api/v1/things", "application/json", "{\"name\":", R1, sizeof R1), 400);
	CHECK(is_problem(R1, 400, ""));
	CHECK_EQ_INT(
	    post("/api/v1/things", "application/json", "{\"name\":\"a\",\"x\":1}", R1, sizeof R1),
	    400);
	CHECK(is_problem(R1, 400, "/x"));
	CHECK(strstr(R1, "is not an allowed field") != NULL);
	CHECK_EQ_INT(post("/api/v1/things", "application/json", "{\"name\":\"\"}", R1, sizeof R1),
	             400);
	CHECK(is_problem(R1, 400, "/name"));
	CHECK(strstr(R1, "must be a string of 1 to 64 bytes") != NULL);
	CHECK_EQ_INT(post("/api/v1/things", "text/plain", "{}", R1, sizeof R1), 415);
	CHECK(is_problem(R1, 415, NULL));
	CHECK_EQ_INT(post("/api/v1/things", "application/jsonx", "{}", R1, sizeof R1), 415);
	CHECK_EQ_INT(post("/api/v1/things", NULL, "{}", R1, sizeof R1), 415);
	/* no body and no type: the handler's http_body_json answers 415 */
	CHECK_EQ_INT(post("/api/v1/things", NULL, "", R1, sizeof R1), 415);
	CHECK_EQ_INT(post("/api/v1/nothing", "text/plain", "{}", R1, sizeof R1), 404);
	CHECK(is_problem(R1, 404, NULL));
	CHECK_EQ_INT(get("PUT", "/api/v1/things", "Content-Length: 0\r\n", R1, sizeof R1), 405);
	CHECK(is_problem(R1, 405, NULL));
	CHECK_STR(hdr(R1, "Allow"), "POST");
	CHECK_EQ_INT(get("DELETE", "/api/v1/things/1", NULL, R1, sizeof R1), 405);
	CHECK_STR(hdr(R1, "Allow"), "GET, HEAD");
	CHECK_EQ_INT(get("GET", "/api/v1/fail", NULL, R1, sizeof R1), 500);
	CHECK(is_problem(R1, 500, NULL));
	CHECK_STR(hdr(R1, "X-Leak-Check"), "");
}

static void t_srv_limits(void)
{
	static char big[HTTP_MAX_URL + 200];
	memset(big, 'a', sizeof big - 1);
	big[0] = '/';
	big[sizeof big - 1] = '\0';
	CHECK_EQ_INT(get("GET", big, NULL, R1, sizeof R1), 414);
	CHECK(is_problem(R1, 414, NULL));
	/* exactly 2048 bytes is fine (a 404 here) */
	big[HTTP_MAX_URL] = '\0';
	CHECK_EQ_INT(get("GET", big, NULL, R1, sizeof R1), 404);

	/* Content-Length over the cap: answered before the body is sent */
	const char *hdr_only = "POST /api/v1/things HTTP/1.1\r\nHost: t\r\nContent-Type: "
	                       "application/json\r\nContent-Length: 65537\r\n\r\n";
	CHECK_EQ_INT(xfer(hdr_only, strlen(hdr_only), R1, sizeof R1), 413);
	CHECK(is_problem(R1, 413, NULL));
	/* exactly the cap goes through (a 400: not JSON) */
	static char req[HTTP_MAX_BODY + 16384];
	int n = snprintf(req, sizeof req,
	                 "POST /api/v1/things HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
	                 "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n",
	                 HTTP_MAX_BODY);
	memset(req + n, ' ', HTTP_MAX_BODY);
	req[n] = '[';
	req[n + 1] = ']';
	CHECK_EQ_INT(xfer(req, (size_t)n + HTTP_MAX_BODY, R1, sizeof R1), 400);
	CHECK(strstr(R1, "must be an object") != NULL);
	/* chunked, no length: the cap is found while reading */
	n = snprintf(req, sizeof req,
	             "POST /api/v1/things HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
	             "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
	for (int i = 0; i < 17; i++) {
		n += snprintf(req + n, sizeof req - (size_t)n, "1000\r\n");
		memset(req + n, ' ', 4096);
		n += 4096;
		n += snprintf(req + n, sizeof req - (size_t)n, "\r\n");
	}
	n += snprintf(req + n, sizeof req - (size_t)n, "0\r\n\r\n");
	CHECK_EQ_INT(xfer(req, (size_t)n, R1, sizeof R1), 413);
	CHECK(is_problem(R1, 413, NULL));
}

static void t_srv_unavailable(void)
{
	atomic_store(&g_db_up, false);
	CHECK_EQ_INT(get("GET", "/api/v1/things/1", NULL, R1, sizeof R1), 503);
	CHECK(is_problem(R1, 503, NULL));
	CHECK_STR(hdr(R1, "Retry-After"), "5");
	/* non-api routes still answer */
	CHECK_EQ_INT(get("GET", "/api/v1/slow", NULL, R1, sizeof R1), 200);
	atomic_store(&g_db_up, true);
	CHECK_EQ_INT(get("GET", "/api/v1/things/1", NULL, R1, sizeof R1), 200);
}

static void t_srv_static(void)
{
	CHECK_EQ_INT(get("GET", "/", NULL, R1, sizeof R1), 200);
	CHECK_STR(hdr(R1, "Content-Type"), "text/html; charset=utf-8");
	CHECK_STR(hdr(R1, "Cache-Control"), "no-cache");
	CHECK_STR(body_of(R1), "<p>hi</p>\n");
	char etag[128];
	snprintf(etag, sizeof etag, "%s", hdr(R1, "ETag"));
	CHECK(etag[0] == '"');
	char inm[200];
	snprintf(inm, sizeof inm, "If-None-Match: \"zzz\", %s\r\n", etag);
	CHECK_EQ_INT(get("GET", "/index.html", inm, R1, sizeof R1), 304);
	CHECK_STR(body_of(R1), "");
	CHECK_STR(hdr(R1, "ETag"), etag);
	CHECK_EQ_INT(get("GET", "/index.html", "If-None-Match: \"other\"\r\n", R1, sizeof R1), 200);

	CHECK_EQ_INT(get("GET", "/app.css", NULL, R1, sizeof R1), 200);
	CHECK_STR(hdr(R1, "Content-Type"), "text/css; charset=utf-8");
	CHECK_STR(hdr(R1, "Cache-Control"), "no-cache");
	CHECK_EQ_INT(get("GET", "/sub/app.js", NULL, R1, sizeof R1), 200);
	CHECK_STR(hdr(R1, "Content-Type"), "text/javascript; charset=utf-8");
	CHECK_STR(body_of(R1), "x\n");
	CHECK_EQ_INT(get("HEAD", "/app.css", NULL, R1, sizeof R1), 200);
	CHECK_STR(hdr(R1, "Content-Length"), "5");
	CHECK_STR(body_of(R1), "");
	CHECK_EQ_INT(get("GET", "/empty.json", NULL, R1, sizeof R1), 200);
	CHECK_STR(hdr(R1, "Content-Type"), "application/json");
	CHECK_EQ_INT(get("GET", "/nope.html", NULL, R1, sizeof R1), 404);
	CHECK(is_problem(R1, 404, NULL));
	CHECK_EQ_INT(get("GET", "/sub", NULL, R1, sizeof R1), 404);
	CHECK_EQ_INT(get("POST", "/index.html", "Content-Length: 0\r\n", R1, sizeof R1), 405);
	CHECK_STR(hdr(R1, "Allow"), "GET, HEAD");

	/* traversal: nothing outside the static directory ever comes back */
	static const char *const evil[] = {
	    "/../secret.txt",
	    "/%2e%2e/secret.txt",
	    "/sub/..%2f..%2fsecret.txt",
	    "/sub/%2E%2E/%2e%2e/secret.txt",
	    "//secret.txt",
	    "/..\\secret.txt",
	    "/%5c../secret.txt",
	    "/link.txt",
	    "/sub/../../secret.txt",
	    "/a%00.html",
	    "/.hidden",
	    "/sub/./app.js",
	    "/%zz",
	};
	for (size_t i = 0; i < sizeof evil / sizeof evil[0]; i++) {
		int st = get("GET", evil[i], NULL, R1, sizeof R1);
		if (st != 400 && st != 404)
			printf("  %s → %d\n", evil[i], st);
		CHECK(st == 400 || st == 404);
		CHECK(strstr(R1, "TOP SECRET") == NULL);
	}
}

static void t_srv_stream(void)
{
	int before = atomic_load(&g_stream_freed);
	CHECK_EQ_INT(get("GET", "/api/v1/stream", NULL, R1, sizeof R1), 200);
	CHECK_STR(hdr(R1, "Transfer-Encoding"), "chunked");
	CHECK(strstr(R1, "01234") != NULL && strstr(R1, "56789") != NULL);
	usleep(50 * 1000);
	CHECK_EQ_INT(atomic_load(&g_stream_freed), before + 1);
}

/* Keep-alive: two requests on one connection, including an error reply without a body. */
static void t_srv_keepalive(void)
{
	const char *two = "GET /api/v1/nope HTTP/1.1\r\nHost: t\r\n\r\n"
	                  "GET /api/v1/things/2 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n";
	CHECK_EQ_INT(xfer(two, strlen(two), R1, sizeof R1), 404);
	CHECK(strstr(R1, "HTTP/1.1 200") != NULL);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

typedef struct {
	int status;
	char reply[4096];
} slow_client;

/* Sends the request line now, the rest 400 ms later, while the server is stopping. */
static void *slow_request(void *arg)
{
	slow_client *sc = arg;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(g_port)};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(fd);
		return NULL;
	}
	const char *p1 = "GET /api/v1/things/slow HTTP/1.1\r\nHost: t\r\n";
	send(fd, p1, strlen(p1), MSG_NOSIGNAL);
	usleep(400 * 1000);
	send(fd, "\r\n", 2, MSG_NOSIGNAL);
	ssize_t n = recv(fd, sc->reply, sizeof sc->reply - 1, MSG_WAITALL);
	sc->reply[n > 0 ? n : 0] = '\0';
	sscanf(sc->reply, "HTTP/1.1 %d", &sc->status);
	close(fd);
	return NULL;
}

static http_server *g_srv;

static void t_srv_graceful_stop(void)
{
	slow_client sc = {0};
	pthread_t th;
	pthread_create(&th, NULL, slow_request, &sc);
	usleep(150 * 1000); /* the request line has arrived */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	http_stop(g_srv); /* waits for the slow request */
	g_srv = NULL;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(th, NULL);
	CHECK_EQ_INT(sc.status, 200);
	CHECK(strstr(sc.reply, "\"id\":\"slow\"") != NULL);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	CHECK(s > 0.1 && s < 5);
	/* and the port is closed */
	char out[64];
	CHECK_EQ_INT(get("GET", "/", NULL, out, sizeof out), 0);
}

int main(void)
{
	TEST("router: matches literals and patterns", t_match);
	TEST("router: parameters are percent-decoded, never contain '/'", t_params_decoded);
	TEST("router: 404 when no path matches", t_not_found);
	TEST("router: 405 with the Allow list", t_bad_method);
	TEST("router: percent-decoding", t_pct_decode);

	snprintf(g_dir, sizeof g_dir, "/tmp/test_router.XXXXXX");
	if (!mkdtemp(g_dir)) {
		printf("FAIL server: mkdtemp\n");
		return 1;
	}
	snprintf(g_static, sizeof g_static, "%s/static", g_dir);
	char sub[128], lnk[160], target[160];
	snprintf(sub, sizeof sub, "%s/sub", g_static);
	mkdir(g_static, 0755);
	mkdir(sub, 0755);
	write_file(g_dir, "secret.txt", "TOP SECRET\n");
	write_file(g_static, "index.html", "<p>hi</p>\n");
	write_file(g_static, "app.css", "p {}\n");
	write_file(g_static, "empty.json", "");
	write_file(g_static, ".hidden", "TOP SECRET\n");
	write_file(sub, "app.js", "x\n");
	snprintf(lnk, sizeof lnk, "%s/link.txt", g_static);
	snprintf(target, sizeof target, "%s/secret.txt", g_dir);
	if (symlink(target, lnk) != 0)
		printf("  symlink failed\n");

	http_config cfg = {
	    .port = 0,
	    .threads = 2,
	    .conn_limit = 64,
	    .conn_timeout_s = 5,
	    .static_dir = g_static,
	    .routes = SR,
	    .nroutes = sizeof SR / sizeof SR[0],
	    .api_available = db_up,
	};
	g_srv = http_start(&cfg);
	if (!g_srv) {
		printf("FAIL server: http_start\n");
		return 1;
	}
	g_port = http_port(g_srv);
	TEST("server: JSON request and reply, params, query, headers", t_srv_json);
	TEST("server: 400 / 404 / 405 / 415 / 500 as problem+json", t_srv_errors);
	TEST("server: 414 URL, 413 by Content-Length and chunked", t_srv_limits);
	TEST("server: 503 + Retry-After for api routes while the DB is down", t_srv_unavailable);
	TEST("server: static files, ETag/304, cache headers, traversal", t_srv_static);
	TEST("server: streamed response", t_srv_stream);
	TEST("server: keep-alive across an error reply", t_srv_keepalive);
	TEST("server: graceful stop waits for an in-flight request", t_srv_graceful_stop);
	if (g_srv)
		http_stop(g_srv);

	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
	if (system(cmd) != 0)
		printf("  could not remove %s\n", g_dir);
	TEST_MAIN_END();
}
