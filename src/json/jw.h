/* Writing a JSON document as text, without building json-c objects: for the replies that are
 * sent often and large (a game's state after every move), where building a tree of objects, then
 * serialising and freeing it, costs far more than the text itself.
 *
 * The text is the very bytes json-c writes for the same document with
 * JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE (what http_reply_json sends): no
 * spaces, integers in decimal, strings escaped as json-c escapes them ("\b \f \n \r \t \" \\",
 * other bytes below 0x20 as \u00xx in lower-case hexadecimal, everything else as it is). So a
 * reply written here can be compared byte for byte with the json-c one (tests/unit/
 * test_api_state_text.c).
 *
 * Commas are the writer's: every value and every key written after another member of the same
 * object or array gets one. Keys are written as they are: pass literals that need no escaping.
 * Memory: under the out-of-memory policy (base/oom.h); the caller owns w->s.b (free it, or use
 * jw_thread's writer, which the thread keeps). */
#ifndef JSON_JW_H
#define JSON_JW_H

#include "base/sbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct jw {
	sbuf s;
	bool comma; /* the next value or key follows another member: write a comma first */
} jw;

/* This thread's writer, emptied: its buffer is kept from one use to the next (and freed when
 * the thread ends), so a reply written in it allocates nothing once the buffer has grown. Valid
 * until the thread's next jw_thread(). */
jw *jw_thread(void);

void jw_str(jw *w, const char *s); /* escaped */

/* The small writers are inline: with a literal key its length is known when compiling, and a
 * reply is hundreds of them. */
static inline void jw_sep(jw *w)
{
	if (w->comma)
		sb_add(&w->s, ",", 1);
}
static inline void jw_obj(jw *w) /* { */
{
	jw_sep(w);
	sb_add(&w->s, "{", 1);
	w->comma = false;
}
static inline void jw_obj_end(jw *w) /* } */
{
	sb_add(&w->s, "}", 1);
	w->comma = true;
}
static inline void jw_arr(jw *w) /* [ */
{
	jw_sep(w);
	sb_add(&w->s, "[", 1);
	w->comma = false;
}
static inline void jw_arr_end(jw *w) /* ] */
{
	sb_add(&w->s, "]", 1);
	w->comma = true;
}
static inline void jw_key(jw *w, const char *key)
{
	jw_sep(w);
	sb_add(&w->s, "\"", 1);
	sb_add(&w->s, key, strlen(key));
	sb_add(&w->s, "\":", 2);
	w->comma = false;
}
static inline void jw_int(jw *w, int64_t v)
{
	char buf[24], *p = buf + sizeof buf;
	/* through the unsigned magnitude: -INT64_MIN does not fit an int64_t */
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	jw_sep(w);
	sb_add(&w->s, p, (size_t)(buf + sizeof buf - p));
	w->comma = true;
}
static inline void jw_bool(jw *w, bool v)
{
	jw_sep(w);
	if (v)
		sb_add(&w->s, "true", 4);
	else
		sb_add(&w->s, "false", 5);
	w->comma = true;
}
static inline void jw_null(jw *w)
{
	jw_sep(w);
	sb_add(&w->s, "null", 4);
	w->comma = true;
}

/* A member: the key, then the value. */
static inline void jw_kint(jw *w, const char *key, int64_t v)
{
	jw_key(w, key);
	jw_int(w, v);
}
static inline void jw_kbool(jw *w, const char *key, bool v)
{
	jw_key(w, key);
	jw_bool(w, v);
}
static inline void jw_kstr(jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_str(w, s);
}

#endif
