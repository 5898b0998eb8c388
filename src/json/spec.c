/* Strict JSON parsing and declarative field specs (spec.h).
 *
 * json-c's STRICT mode still accepts single-quoted strings, NaN, "1.", raw control characters in
 * strings, lone UTF-16 surrogates and duplicate keys. So js_parse first runs a small RFC 8259
 * validator over the bytes (bounded recursion: depth ≤ JS_MAX_DEPTH), then lets json-c build the
 * tree from input that is known to be well-formed, then checks that no object lost a duplicate
 * member, and that no number is beyond a double's range (1e400: json-c makes it infinite,
 * and an infinity written back is Infinity, which is not JSON). Nothing here allocates except
 * json-c's tree, which the caller owns on success. */
#include "json/spec.h"

#include "base/oom.h"

#include <json-c/json.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- errors ---- */

static int fail(js_error *err, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(js_error *err, const char *field, const char *fmt, ...)
{
	if (!err)
		return -1;
	snprintf(err->field, sizeof err->field, "%s", field ? field : "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->detail, sizeof err->detail, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- members ---- */

json_object *js_member(json_object *o, const char *key, json_type t)
{
	json_object *v = NULL;
	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, t))
		return NULL;
	return v;
}

/* ---- JSON pointers (RFC 6901) ---- */

int js_path(char *buf, size_t len, const char *at, const char *key)
{
	if (!buf || len == 0)
		return -1;
	size_t n = 0;
	int truncated = 0;
	const char *a = at ? at : "";
	size_t alen = strlen(a);
	if (alen >= len) {
		alen = len - 1;
		truncated = 1;
	}
	memcpy(buf, a, alen);
	n = alen;
	if (n + 1 < len)
		buf[n++] = '/';
	else
		truncated = 1;
	for (const char *k = key ? key : ""; *k; k++) {
		const char *rep = NULL;
		char one[2] = {*k, 0};
		if (*k == '~')
			rep = "~0";
		else if (*k == '/')
			rep = "~1";
		else
			rep = one;
		size_t rl = strlen(rep);
		if (n + rl >= len) {
			truncated = 1;
			break;
		}
		memcpy(buf + n, rep, rl);
		n += rl;
	}
	buf[n] = '\0';
	return truncated ? -1 : 0;
}

int js_path_index(char *buf, size_t len, const char *at, size_t index)
{
	char num[24];
	snprintf(num, sizeof num, "%zu", index);
	return js_path(buf, len, at, num);
}

/* ---- the strict validator ---- */

typedef struct {
	const unsigned char *start, *p, *end;
	int depth;
	size_t members; /* object members seen in the text (to detect duplicate keys) */
	const char *why;
} vstate;

static int vfail(vstate *s, const char *why)
{
	if (!s->why)
		s->why = why;
	return -1;
}

static void v_ws(vstate *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

int js_hex_digit(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int v_hex4(vstate *s, unsigned *out)
{
	if (s->end - s->p < 4)
		return vfail(s, "truncated \\u escape");
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		int h = js_hex_digit(s->p[i]);
		if (h < 0)
			return vfail(s, "bad \\u escape");
		v = v << 4 | (unsigned)h;
	}
	s->p += 4;
	*out = v;
	return 0;
}

/* One UTF-8 sequence starting at s->p (a byte ≥ 0x80): shortest form, no surrogates, ≤ U+10FFFF. */
static int v_utf8(vstate *s)
{
	const unsigned char *p = s->p;
	size_t left = (size_t)(s->end - p);
	unsigned c = p[0];
	size_t n;
	unsigned cp, lo;
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		cp = c & 0x1F;
		lo = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		cp = c & 0x0F;
		lo = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		cp = c & 0x07;
		lo = 0x10000;
	} else {
		return vfail(s, "invalid UTF-8");
	}
	if (left < n)
		return vfail(s, "invalid UTF-8");
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return vfail(s, "invalid UTF-8");
		cp = cp << 6 | (p[i] & 0x3F);
	}
	if (cp < lo || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return vfail(s, "invalid UTF-8");
	s->p += n;
	return 0;
}

static int v_string(vstate *s)
{
	s->p++; /* opening quote */
	while (s->p < s->end) {
		unsigned char c = *s->p;
		if (c == '"') {
			s->p++;
			return 0;
		}
		if (c < 0x20)
			return vfail(s, "control character in a string");
		if (c >= 0x80) {
			if (v_utf8(s))
				return -1;
			continue;
		}
		if (c != '\\') {
			s->p++;
			continue;
		}
		s->p++;
		if (s->p >= s->end)
			break;
		c = *s->p++;
		switch (c) {
		case '"':
		case '\\':
		case '/':
		case 'b':
		case 'f':
		case 'n':
		case 'r':
		case 't':
			break;
		case 'u': {
			unsigned u;
			if (v_hex4(s, &u))
				return -1;
			if (u == 0)
				return vfail(s, "\\u0000 is not allowed");
			if (u >= 0xDC00 && u <= 0xDFFF)
				return vfail(s, "lone UTF-16 surrogate");
			if (u >= 0xD800 && u <= 0xDBFF) {
				unsigned u2;
				if (s->end - s->p < 2 || s->p[0] != '\\' || s->p[1] != 'u')
					return vfail(s, "lone UTF-16 surrogate");
				s->p += 2;
				if (v_hex4(s, &u2))
					return -1;
				if (u2 < 0xDC00 || u2 > 0xDFFF)
					return vfail(s, "lone UTF-16 surrogate");
			}
			break;
		}
		default:
			s->p--;
			return vfail(s, "bad escape in a string");
		}
	}
	return vfail(s, "unterminated string");
}

static int v_digits(vstate *s)
{
	const unsigned char *b = s->p;
	while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
		s->p++;
	return s->p > b ? 0 : vfail(s, "malformed number");
}

static int v_number(vstate *s)
{
	if (*s->p == '-')
		s->p++;
	if (s->p >= s->end)
		return vfail(s, "malformed number");
	if (*s->p == '0') {
		s->p++;
		if (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			return vfail(s, "leading zero in a number");
	} else if (v_digits(s)) {
		return -1;
	}
	if (s->p < s->end && *s->p == '.') {
		s->p++;
		if (v_digits(s))
			return -1;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		s->p++;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (v_digits(s))
			return -1;
	}
	return 0;
}

static int v_literal(vstate *s, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return vfail(s, "unexpected character");
	s->p += n;
	return 0;
}

static int v_value(vstate *s);

static int v_container(vstate *s, unsigned char close)
{
	if (++s->depth > JS_MAX_DEPTH)
		return vfail(s, "nested too deep");
	s->p++;
	v_ws(s);
	if (s->p < s->end && *s->p == close) {
		s->p++;
		s->depth--;
		return 0;
	}
	for (;;) {
		if (close == '}') {
			v_ws(s);
			if (s->p >= s->end || *s->p != '"')
				return vfail(s, s->p >= s->end
				                    ? "unexpected end of input"
				                    : "expected a member name in quotes");
			if (v_string(s))
				return -1;
			s->members++;
			v_ws(s);
			if (s->p >= s->end || *s->p != ':')
				return vfail(s, s->p >= s->end ? "unexpected end of input"
				                               : "expected ':'");
			s->p++;
		}
		if (v_value(s))
			return -1;
		v_ws(s);
		if (s->p >= s->end)
			return vfail(s, "unexpected end of input");
		if (*s->p == close) {
			s->p++;
			s->depth--;
			return 0;
		}
		if (*s->p != ',')
			return vfail(s,
			             close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
		s->p++;
	}
}

static int v_value(vstate *s)
{
	v_ws(s);
	if (s->p >= s->end)
		return vfail(s, "unexpected end of input");
	switch (*s->p) {
	case '{':
		return v_container(s, '}');
	case '[':
		return v_container(s, ']');
	case '"':
		return v_string(s);
	case 't':
		return v_literal(s, "true");
	case 'f':
		return v_literal(s, "false");
	case 'n':
		return v_literal(s, "null");
	default:
		if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9'))
			return v_number(s);
		return vfail(s, "unexpected character");
	}
}

/* Members in the tree (json-c keeps only the last of duplicate keys); *nonfinite set when a
 * number is out of a double's range (1e400 is well-formed JSON, and json-c makes it infinite). */
static size_t tree_members(struct json_object *o, bool *nonfinite)
{
	size_t n = 0;
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v)
		{
			(void)k;
			n += 1 + tree_members(v, nonfinite);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		size_t len = json_object_array_length(o);
		for (size_t i = 0; i < len; i++)
			n += tree_members(json_object_array_get_idx(o, i), nonfinite);
	} else if (json_object_is_type(o, json_type_double) &&
	           !isfinite(json_object_get_double(o))) {
		*nonfinite = true;
	}
	return n;
}

/* The JSON pointer (into buf, under at) of the first non-finite number in o; false if none. */
static bool nonfinite_at(struct json_object *o, const char *at, char *buf, size_t len)
{
	char sub[256];
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v)
		{
			js_path(sub, sizeof sub, at, k);
			if (nonfinite_at(v, sub, buf, len))
				return true;
		}
	} else if (json_object_is_type(o, json_type_array)) {
		size_t n = json_object_array_length(o);
		for (size_t i = 0; i < n; i++) {
			js_path_index(sub, sizeof sub, at, i);
			if (nonfinite_at(json_object_array_get_idx(o, i), sub, buf, len))
				return true;
		}
	} else if (json_object_is_type(o, json_type_double) &&
	           !isfinite(json_object_get_double(o))) {
		snprintf(buf, len, "%s", at);
		return true;
	}
	return false;
}

