/* Replies (JSON, problem+json) and request helpers (http.h).
 *
 * Ownership: http_reply_json / http_reply_problem_ex take the json_object they are given and
 * free it whatever happens; the serialised body is malloc'ed and owned by resp until the server
 * hands it to libmicrohttpd (or http_resp_clear frees it). */
#include "http/http.h"

#include "base/oom.h"
#include "json/jx.h"
#include "json/spec.h"

#include <json-c/json.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char CT_JSON[] = "application/json";
static const char CT_PROBLEM[] = "application/problem+json";

struct http_blob {
	atomic_int refs;
	bool pooled; /* one block from the pool below: data follows the header */
	size_t len;
	char *data;             /* owned (pooled: part of the blob's own block) */
	struct http_blob *next; /* in the pool */
};

/* Bodies of up to POOL_BODY bytes (a game's state reply) go in blocks kept for reuse: a reply
 * sent gives its block back (http_blob_unref, on whichever thread libmicrohttpd drops it) and
 * the next reply takes it, instead of a fresh allocation of several kilobytes per request. At
 * most POOL_KEEP blocks (about 2 MB) wait in the pool; more are freed. */
enum { POOL_BLOCK = 32 * 1024, POOL_KEEP = 64 };
#define POOL_BODY (POOL_BLOCK - sizeof(http_blob) - 1)

static pthread_mutex_t g_pool_mu = PTHREAD_MUTEX_INITIALIZER;
static http_blob *g_pool;
static int g_pool_n;

static http_blob *pool_take(void)
{
	pthread_mutex_lock(&g_pool_mu);
	http_blob *b = g_pool;
	if (b) {
		g_pool = b->next;
		g_pool_n--;
	}
	pthread_mutex_unlock(&g_pool_mu);
	if (!b) {
		b = xmalloc(POOL_BLOCK);
		b->pooled = true;
		b->data = (char *)(b + 1);
	}
	atomic_init(&b->refs, 1);
	return b;
}

static void pool_give(http_blob *b)
{
	pthread_mutex_lock(&g_pool_mu);
	bool keep = g_pool_n < POOL_KEEP;
	if (keep) {
		b->next = g_pool;
		g_pool = b;
		g_pool_n++;
	}
	pthread_mutex_unlock(&g_pool_mu);
	if (!keep)
		free(b);
}

http_blob *http_blob_take(char *data, size_t len)
{
	http_blob *b = xmalloc(sizeof *b);
	atomic_init(&b->refs, 1);
	b->pooled = false;
	b->len = len;
	b->data = data;
	return b;
}

http_blob *http_blob_ref(http_blob *b)
{
	atomic_fetch_add(&b->refs, 1);
	return b;
}

void http_blob_unref(http_blob *b)
{
	if (b && atomic_fetch_sub(&b->refs, 1) == 1) {
		if (b->pooled) {
			pool_give(b);
			return;
		}
		free(b->data);
		free(b);
	}
}

size_t http_blob_len(const http_blob *b)
{
	return b->len;
}

const char *http_blob_data(const http_blob *b)
{
	return b->data;
}

/* Replaces resp's body with body (malloc'ed, len bytes and a NUL; taken) as a status reply. */
static void set_body(http_resp *resp, int status, char *body, size_t len, const char *ct)
{
	http_blob_unref(resp->blob);
	resp->blob = NULL;
	free(resp->body);
	resp->body = body;
	resp->body_len = len;
	resp->status = status;
	resp->content_type = ct;
}

/* Replaces resp's body with a copy of obj's serialisation. Frees obj. */
static int set_json_body(http_resp *resp, int status, struct json_object *obj, const char *ct)
{
	if (!resp) {
		json_object_put(obj);
		return -1;
	}
	size_t len = 0;
	const char *s = oom_check((void *)json_object_to_json_string_length(
	    obj, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len));
	char *copy = xmalloc(len + 1);
	memcpy(copy, s, len + 1);
	json_object_put(obj); /* s belonged to obj */
	set_body(resp, status, copy, len, ct);
	return 0;
}

int http_reply_json(http_resp *resp, int status, struct json_object *obj)
{
	if (!obj) { /* a json_object NULL is JSON null */
		if (!resp)
			return -1;
		set_body(resp, status, xstrdup("null"), 4, CT_JSON);
		return 0;
	}
	return set_json_body(resp, status, obj, CT_JSON);
}

int http_reply_json_text(http_resp *resp, int status, const char *text, size_t len)
{
	if (len > POOL_BODY || status >= 400) { /* a problem's body is read back (request.c) */
		char *copy = xmalloc(len + 1);
		memcpy(copy, text, len);
		copy[len] = '\0';
		set_body(resp, status, copy, len, CT_JSON);
		return 0;
	}
	http_blob *b = pool_take();
	memcpy(b->data, text, len);
	b->data[len] = '\0';
	b->len = len;
	set_body(resp, status, NULL, len, CT_JSON);
	resp->blob = b;
	return 0;
}

const char *http_resp_body(const http_resp *resp)
{
	return resp->blob ? resp->blob->data : resp->body;
}

bool http_resp_has_header(const http_resp *resp, const char *name)
{
	for (int i = 0; i < resp->nheaders && i < HTTP_MAX_HEADERS; i++)
		if (strcasecmp(resp->headers[i][0], name) == 0)
			return true;
	return false;
}

