/* The out-of-memory policy of the whole server: abort, in one place (as Redis's zmalloc does).
 *
 * An allocation that fails means the process is past saving: a half-built reply or state is
 * worse than a restart, and a crash-safe event log (every acknowledged move is committed)
 * makes a restart cheap. So no caller ever handles NULL from an allocation: it calls these
 * wrappers (or the jx_* JSON builders of json/jx.h, which use oom_check), which never return
 * NULL. Header-only so the pure rules library can use it too. */
#ifndef BASE_OOM_H
#define BASE_OOM_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes one line and aborts. Never returns. */
static inline _Noreturn void oom_abort(void)
{
	static const char msg[] = "bug out of memory: aborting\n";
	ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
	(void)w;
	abort();
}

/* Returns p, or aborts when it is NULL (an allocation that failed). */
static inline void *oom_check(void *p)
{
	if (p == NULL)
		oom_abort();
	return p;
}

static inline void *xmalloc(size_t n)
{
	return oom_check(malloc(n ? n : 1));
}

static inline void *xcalloc(size_t n, size_t size)
{
	return oom_check(calloc(n ? n : 1, size ? size : 1));
}

static inline void *xrealloc(void *p, size_t n)
{
	return oom_check(realloc(p, n ? n : 1));
}

static inline char *xstrdup(const char *s)
{
	return oom_check(strdup(s));
}

#endif