int js_parse(const char *buf, size_t len, struct json_object **out, js_error *err)
{
	if (out)
		*out = NULL;
	if (!out)
		return fail(err, "", "no output");
	if (!buf) {
		buf = "";
		len = 0;
	}
	if (len > INT_MAX / 2)
		return fail(err, "", "the body is too large");
	vstate s = {(const unsigned char *)buf,
	            (const unsigned char *)buf,
	            (const unsigned char *)buf + len,
	            0,
	            0,
	            NULL};
	v_ws(&s);
	if (s.p == s.end)
		return fail(err, "", "the body is empty: expected a JSON value");
	if (v_value(&s) == 0) {
		v_ws(&s);
		if (s.p != s.end)
			vfail(&s, "unexpected bytes after the JSON value");
	}
	if (s.why) {
		size_t at = (size_t)(s.p - s.start);
		if (strcmp(s.why, "nested too deep") == 0)
			return fail(err, "",
			            "malformed JSON at byte %zu: nested deeper than %d levels", at,
			            JS_MAX_DEPTH);
		return fail(err, "", "malformed JSON at byte %zu: %s", at, s.why);
	}

	/* Well-formed: let json-c build the tree. One level more than ours: json-c counts the
	 * top-level slot. */
	struct json_tokener *tok = oom_check(json_tokener_new_ex(JS_MAX_DEPTH + 1));
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	struct json_object *o = json_tokener_parse_ex(tok, buf, (int)len);
	enum json_tokener_error je = json_tokener_get_error(tok);
	if (!o && je == json_tokener_continue) {
		/* A bare number or literal at top level ends at the end of input. */
		o = json_tokener_parse_ex(tok, "", 1);
		je = json_tokener_get_error(tok);
	}
	json_tokener_free(tok);
	if (je != json_tokener_success) {
		json_object_put(o);
		return fail(err, "", "malformed JSON: %s", json_tokener_error_desc(je));
	}
	bool nonfinite = false;
	if (tree_members(o, &nonfinite) != s.members) {
		json_object_put(o);
		return fail(err, "", "malformed JSON: an object has a duplicate member name");
	}
	if (nonfinite) {
		char at[256] = "";
		nonfinite_at(o, "", at, sizeof at);
		json_object_put(o);
		return fail(err, at,
		            "must be a finite number (this one is beyond a double's range)");
	}
	*out = o;
	return 0;
}

