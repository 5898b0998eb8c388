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
	jw_sep(w);
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
