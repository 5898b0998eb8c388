/* The route table matcher (http.h: router_match) and percent-decoding.
 *
 * The path is split on '/' before decoding, so "%2F" inside a segment never acts as a separator;
 * a parameter that decodes to something containing '/' (or NUL, or a malformed escape) matches
 * no route. The table is small and static: a linear scan per request is cheaper than any index. */
#include "http/http.h"

#include "json/spec.h"

#include <string.h>

enum { MAX_SEGMENTS = 32 };

long http_pct_decode(const char *src, size_t len, char *dst, size_t dstlen)
{
	size_t n = 0;
	if (!dst || dstlen == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)src[i];
		if (c == '%') {
			if (len - i < 3)
				return -1;
			int h = js_hex_digit((unsigned char)src[i + 1]),
			    l = js_hex_digit((unsigned char)src[i + 2]);
			if (h < 0 || l < 0)
				return -1;
			c = (unsigned char)(h << 4 | l);
			i += 2;
		}
		if (c == '\0' || n + 1 >= dstlen)
			return -1;
		dst[n++] = (char)c;
	}
	dst[n] = '\0';
	return (long)n;
}

typedef struct {
	const char *seg[MAX_SEGMENTS]; /* decoded, NUL-terminated, in the caller's buf */
	bool bad[MAX_SEGMENTS];        /* malformed escape, or decodes to '/' or NUL */
	int n;
} segments;

/* Splits "/a/b%2Fc/d" into decoded segments. -1 when the path does not start with '/', has too
 * many segments, or does not fit buf. */
static int split(const char *path, char *buf, size_t buflen, segments *s)
{
	s->n = 0;
	if (!path || path[0] != '/')
		return -1;
	size_t used = 0;
	const char *p = path + 1;
	for (;;) {
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (s->n == MAX_SEGMENTS || used >= buflen)
			return -1;
		char *d = buf + used;
		long dl = http_pct_decode(p, len, d, buflen - used);
		if (dl < 0) {
			/* keep the slot so segment counts still line up; it matches nothing */
			if (buflen - used < 1)
				return -1;
			d[0] = '\0';
			dl = 0;
			s->bad[s->n] = true;
		} else {
			s->bad[s->n] = memchr(d, '/', (size_t)dl) != NULL;
		}
		s->seg[s->n++] = d;
		used += (size_t)dl + 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/* Does the pattern match the segments? Fills params when it does. */
static bool match(const char *pattern, const segments *s, const char **params, int *nparams)
{
	const char *p = pattern;
	int np = 0;
	if (*p != '/')
		return false;
	p++;
	for (int i = 0; i < s->n; i++) {
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (s->bad[i])
			return false;
		if (len >= 2 && p[0] == '{' && p[len - 1] == '}') {
			if (s->seg[i][0] == '\0' || np == HTTP_MAX_PARAMS)
				return false;
			if (params)
				params[np] = s->seg[i];
			np++;
		} else if (strlen(s->seg[i]) != len || memcmp(s->seg[i], p, len) != 0) {
			return false;
		}
		if (!e) {
			if (i != s->n - 1)
				return false;
			if (nparams)
				*nparams = np;
			return true;
		}
		p = e + 1;
	}
	return false; /* pattern has more segments */
}

static bool method_ok(const char *route_method, const char *method)
{
	if (strcmp(route_method, method) == 0)
		return true;
	return strcmp(method, "HEAD") == 0 && strcmp(route_method, "GET") == 0;
}

/* Appends m to the comma-separated list unless present. */
static void allow_add(char *allow, size_t allowlen, const char *m)
{
	size_t ml = strlen(m), n = strlen(allow);
	for (const char *p = allow; *p;) {
		const char *e = strstr(p, ", ");
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == ml && memcmp(p, m, ml) == 0)
			return;
		if (!e)
			break;
		p = e + 2;
	}
	if (n + (n ? 2 : 0) + ml + 1 > allowlen)
		return;
	if (n) {
		memcpy(allow + n, ", ", 2);
		n += 2;
	}
	memcpy(allow + n, m, ml + 1);
}

route_match router_match(const http_route *routes, size_t nroutes, const char *method,
                         const char *path, const http_route **route, const char **params,
                         int *nparams, char *buf, size_t buflen, char *allow, size_t allowlen)
{
	segments s;
	bool path_found = false;
	if (route)
		*route = NULL;
	if (nparams)
		*nparams = 0;
	if (allow && allowlen)
		allow[0] = '\0';
	if (!routes || !method || !buf || split(path, buf, buflen, &s) != 0)
		return ROUTE_NOT_FOUND;
	for (size_t i = 0; i < nroutes; i++) {
		int np = 0;
		const char *pv[HTTP_MAX_PARAMS];
		if (!match(routes[i].pattern, &s, pv, &np))
			continue;
		if (method_ok(routes[i].method, method)) {
			if (route)
				*route = &routes[i];
			if (params)
				memcpy(params, pv, sizeof(pv[0]) * (size_t)np);
			if (nparams)
				*nparams = np;
			return ROUTE_FOUND;
		}
		path_found = true;
		if (allow && allowlen) {
			allow_add(allow, allowlen, routes[i].method);
			if (strcmp(routes[i].method, "GET") == 0)
				allow_add(allow, allowlen, "HEAD");
		}
	}
	return path_found ? ROUTE_BAD_METHOD : ROUTE_NOT_FOUND;
}