/* ---- field specs ---- */

/* JSON's interoperable integer range (RFC 7493 §2.2): the bounds of an unbounded JS_INT. */
#define JS_SAFE_INT ((int64_t)9007199254740992)

static void int_bounds(const js_field *f, int64_t *lo, int64_t *hi)
{
	if (f->min == 0 && f->max == 0) {
		*lo = -JS_SAFE_INT;
		*hi = JS_SAFE_INT;
	} else {
		*lo = f->min;
		*hi = f->max;
	}
	if (f->flags & JS_F_INT32) {
		if (*lo < INT32_MIN)
			*lo = INT32_MIN;
		if (*hi > INT32_MAX)
			*hi = INT32_MAX;
	}
}

static bool unbounded(const js_field *f)
{
	return f->min == 0 && f->max == 0;
}

static void set_present(const js_field *f, bool v)
{
	if (f->present)
		*f->present = v;
}

static int fail_int(js_error *err, const char *at, const js_field *f)
{
	int64_t lo, hi;
	int_bounds(f, &lo, &hi);
	if (unbounded(f) && !(f->flags & JS_F_INT32))
		return fail(err, at, "must be an integer");
	return fail(err, at, "must be an integer from %" PRId64 " to %" PRId64, lo, hi);
}

static int fail_enum(js_error *err, const char *at, const js_field *f)
{
	char list[200];
	size_t n = 0;
	list[0] = '\0';
	for (size_t i = 0; f->choices && f->choices[i]; i++) {
		int w =
		    snprintf(list + n, sizeof list - n, "%s\"%s\"", i ? ", " : "", f->choices[i]);
		if (w < 0 || (size_t)w >= sizeof list - n) {
			snprintf(list + (sizeof list - 5), 5, "…");
			break;
		}
		n += (size_t)w;
	}
	return fail(err, at, "must be one of %s", list);
}