int http_reply_problem_ex(http_resp *resp, int status, const char *detail, const char *rule,
                          const char *field, struct json_object *extra)
{
	const char *title = MHD_get_reason_phrase_for((unsigned)status);
	char type[160];
	if (!title || !*title)
		title = status >= 500 ? "Server error" : "Error";
	if (rule && *rule)
		snprintf(type, sizeof type, "urn:dice-hospital:rule:%s", rule);
	else
		snprintf(type, sizeof type, "about:blank");
	struct json_object *o = jx_obj();
	jx_set(o, "type", jx_str(type));
	jx_set(o, "title", jx_str(title));
	jx_set(o, "status", jx_int(status));
	jx_set(o, "detail", jx_str(detail ? detail : title));
	if (rule)
		jx_set(o, "rule", jx_str(rule));
	if (field)
		jx_set(o, "field", jx_str(field));
	if (json_object_is_type(extra, json_type_object) && extra) {
		json_object_object_foreach(extra, k, v)
		{
			jx_set_copy(o, k, json_object_get(v));
		}
	}
	json_object_put(extra);
	if (set_json_body(resp, status, o, CT_PROBLEM) != 0)
		return -1;
	/* Every 401 names the scheme to use (RFC 9110 §11.6.1; Bearer tokens: RFC 6750). */
	if (status == 401 && !http_resp_has_header(resp, "WWW-Authenticate") &&
	    http_resp_header(resp, "WWW-Authenticate", "Bearer realm=\"dice-hospital\"") != 0)
		return -1;
	return 0;
}

int http_reply_problem(http_resp *resp, int status, const char *detail, const char *rule,
                       const char *field)
{
	return http_reply_problem_ex(resp, status, detail, rule, field, NULL);
}

int http_reply_invalid(http_resp *resp, const char *field, const char *detail)
{
	char sentence[600];
	if (field && *field)
		snprintf(sentence, sizeof sentence, "%s %s", field, detail ? detail : "is invalid");
	else
		snprintf(sentence, sizeof sentence, "The request body %s",
		         detail ? detail : "is invalid");
	return http_reply_problem(resp, 400, sentence, NULL, field ? field : "");
}

int http_resp_header(http_resp *resp, const char *name, const char *value)
{
	if (!resp || !name || !value || resp->nheaders >= HTTP_MAX_HEADERS)
		return -1;
	resp->headers[resp->nheaders][0] = xstrdup(name);
	resp->headers[resp->nheaders][1] = xstrdup(value);
	resp->nheaders++;
	return 0;
}

void http_reply_blob(http_resp *resp, http_blob *b, const char *ct)
{
	set_body(resp, 200, NULL, b->len, ct);
	resp->blob = http_blob_ref(b);
}

void http_resp_clear(http_resp *resp)
{
	if (!resp)
		return;
	free(resp->body);
	http_blob_unref(resp->blob);
	for (int i = 0; i < resp->nheaders && i < HTTP_MAX_HEADERS; i++) {
		free(resp->headers[i][0]);
		free(resp->headers[i][1]);
	}
	if (resp->stream && resp->stream_free)
		resp->stream_free(resp->stream_cls);
	memset(resp, 0, sizeof *resp);
}

const char *http_header(const http_req *req, const char *name)
{
	if (!req || !req->conn || !name)
		return NULL;
	return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name);
}

const char *http_query(const http_req *req, const char *name)
{
	if (!req || !req->conn || !name)
		return NULL;
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}

int http_whole_number(const char *s, int lo, int hi)
{
	if (s == NULL || *s == '\0' || strlen(s) > 10)
		return -1;
	long long v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v >= lo && v <= hi ? (int)v : -1;
}

bool http_query_number(const http_req *req, http_resp *resp, const char *name, int def, int lo,
                       int hi, const char *rule, int *v)
{
	const char *t = http_query(req, name);
	*v = t ? http_whole_number(t, lo, hi) : def;
	if (*v >= 0)
		return true;
	char detail[96], field[40];
	snprintf(detail, sizeof detail, "%s: a whole number from %d to %d", name, lo, hi);
	snprintf(field, sizeof field, "/%s", name);
	http_reply_problem(resp, 400, detail, rule, field);
	return false;
}

bool http_content_type_is_json(const char *ct)
{
	static const char want[] = "application/json";
	if (!ct)
		return false;
	while (*ct == ' ' || *ct == '\t')
		ct++;
	if (strncasecmp(ct, want, sizeof want - 1) != 0)
		return false;
	ct += sizeof want - 1;
	while (*ct == ' ' || *ct == '\t')
		ct++;
	return *ct == '\0' || *ct == ';';
}

int http_body_json(const http_req *req, http_resp *resp, struct json_object **out)
{
	js_error err;
	if (out)
		*out = NULL;
	if (!req || !resp || !out)
		return -1;
	if (!http_content_type_is_json(http_header(req, MHD_HTTP_HEADER_CONTENT_TYPE))) {
		http_reply_problem(resp, 415, "The request body must be application/json.", NULL,
		                   NULL);
		return -1;
	}
	if (js_parse(req->body, req->body ? req->body_len : 0, out, &err) != 0) {
		http_reply_problem(resp, 400, err.detail, NULL, err.field);
		return -1;
	}
	return 0;
}

/* ---- TLS (for Secure cookies; the daemon serves HTTPS when started with MHD_USE_TLS) ---- */
bool http_req_tls(const http_req *req)
{
	if (req == NULL || req->conn == NULL)
		return false;
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(req->conn, MHD_CONNECTION_INFO_DAEMON);
	const union MHD_DaemonInfo *di =
	    ci && ci->daemon ? MHD_get_daemon_info(ci->daemon, MHD_DAEMON_INFO_FLAGS) : NULL;
	if (di != NULL && (di->flags & MHD_USE_TLS) != 0)
		return true;
	const char *proto = http_header(req, "X-Forwarded-Proto");
	return proto && strcasecmp(proto, "https") == 0 && http_req_via_trusted_proxy(req);
}
