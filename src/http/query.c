/* The request's parameters checked as text before any handler runs (http.h: http_text_ok,
 * http_params_refused). PostgreSQL refuses a text parameter that is not UTF-8 (SQLSTATE 22021)
 * or holds a NUL, and libmicrohttpd hands a query value over as it decoded it ("%ff" is the
 * byte 0xff, "%00" a NUL that cuts the C string short): a route's handler could pass either to
 * a statement or silently read a shorter value. Here every query parameter's name and value,
 * and every path parameter, is refused with a 400 naming it instead. */
#include "http/http.h"

#include <microhttpd.h>
#include <stdio.h>
#include <string.h>

/* The length of the UTF-8 sequence at s[0..len) (s[0] ≥ 0x80), or 0 when it is not one that
 * PostgreSQL takes (pg_utf8_islegal): shortest form, no surrogates (U+D800–U+DFFF), at most
 * U+10FFFF. */
static size_t utf8_seq(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	size_t n = c >= 0xc2 && c <= 0xdf   ? 2
	           : c >= 0xe0 && c <= 0xef ? 3
	           : c >= 0xf0 && c <= 0xf4 ? 4
	                                    : 0;
	if (n == 0 || len < n)
		return 0;
	/* the second byte's range depends on the first (RFC 3629 §4) */
	unsigned char lo = 0x80, hi = 0xbf;
	if (c == 0xe0)
		lo = 0xa0; /* no overlong three-byte form */
	else if (c == 0xed)
		hi = 0x9f; /* no surrogate */
	else if (c == 0xf0)
		lo = 0x90; /* no overlong four-byte form */
	else if (c == 0xf4)
		hi = 0x8f; /* nothing above U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

const char *http_text_problem(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		if (u[i] == 0)
			return "nul-byte";
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		size_t n = utf8_seq(u + i, len - i);
		if (n == 0)
			return "not-utf8";
		i += n;
	}
	return NULL;
}

bool http_text_ok(const char *s, size_t len)
{
	return http_text_problem(s, len) == NULL;
}

/* field = "/" + name, cut to fit at a character boundary; a name that is not text itself is
 * written with '?' for each byte outside printable ASCII (the reply must stay UTF-8). */
static void field_of(char *field, size_t cap, const char *name, size_t len)
{
	bool text = http_text_ok(name, len);
	size_t n = 0;
	field[n++] = '/';
	for (size_t i = 0; i < len && n + 1 < cap; i++) {
		unsigned char c = (unsigned char)name[i];
		field[n++] = !text && (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
	}
	while (n > 1 && !http_text_ok(field, n))
		n--; /* a character cut at the end is dropped whole */
	field[n] = '\0';
}

/* Fills resp with the 400 for the parameter name[0..len) (where: "query" or "path"). */
static void refuse(http_resp *resp, const char *where, const char *name, size_t len,
                   const char *rule)
{
	char field[72], detail[224]; /* room for the longest: no character cut */
	field_of(field, sizeof field, name, len);
	snprintf(detail, sizeof detail, "the %s parameter %s must be UTF-8 text %s", where,
	         field + 1,
	         strcmp(rule, "nul-byte") == 0 ? "without a NUL byte (%00)"
	                                       : "(it holds bytes that are not UTF-8)");
	http_reply_problem(resp, 400, detail, rule, field);
}

bool http_query_arg_refused(const char *key, size_t key_size, const char *value, size_t value_size,
                            http_resp *resp)
{
	if (!key)
		key_size = 0;
	const char *rule = http_text_problem(key ? key : "", key_size);
	if (!rule && value)
		rule = http_text_problem(value, value_size);
	if (!rule)
		return false;
	refuse(resp, "query", key ? key : "", key_size, rule);
	return true;
}

typedef struct {
	http_resp *resp;
	bool refused;
} query_walk;

static enum MHD_Result query_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                 size_t key_size, const char *value, size_t value_size)
{
	query_walk *w = cls;
	(void)kind;
	w->refused = http_query_arg_refused(key, key_size, value, value_size, w->resp);
	return w->refused ? MHD_NO : MHD_YES;
}

/* The name of the i-th "{name}" of pattern into name[0..*len); "" when there is none. */
static const char *pattern_param(const char *pattern, int i, size_t *len)
{
	const char *p = pattern;
	*len = 0;
	for (int k = 0; (p = strchr(p, '{')) != NULL; k++, p++) {
		const char *e = strchr(p, '}');
		if (!e)
			break;
		if (k == i) {
			*len = (size_t)(e - p - 1);
			return p + 1;
		}
	}
	return "";
}

bool http_params_refused(struct MHD_Connection *conn, const char *pattern,
                         const char *const *params, int nparams, http_resp *resp)
{
	query_walk w = {.resp = resp};
	if (conn)
		MHD_get_connection_values_n(conn, MHD_GET_ARGUMENT_KIND, query_arg, &w);
	if (w.refused)
		return true;
	for (int i = 0; i < nparams; i++) {
		/* the router refuses a decoded NUL already; a path parameter is a C string */
		const char *rule = http_text_problem(params[i], strlen(params[i]));
		if (!rule)
			continue;
		size_t len;
		const char *name = pattern_param(pattern ? pattern : "", i, &len);
		refuse(resp, "path", name, len, rule);
		return true;
	}
	return false;
}
