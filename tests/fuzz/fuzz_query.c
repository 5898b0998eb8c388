/* libFuzzer target: a request target's parameters as the server checks them before any handler
 * (http/query.c) behind the router (http/router.c) and the real route table (api/routes.c).
 * The first byte picks the method, the rest is the target "path?query". The query is split and
 * decoded the way libmicrohttpd does it (on '&', then the first '='; '+' as a space, then
 * MHD_http_unescape, its own decoder), each parameter goes to http_query_arg_refused, and a
 * matched route's path parameters to http_params_refused. Every verdict is compared with a
 * second, independent reading of UTF-8 written here (code points decoded, then their ranges
 * checked), and every refusal must be a 400 problem+json that is itself valid UTF-8 JSON,
 * with a rule saying why and a field "/…". Corpus: tests/fuzz/corpus/query/. */
#include "api/api.h"
#include "http/http.h"

#include <json-c/json.h>
#include <microhttpd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check(int ok)
{
	if (!ok)
		abort();
}

/* The reference: "nul-byte", "not-utf8" or NULL, by decoding each code point first. */
static const char *reference(const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned c = s[i];
		if (c == 0)
			return "nul-byte";
		size_t n;
		unsigned cp, min;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			n = 2, cp = c & 0x1f, min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			n = 3, cp = c & 0x0f, min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			n = 4, cp = c & 0x07, min = 0x10000;
		} else {
			return "not-utf8";
		}
		if (len - i < n)
			return "not-utf8";
		for (size_t k = 1; k < n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return "not-utf8";
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return "not-utf8";
		i += n;
	}
	return NULL;
}

/* A refusal: 400, strict UTF-8 JSON, the rule expected, a field "/…". */
static void check_refusal(http_resp *resp, const char *rule)
{
	check(resp->status == 400);
	const char *body = http_resp_body(resp);
	check(body != NULL);
	json_tokener *tok = json_tokener_new_ex(8);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	json_object *o = json_tokener_parse_ex(tok, body, (int)resp->body_len);
	check(o != NULL && json_tokener_get_error(tok) == json_tokener_success);
	json_object *r = NULL, *f = NULL;
	check(json_object_object_get_ex(o, "rule", &r) &&
	      strcmp(json_object_get_string(r), rule) == 0);
	check(json_object_object_get_ex(o, "field", &f) && json_object_get_string(f)[0] == '/');
	json_object_put(o);
	json_tokener_free(tok);
	http_resp_clear(resp);
}

/* One parameter "key[=value]" (len bytes at p, a copy of ours) decoded as libmicrohttpd does. */
static bool one_arg(char *p)
{
	char *eq = strchr(p, '=');
	char *value = NULL;
	if (eq) {
		*eq = '\0';
		value = eq + 1;
	}
	for (char *q = p; *q; q++)
		if (*q == '+')
			*q = ' ';
	size_t klen = MHD_http_unescape(p), vlen = 0;
	if (value) {
		for (char *q = value; *q; q++)
			if (*q == '+')
				*q = ' ';
		vlen = MHD_http_unescape(value);
	}
	const char *want = reference((const unsigned char *)p, klen);
	if (!want && value)
		want = reference((const unsigned char *)value, vlen);
	http_resp resp = {0};
	bool refused = http_query_arg_refused(p, klen, value, vlen, &resp);
	check(refused == (want != NULL));
	if (refused)
		check_refusal(&resp, want);
	return refused;
}

static void check_query(char *q)
{
	while (q && *q) {
		char *amp = strchr(q, '&');
		if (amp)
			*amp = '\0';
		if (one_arg(q))
			return; /* the server stops at the first parameter refused */
		q = amp ? amp + 1 : NULL;
	}
}

static void check_path(const char *method, const char *path)
{
	const http_route *route = NULL;
	const char *params[HTTP_MAX_PARAMS];
	int np = 0;
	char buf[HTTP_MAX_URL], allow[256] = "";
	if (router_match(api_routes, api_nroutes, method, path, &route, params, &np, buf,
	                 sizeof buf, allow, sizeof allow) != ROUTE_FOUND)
		return;
	const char *want = NULL;
	for (int i = 0; i < np && !want; i++)
		want = reference((const unsigned char *)params[i], strlen(params[i]));
	http_resp resp = {0};
	bool refused = http_params_refused(NULL, route->pattern, params, np, &resp);
	check(refused == (want != NULL));
	if (refused)
		check_refusal(&resp, want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const methods[] = {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"};
	if (size < 1 || size > 2 * HTTP_MAX_URL)
		return 0;
	const char *method = methods[data[0] % (sizeof methods / sizeof methods[0])];
	char *target = malloc(size);
	memcpy(target, data + 1, size - 1);
	target[size - 1] = '\0'; /* the server's target is a C string */
	char *q = strchr(target, '?');
	if (q)
		*q++ = '\0';
	check_path(method, target);
	check_query(q);
	free(target);
	return 0;
}
