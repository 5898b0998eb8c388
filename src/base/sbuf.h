/* A growing NUL-terminated text buffer under the out-of-memory policy (base/oom.h). The caller
 * owns s->b (free it); a zeroed sbuf is empty. */
#ifndef BASE_SBUF_H
#define BASE_SBUF_H

#include "base/oom.h"

#include <stddef.h>
#include <string.h>

typedef struct {
	char *b;
	size_t len, cap;
} sbuf;

static inline void sb_add(sbuf *s, const char *t, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		s->cap = (s->len + n + 1) * 2;
		s->b = xrealloc(s->b, s->cap);
	}
	memcpy(s->b + s->len, t, n);
	s->len += n;
	s->b[s->len] = '\0';
}

static inline void sb_str(sbuf *s, const char *t)
{
	sb_add(s, t, strlen(t));
}

#endif
