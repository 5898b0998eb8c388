/* JSON text writer (jw.h). */
#include "json/jw.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_key_t g_key;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static bool g_key_ok;
static _Thread_local jw *t_writer;

static void writer_free(void *p)
{
	jw *w = p;
	free(w->s.b);
	free(w);
}

static void key_create(void)
{
	g_key_ok = pthread_key_create(&g_key, writer_free) == 0;
}

jw *jw_thread(void)
{
	jw *w = t_writer;
	if (w == NULL) {
		pthread_once(&g_once, key_create);
		w = xcalloc(1, sizeof *w);
		if (g_key_ok)
			pthread_setspecific(g_key, w); /* freed with the thread */
		t_writer = w;
	}
	w->s.len = 0;
	if (w->s.b)
		w->s.b[0] = '\0';
	w->comma = false;
	return w;
}

static void sep(jw *w)
{
	if (w->comma)
		sb_add(&w->s, ",", 1);
}

void jw_obj(jw *w)
{
	sep(w);
	sb_add(&w->s, "{", 1);
	w->comma = false;
}

void jw_obj_end(jw *w)
{
	sb_add(&w->s, "}", 1);
	w->comma = true;
}

void jw_arr(jw *w)
{
	sep(w);
	sb_add(&w->s, "[", 1);
	w->comma = false;
}

void jw_arr_end(jw *w)
{
	sb_add(&w->s, "]", 1);
	w->comma = true;
}

void jw_key(jw *w, const char *key)
{
	sep(w);
	size_t n = strlen(key);
	sb_add(&w->s, "\"", 1);
	sb_add(&w->s, key, n);
	sb_add(&w->s, "\":", 2);
	w->comma = false;
}

void jw_int(jw *w, int64_t v)
{
	char buf[24], *p = buf + sizeof buf;
	/* through the unsigned magnitude: -INT64_MIN does not fit an int64_t */
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	sep(w);
	sb_add(&w->s, p, (size_t)(buf + sizeof buf - p));
	w->comma = true;
}

void jw_bool(jw *w, bool v)
{
	sep(w);
	if (v)
		sb_add(&w->s, "true", 4);
	else
		sb_add(&w->s, "false", 5);
	w->comma = true;
}

void jw_null(jw *w)
{
	sep(w);
	sb_add(&w->s, "null", 4);
	w->comma = true;
}

/* The escape of byte c as json-c writes it, or NULL when c stands as it is. u is a buffer of 7
 * bytes for \u00xx. */
static const char *escape_of(unsigned char c, char u[7])
{
	static const char hex[] = "0123456789abcdef";
	switch (c) {
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	default:
		if (c >= 0x20)
			return NULL;
		memcpy(u, "\\u00", 4);
		u[4] = hex[c >> 4];
		u[5] = hex[c & 0xf];
		u[6] = '\0';
		return u;
	}
}

void jw_str(jw *w, const char *s)
{
	sep(w);
	sb_add(&w->s, "\"", 1);
	const char *run = s; /* bytes that stand as they are, not yet written */
	for (const char *p = s; *p; p++) {
		char u[7];
		const char *e = escape_of((unsigned char)*p, u);
		if (e == NULL)
			continue;
		sb_add(&w->s, run, (size_t)(p - run));
		sb_str(&w->s, e);
		run = p + 1;
	}
	sb_str(&w->s, run);
	sb_add(&w->s, "\"", 1);
	w->comma = true;
}
