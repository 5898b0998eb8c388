/* The out-of-memory policy of the whole server: abort, in one place (as Redis's zmalloc does).
 *
 * An allocation that fails means the process is past saving: a half-built reply or state is
 * worse than a restart, and a crash-safe event log (every acknowledged move is committed)
 * makes a restart cheap. So no caller ever handles NULL from an allocation: it calls these
 * wrappers (or the jx_* JSON builders of json/jx.h, which use oom_check), which never return
 * NULL. The abort names the size that failed (0 where a library allocated for us and did not
 * say) and the source line that asked. Header-only so the pure rules library can use it too. */
#ifndef BASE_OOM_H
#define BASE_OOM_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes "bug WHAT: N bytes at file:line: aborting" to stderr and aborts. Never returns.
 * snprintf into a stack buffer: no allocation on the way down. */
static inline _Noreturn void fatal_at(const char *what, size_t size, const char *file, int line)
{
	char msg[256];
	int n = snprintf(msg, sizeof msg, "bug %s: %zu bytes at %s:%d: aborting\n", what, size,
	                 file, line);
	if (n > 0) {
		ssize_t w =
		    write(STDERR_FILENO, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
		(void)w;
	}
	abort();
}

static inline _Noreturn void oom_abort_at(const char *file, int line, size_t size)
{
	fatal_at("out of memory", size, file, line);
}

/* Returns p, or aborts naming size and the site when it is NULL (an allocation that failed). */
static inline void *oom_check_at(void *p, size_t size, const char *file, int line)
{
	if (p == NULL)
		oom_abort_at(file, line, size);
	return p;
}

#define oom_abort()  oom_abort_at(__FILE__, __LINE__, 0)
#define oom_check(p) oom_check_at((p), 0, __FILE__, __LINE__)

static inline void *xmalloc_at(size_t n, const char *file, int line)
{
	return oom_check_at(malloc(n ? n : 1), n, file, line);
}

static inline void *xcalloc_at(size_t n, size_t size, const char *file, int line)
{
	size_t total = (n ? n : 1) * (size ? size : 1);
	return oom_check_at(calloc(n ? n : 1, size ? size : 1), total, file, line);
}

static inline void *xrealloc_at(void *p, size_t n, const char *file, int line)
{
	return oom_check_at(realloc(p, n ? n : 1), n, file, line);
}

static inline char *xstrdup_at(const char *s, const char *file, int line)
{
	return oom_check_at(strdup(s), strlen(s) + 1, file, line);
}

#define xmalloc(n)       xmalloc_at((n), __FILE__, __LINE__)
#define xcalloc(n, size) xcalloc_at((n), (size), __FILE__, __LINE__)
#define xrealloc(p, n)   xrealloc_at((p), (n), __FILE__, __LINE__)
#define xstrdup(s)       xstrdup_at((s), __FILE__, __LINE__)

#endif