int js_value(struct json_object *v, const char *at, const js_field *f, js_error *err)
{
	if (!f)
		return fail(err, at, "no spec");
	if (!at)
		at = "";
	if (v == NULL) { /* JSON null */
		if (!(f->flags & JS_F_NULLABLE))
			return fail(err, at, "must not be null");
		set_present(f, false);
		if (f->out && (f->type == JS_STRING || f->type == JS_OBJECT || f->type == JS_ARRAY))
			*(void **)f->out = NULL;
		return 0;
	}
	switch (f->type) {
	case JS_INT: {
		if (!json_object_is_type(v, json_type_int))
			return fail_int(err, at, f);
		int64_t lo, hi;
		int_bounds(f, &lo, &hi);
		/* json-c saturates out-of-range integers; a saturated value is never in range. */
		int64_t x = json_object_get_int64(v);
		if (x == INT64_MAX || x == INT64_MIN || x < lo || x > hi)
			return fail_int(err, at, f);
		if (f->out) {
			if (f->flags & JS_F_INT32)
				*(int *)f->out = (int)x;
			else
				*(int64_t *)f->out = x;
		}
		break;
	}
	case JS_NUMBER: {
		if (!json_object_is_type(v, json_type_int) &&
		    !json_object_is_type(v, json_type_double))
			goto bad_number;
		double d = json_object_get_double(v);
		if (!isfinite(d))
			goto bad_number;
		if (!unbounded(f) && (d < (double)f->min || d > (double)f->max))
			goto bad_number;
		if (f->out)
			*(double *)f->out = d;
		break;
	bad_number:
		if (unbounded(f))
			return fail(err, at, "must be a number");
		return fail(err, at, "must be a number from %" PRId64 " to %" PRId64, f->min,
		            f->max);
	}
	case JS_BOOL:
		if (!json_object_is_type(v, json_type_boolean))
			return fail(err, at, "must be true or false");
		if (f->out)
			*(bool *)f->out = json_object_get_boolean(v);
		break;
	case JS_STRING: {
		if (!json_object_is_type(v, json_type_string))
			goto bad_string;
		const char *str = json_object_get_string(v);
		size_t len = (size_t)json_object_get_string_len(v);
		if (!str || strlen(str) != len)
			return fail(err, at, "must not contain NUL characters");
		if (!unbounded(f) && ((int64_t)len < f->min || (int64_t)len > f->max))
			goto bad_string;
		if (f->out)
			*(const char **)f->out = str;
		break;
	bad_string:
		if (unbounded(f))
			return fail(err, at, "must be a string");
		if (f->min == f->max)
			return fail(err, at, "must be a string of %" PRId64 " bytes", f->max);
		return fail(err, at, "must be a string of %" PRId64 " to %" PRId64 " bytes", f->min,
		            f->max);
	}
	case JS_ENUM: {
		if (!json_object_is_type(v, json_type_string))
			return fail_enum(err, at, f);
		const char *str = json_object_get_string(v);
		int idx = -1;
		for (int i = 0; f->choices && f->choices[i]; i++) {
			if (strcmp(f->choices[i], str) == 0 &&
			    strlen(str) == (size_t)json_object_get_string_len(v)) {
				idx = i;
				break;
			}
		}
		if (idx < 0)
			return fail_enum(err, at, f);
		if (f->out)
			*(int *)f->out = idx;
		break;
	}
	case JS_OBJECT:
		if (!json_object_is_type(v, json_type_object))
			return fail(err, at, "must be an object");
		if (f->out)
			*(struct json_object **)f->out = v;
		break;
	case JS_ARRAY: {
		if (!json_object_is_type(v, json_type_array))
			goto bad_array;
		size_t len = json_object_array_length(v);
		if (!unbounded(f) && ((int64_t)len < f->min || (int64_t)len > f->max))
			goto bad_array;
		if (f->out)
			*(struct json_object **)f->out = v;
		break;
	bad_array:
		if (unbounded(f))
			return fail(err, at, "must be an array");
		if (f->min == f->max)
			return fail(err, at, "must be an array of %" PRId64 " item%s", f->max,
			            f->max == 1 ? "" : "s");
		return fail(err, at, "must be an array of %" PRId64 " to %" PRId64 " items", f->min,
		            f->max);
	}
	default:
		return fail(err, at, "unsupported field type");
	}
	set_present(f, true);
	return 0;
}

