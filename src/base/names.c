/* People's names as a league compares them (names.h). */
#include "base/names.h"
#include "base/oom.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unicase.h>
#include <unictype.h>
#include <uninorm.h>
#include <unistr.h>

/* A copy of the n bytes at p, NUL-terminated. */
static char *dup_n(const void *p, size_t n)
{
	char *s = xmalloc(n + 1);
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* The UTF-8 text s of n bytes without white space at its ends, each inner run of it one space,
 * and (with drop_invisible) without default-ignorable code points; NULL when s is not UTF-8. */
static char *collapse(const char *s, size_t n, bool drop_invisible)
{
	const uint8_t *p = (const uint8_t *)s, *end = p + n;
	if (u8_check(p, n) != NULL)
		return NULL;
	char *out = xmalloc(n + 1); /* a run of spaces becomes one byte: never longer */
	size_t len = 0;
	bool space = false; /* white space seen since the last character kept */
	while (p < end) {
		ucs4_t c;
		int k = u8_mbtouc_unsafe(&c, p, (size_t)(end - p));
		if (uc_is_property_white_space(c)) {
			space = len > 0;
		} else if (!drop_invisible || !uc_is_property_default_ignorable_code_point(c)) {
			if (space)
				out[len++] = ' ';
			space = false;
			memcpy(out + len, p, (size_t)k);
			len += (size_t)k;
		}
		p += k;
	}
	out[len] = '\0';
	return out;
}

/* A libunistring result (malloc'ed, n bytes, not NUL-terminated) as a NUL-terminated string;
 * "" when it failed on bad input, an abort when it ran out of memory. */
static char *taken(uint8_t *r, size_t n)
{
	if (!r) {
		if (errno == ENOMEM)
			oom_abort();
		return dup_n("", 0);
	}
	char *s = dup_n(r, n);
	free(r);
	return s;
}

char *name_display(const char *s)
{
	char *c = collapse(s, strlen(s), false);
	if (!c)
		return dup_n("", 0);
	size_t n = 0;
	uint8_t *r = u8_normalize(UNINORM_NFC, (const uint8_t *)c, strlen(c), NULL, &n);
	free(c);
	return taken(r, n);
}

char *name_key(const char *s)
{
	char *c = collapse(s, strlen(s), true);
	if (!c)
		return dup_n("", 0);
	/* u8_casefold with a normalization form folds NFD(c) and puts the result in that form:
	 * the canonical caseless match of Unicode (D145), so an accent typed as one character or
	 * as a letter and a combining mark folds alike. */
	size_t n = 0;
	uint8_t *r = u8_casefold((const uint8_t *)c, strlen(c), NULL, UNINORM_NFC, NULL, &n);
	free(c);
	return taken(r, n);
}

bool name_blank(const char *s)
{
	char *k = name_key(s);
	bool blank = *k == '\0';
	free(k);
	return blank;
}

void name_forms(const char *s, char **display, char **key)
{
	*key = name_key(s);
	if (**key != '\0') {
		*display = name_display(s);
		return;
	}
	free(*key);
	*display = dup_n(s, strlen(s));
	*key = dup_n(s, strlen(s));
}

size_t name_chars(const char *s)
{
	return u8_mbsnlen((const uint8_t *)s, strlen(s));
}
