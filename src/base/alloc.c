/* Which allocator runs, and giving its free pages back (alloc.h).
 *
 * Why jemalloc: glibc's malloc ties every chunk to the arena it came from, and a thread
 * that frees or reallocates a chunk of another thread's arena takes that arena's lock. A
 * job thread's reply is freed on a connection thread, so chunks of the job thread's arena
 * end up in the connection thread's cache and come back in its next small allocation. When
 * that job thread then frees the tree of a 2 MB import (some 100,000 objects, 20 ms), it
 * takes and gives back its arena's lock for every object and a connection thread's
 * `realloc` of such a chunk sleeps on it the whole time: every request of that thread
 * stalled 10–50 ms, health's included (tests/bench/README.md, "The job pool"). jemalloc
 * gives each thread a cache that takes any chunk and returns freed ones to their arena in
 * batches, per size class, under short locks.
 *
 * The sanitizer builds link no jemalloc (their runtime replaces malloc): mallctl is a weak
 * symbol, NULL there. */
#include "base/alloc.h"

#include <gnu/libc-version.h>
#include <malloc.h>
#include <stddef.h>

/* jemalloc's control interface (jemalloc/jemalloc.h; Debian's build has no prefix). */
extern int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
    __attribute__((weak));

/* MALLCTL_ARENAS_ALL of jemalloc.h: "every arena" in an arena.<i> name */
#define ARENAS_ALL "4096"

const char *alloc_name(void)
{
	return mallctl ? "jemalloc" : "the default malloc of glibc";
}

const char *alloc_version(void)
{
	const char *version = NULL;
	size_t len = sizeof version;
	if (!mallctl)
		return gnu_get_libc_version();
	if (mallctl("version", &version, &len, NULL, 0) != 0 || !version)
		return "?";
	return version;
}

void alloc_release(void)
{
	if (mallctl)
		(void)mallctl("arena." ARENAS_ALL ".purge", NULL, NULL, NULL, 0);
	else
		malloc_trim(0);
}
