/* The out-of-memory policy (base/oom.h, json/jx.h): an allocation that fails aborts with one
 * line naming the size and the source line that asked, and stored JSON that does not parse
 * aborts the same way instead of becoming a JSON null. Each case runs in a child process; the
 * parent reads what the child wrote to stderr and how it ended. */
#include "base/oom.h"
#include "json/jx.h"
#include "test.h"

#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

/* Under the sanitizers' allocators a size no allocator gives must come back NULL, as from
 * glibc's, rather than stop the process in the sanitizer: the policy under test is ours. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "allocator_may_return_null=1";
}

/* Runs fn in a child with stderr to a pipe: what it wrote (into out) and whether it aborted. */
static bool run_child(void (*fn)(void), char *out, size_t len)
{
	int p[2];
	if (pipe(p) != 0)
		return false;
	fflush(stdout); /* the child must not write the parent's buffered lines again */
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], STDERR_FILENO);
		close(p[0]);
		fn();
		_exit(0);
	}
	close(p[1]);
	size_t n = 0;
	ssize_t r;
	while (n + 1 < len && (r = read(p[0], out + n, len - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	close(p[0]);
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void *volatile sink; /* keeps the compiler from eliding the allocation */

static void huge_malloc(void)
{
	volatile size_t n = SIZE_MAX / 2; /* no allocator gives this */
	sink = xmalloc(n);
	free(sink);
}

static void corrupt_stored(void)
{
	json_object *o = jx_parse_stored("{\"events\": [1, 2");
	json_object_put(o);
}

static void test_failed_allocation_names_size_and_site(void)
{
	char out[512];
	CHECK(run_child(huge_malloc, out, sizeof out));
	char want[128];
	snprintf(want, sizeof want,
	         "bug out of memory: %zu bytes at tests/unit/test_oom.c:", SIZE_MAX / 2);
	CHECK(strstr(out, want) != NULL);
	if (!strstr(out, want))
		printf("  stderr: %s\n", out);
}

static void test_stored_json_that_does_not_parse_aborts(void)
{
	char out[512];
	CHECK(run_child(corrupt_stored, out, sizeof out));
	CHECK(strstr(out, "bug stored JSON does not parse: 16 bytes at tests/unit/test_oom.c:") !=
	      NULL);
	if (!strstr(out, "stored JSON does not parse"))
		printf("  stderr: %s\n", out);
	/* JSON null itself is text that parses: NULL, no abort */
	CHECK(jx_parse_stored("null") == NULL);
}

int main(void)
{
	TEST("oom: a failed allocation aborts naming its size and site",
	     test_failed_allocation_names_size_and_site);
	TEST("oom: stored JSON that does not parse aborts naming its site",
	     test_stored_json_that_does_not_parse_aborts);
	TEST_MAIN_END();
}
