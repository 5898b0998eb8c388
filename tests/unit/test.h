/* A tiny test harness: each CHECK prints nothing on success; each TEST prints one line
 * "PASS name" or "FAIL name: …". tests/run.sh counts these lines across every suite. */
#ifndef TEST_H
#define TEST_H

#include <stdio.h>
#include <string.h>

static int test_failed_now;
static int test_pass_count, test_fail_count;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("  check failed %s:%d: %s\n", __FILE__, __LINE__, #cond);           \
			test_failed_now = 1;                                                       \
		}                                                                                  \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                                         \
	do {                                                                                       \
		long long va_ = (long long)(a), vb_ = (long long)(b);                              \
		if (va_ != vb_) {                                                                  \
			printf("  check failed %s:%d: %s == %s (%lld != %lld)\n", __FILE__,        \
			       __LINE__, #a, #b, va_, vb_);                                        \
			test_failed_now = 1;                                                       \
		}                                                                                  \
	} while (0)

#define CHECK_STR(a, b)                                                                            \
	do {                                                                                       \
		const char *sa_ = (a), *sb_ = (b);                                                 \
		if ((sa_ == NULL) != (sb_ == NULL) || (sa_ && strcmp(sa_, sb_) != 0)) {            \
			printf("  check failed %s:%d: %s == %s (\"%s\" != \"%s\")\n", __FILE__,    \
			       __LINE__, #a, #b, sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)");      \
			test_failed_now = 1;                                                       \
		}                                                                                  \
	} while (0)

/* Runs fn() as one test named name. */
#define TEST(name, fn)                                                                             \
	do {                                                                                       \
		test_failed_now = 0;                                                               \
		fn();                                                                              \
		if (test_failed_now) {                                                             \
			printf("FAIL %s\n", name);                                                 \
			test_fail_count++;                                                         \
		} else {                                                                           \
			printf("PASS %s\n", name);                                                 \
			test_pass_count++;                                                         \
		}                                                                                  \
	} while (0)

#define TEST_MAIN_END() return test_fail_count ? 1 : 0

#endif
