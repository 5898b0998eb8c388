/* An LD_PRELOAD library for tests/bench/allocs.sh: counts the process's heap allocations
 * (malloc, calloc, realloc, aligned_alloc, posix_memalign, memalign) by size, and writes its
 * counts to standard error on SIGUSR1, one line:
 *
 *   malloc_count: all N ge1k N ge4k N ge16k N
 *
 * The counters are atomic (relaxed); the signal handler formats with no allocation and writes
 * with write(2). glibc's __libc_* entry points do the work, so no dlsym is needed (dlsym
 * itself allocates). Not part of the server: built and preloaded by the benchmark only. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_ullong n_all, n_1k, n_4k, n_16k;

static void count(size_t n)
{
	atomic_fetch_add_explicit(&n_all, 1, memory_order_relaxed);
	if (n >= 1024)
		atomic_fetch_add_explicit(&n_1k, 1, memory_order_relaxed);
	if (n >= 4096)
		atomic_fetch_add_explicit(&n_4k, 1, memory_order_relaxed);
	if (n >= 16384)
		atomic_fetch_add_explicit(&n_16k, 1, memory_order_relaxed);
}

void *malloc(size_t n)
{
	count(n);
	return __libc_malloc(n);
}

void *calloc(size_t k, size_t n)
{
	count(k * n);
	return __libc_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
	count(n);
	return __libc_realloc(p, n);
}

void *memalign(size_t a, size_t n)
{
	count(n);
	return __libc_memalign(a, n);
}

void *aligned_alloc(size_t a, size_t n)
{
	count(n);
	return __libc_memalign(a, n);
}

int posix_memalign(void **out, size_t a, size_t n)
{
	count(n);
	void *p = __libc_memalign(a, n);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

/* Appends v in decimal to buf at *at. */
static void put_num(char *buf, size_t *at, unsigned long long v)
{
	char tmp[24];
	int k = 0;
	do {
		tmp[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k)
		buf[(*at)++] = tmp[--k];
}

static void put_str(char *buf, size_t *at, const char *s)
{
	size_t n = strlen(s);
	memcpy(buf + *at, s, n);
	*at += n;
}

static void on_usr1(int sig)
{
	(void)sig;
	int saved = errno;
	char buf[160];
	size_t at = 0;
	put_str(buf, &at, "malloc_count: all ");
	put_num(buf, &at, atomic_load(&n_all));
	put_str(buf, &at, " ge1k ");
	put_num(buf, &at, atomic_load(&n_1k));
	put_str(buf, &at, " ge4k ");
	put_num(buf, &at, atomic_load(&n_4k));
	put_str(buf, &at, " ge16k ");
	put_num(buf, &at, atomic_load(&n_16k));
	buf[at++] = '\n';
	ssize_t w = write(2, buf, at);
	(void)w;
	errno = saved;
}

__attribute__((constructor)) static void malloc_count_init(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
}
