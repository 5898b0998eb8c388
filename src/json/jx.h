/* Building JSON replies under the out-of-memory policy (base/oom.h): every constructor and
 * every add aborts on an allocation failure instead of returning NULL or -1, so reply code is
 * a straight line. json-c ownership stays as it is: jx_set and jx_push steal the value;
 * a NULL value is JSON null on purpose (jx_null() says so at the call site). */
#ifndef JSON_JX_H
#define JSON_JX_H

#include "base/oom.h"

#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

static inline json_object *jx_obj(void)
{
	return oom_check(json_object_new_object());
}
static inline json_object *jx_arr(void)
{
	return oom_check(json_object_new_array());
}
static inline json_object *jx_int(int64_t v)
{
	return oom_check(json_object_new_int64(v));
}
/* A number, or JSON null when v is not finite. Every input refuses non-finite numbers
 * (js_parse, the importers), so one here comes from a bug or from a value stored before that
 * (a double precision column holds 'Infinity'): json-c would write Infinity or NaN, which no
 * JSON reader takes, so the whole reply would be lost. null loses one number and keeps the reply
 * valid; aborting would turn one bad stored value into a crash on every read of it. */
static inline json_object *jx_double(double v)
{
	if (!isfinite(v))
		return NULL;
	return oom_check(json_object_new_double(v));
}
static inline json_object *jx_bool(bool v)
{
	return oom_check(json_object_new_boolean(v));
}
static inline json_object *jx_str(const char *s)
{
	return oom_check(json_object_new_string(s));
}
static inline json_object *jx_strn(const char *s, size_t n)
{
	return oom_check(json_object_new_string_len(s, (int)n));
}
static inline json_object *jx_null(void)
{
	return NULL;
}
/* A string or JSON null. */
static inline json_object *jx_str_or_null(const char *s)
{
	return s ? jx_str(s) : NULL;
}
/* Sets o[key] = v (stealing v). The key must have static storage (a literal or a static
 * table) and must not be in o yet: json-c then neither copies nor looks it up, which halves the
 * cost of building a reply. */
static inline void jx_set(json_object *o, const char *key, json_object *v)
{
	if (json_object_object_add_ex(
	        o, key, v, JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_KEY_IS_CONSTANT) != 0)
		oom_abort();
}
/* Sets o[key] = v (stealing v) for a key of any storage (copied), replacing an existing one. */
static inline void jx_set_copy(json_object *o, const char *key, json_object *v)
{
	if (json_object_object_add(o, key, v) != 0)
		oom_abort();
}
/* Appends v to the array a (stealing v). */
static inline void jx_push(json_object *a, json_object *v)
{
	if (json_object_array_add(a, v) != 0)
		oom_abort();
}
/* The object's compact text (owned by o). */
static inline const char *jx_text(json_object *o)
{
	return oom_check((void *)json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
}

/* Parses JSON text the server wrote itself, where a reply would otherwise carry it on (an event
 * payload in a log, a stored breakdown, a shipped profile): a new object the caller puts. Such
 * text was produced by json-c, so failing to parse it means an allocation failed inside json-c
 * or the database holds what this server never wrote; neither may be papered over with a JSON
 * null in a reply, so both abort, naming the site. Decoders that check their input and refuse
 * it (a kind's event decoder, which the fuzzers feed anything) call json_tokener_parse and
 * handle NULL themselves. */
#define jx_parse_stored(text) jx_parse_stored_at((text), __FILE__, __LINE__)
static inline json_object *jx_parse_stored_at(const char *text, const char *file, int line)
{
	enum json_tokener_error err = json_tokener_error_size; /* stays so if no tokener */
	json_object *o = json_tokener_parse_verbose(text, &err);
	if (o == NULL && strcmp(text, "null") != 0)
		fatal_at(err == json_tokener_error_size ? "out of memory"
		                                        : "stored JSON does not parse",
		         strlen(text), file, line);
	return o;
}

#endif