int js_fields(struct json_object *obj, const char *at, const js_field *fields, size_t n,
              js_error *err)
{
	char ptr[256];
	if (!at)
		at = "";
	if (!json_object_is_type(obj, json_type_object) || obj == NULL)
		return fail(err, at, "must be an object");
	json_object_object_foreach(obj, key, val)
	{
		(void)val;
		bool known = false;
		for (size_t i = 0; i < n && !known; i++)
			known = strcmp(fields[i].name, key) == 0;
		if (!known) {
			js_path(ptr, sizeof ptr, at, key);
			return fail(err, ptr, "is not an allowed field");
		}
	}
	for (size_t i = 0; i < n; i++) {
		const js_field *f = &fields[i];
		struct json_object *v = NULL;
		if (!json_object_object_get_ex(obj, f->name, &v)) {
			set_present(f, false);
			if (f->flags & JS_F_REQUIRED) {
				js_path(ptr, sizeof ptr, at, f->name);
				return fail(err, ptr, "is required");
			}
			continue;
		}
		/* The field's pointer is written only when it is bad (a hot path otherwise). */
		if (js_value(v, "", f, err)) {
			js_path(ptr, sizeof ptr, at, f->name);
			snprintf(err->field, sizeof err->field, "%s", ptr);
			return -1;
		}
	}
	return 0;
}
