/* The allocator the server runs on (alloc.c): jemalloc in the release build (Makefile
 * MALLOC_LIB); the sanitizer builds keep the malloc their runtime puts in place of glibc's. */
#ifndef BASE_ALLOC_H
#define BASE_ALLOC_H

/* "jemalloc" or "the default malloc of glibc"; a static string. */
const char *alloc_name(void);

/* jemalloc's version ("5.3.0-0-g…"), or glibc's ("2.36"); a static string. */
const char *alloc_version(void);

/* Hands memory freed since the last call back to the system (RSS follows the load down):
 * jemalloc purges its arenas' unused pages, glibc trims its heaps. Takes the allocator's
 * locks: call it from a housekeeping thread, never from a connection's. */
void alloc_release(void);

#endif
