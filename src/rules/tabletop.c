/* Shared helpers of the Dice Hospital and Clinic scorekeepers (see tabletop.h). */
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rules/tabletop.h"

int tt_fail(tt_error *e, int status, const char *rule, const char *detail, const char *field_fmt,
            ...)
{
	if (!e)
		return -1;
	e->status = status;
	e->rule = rule;
	snprintf(e->detail, sizeof e->detail, "%s", detail);
	va_list ap;
	va_start(ap, field_fmt);
	vsnprintf(e->field, sizeof e->field, field_fmt, ap);
	va_end(ap);
	return -1;
}

static int errf(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int errf(char *err, size_t len, const char *fmt, ...)
{
	if (err && len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static json_object *member(json_object *o, const char *key, json_type t)
{
	json_object *v = NULL;
	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, t))
		return NULL;
	return v;
}

static int int_in(json_object *v, int lo, int hi, int32_t *out)
{
	if (!v || !json_object_is_type(v, json_type_int))
		return -1;
	int64_t x = json_object_get_int64(v);
	if (x < lo || x > hi)
		return -1;
	*out = (int32_t)x;
	return 0;
}

/* values[key] as an object with a boolean "verified". */
static json_object *entry(json_object *values, const char *key, bool *verified, char *err,
                          size_t errlen)
{
	json_object *o = member(values, key, json_type_object);
	if (!o) {
		errf(err, errlen, "/values/%s: missing or not an object", key);
		return NULL;
	}
	json_object *v = member(o, "verified", json_type_boolean);
	if (!v) {
		errf(err, errlen, "/values/%s/verified: missing or not a boolean", key);
		return NULL;
	}
	*verified = json_object_get_boolean(v);
	return o;
}

int tt_get_value(json_object *values, const char *key, int lo, int hi, tt_value *out, char *err,
                 size_t errlen)
{
	bool ver;
	json_object *o = entry(values, key, &ver, err, errlen);
	if (!o)
		return -1;
	if (int_in(member(o, "value", json_type_int), lo, hi, &out->value) != 0)
		return errf(err, errlen, "/values/%s/value: missing or not an integer in [%d, %d]",
		            key, lo, hi);
	out->verified = ver;
	return 0;
}

int tt_get_named(json_object *values, const char *key, const char *const *names, int n, int lo,
                 int hi, tt_value *out, char *err, size_t errlen)
{
	bool ver;
	json_object *o = entry(values, key, &ver, err, errlen);
	if (!o)
		return -1;
	for (int i = 0; i < n; i++) {
		if (int_in(member(o, names[i], json_type_int), lo, hi, &out[i].value) != 0)
			return errf(err, errlen,
			            "/values/%s/%s: missing or not an integer in [%d, %d]", key,
			            names[i], lo, hi);
		out[i].verified = ver;
	}
	return 0;
}

int tt_get_list(json_object *values, const char *key, const char *list_key, int n, int lo, int hi,
                tt_value *out, char *err, size_t errlen)
{
	bool ver;
	json_object *o = entry(values, key, &ver, err, errlen);
	if (!o)
		return -1;
	json_object *a = member(o, list_key, json_type_array);
	if (!a || json_object_array_length(a) != (size_t)n)
		return errf(err, errlen, "/values/%s/%s: missing or not an array of %d integers",
		            key, list_key, n);
	for (int i = 0; i < n; i++) {
		if (int_in(json_object_array_get_idx(a, (size_t)i), lo, hi, &out[i].value) != 0)
			return errf(err, errlen, "/values/%s/%s/%d: not an integer in [%d, %d]",
			            key, list_key, i, lo, hi);
		out[i].verified = ver;
	}
	return 0;
}

static bool id_ok(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n >= TT_ID_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

int tt_get_header(json_object *doc, const char *game, char *id, char *name, char *err,
                  size_t errlen)
{
	json_object *g = member(doc, "game", json_type_string);
	if (!g || strcmp(json_object_get_string(g), game) != 0)
		return errf(err, errlen, "/game: must be \"%s\"", game);
	json_object *i = member(doc, "id", json_type_string);
	if (!i || !id_ok(json_object_get_string(i)))
		return errf(err, errlen, "/id: must be 1 to 32 characters of a-z, 0-9 and '-'");
	json_object *n = member(doc, "name", json_type_string);
	size_t nl = n ? strlen(json_object_get_string(n)) : 0;
	if (!n || nl < 1 || nl >= TT_NAME_LEN)
		return errf(err, errlen, "/name: must be a string of 1 to %d bytes",
		            TT_NAME_LEN - 1);
	snprintf(id, TT_ID_LEN, "%s", json_object_get_string(i));
	snprintf(name, TT_NAME_LEN, "%s", json_object_get_string(n));
	return 0;
}
