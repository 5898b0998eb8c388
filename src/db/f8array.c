/* Binary float8[], bigint[], integer[], text[] and jsonb[] parameters (f8array.h). The format
 * (PostgreSQL's array_recv): int32 number of dimensions (1, or 0 for an empty array), int32 flags
 * (1: has NULLs), uint32 element type (float8: 701, int8: 20, int4: 23), per dimension int32 length
 * and int32 lower bound (1), then per element int32 byte count (-1: NULL) and the value,
 * big-endian (float8send: the IEEE 754 bits; int8send, int4send), or the bytes of a text
 * (textsend) or a jsonb (jsonb_send: the format version 1, then the JSON text). */
#include "db/f8array.h"

#include "base/oom.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { HEAD = 20, FLOAT8_OID = 701 };

static void put32(char *p, uint32_t v)
{
	p[0] = (char)(v >> 24);
	p[1] = (char)(v >> 16);
	p[2] = (char)(v >> 8);
	p[3] = (char)v;
}

/* Room for n more bytes after the header. */
static char *reserve(db_f8array *a, size_t n)
{
	if (a->len + n > a->cap) {
		size_t cap = a->cap ? a->cap : 128;
		while (cap < a->len + n)
			cap *= 2;
		a->b = xrealloc(a->b, HEAD + cap);
		a->cap = cap;
	}
	char *p = a->b + HEAD + a->len;
	a->len += n;
	return p;
}

/* Appends an element of 8 bytes (bits, big-endian). */
static void put8(db_f8array *a, uint64_t bits)
{
	char *p = reserve(a, 12);
	put32(p, 8);
	put32(p + 4, (uint32_t)(bits >> 32));
	put32(p + 8, (uint32_t)bits);
	a->n++;
}

void db_f8array_add(db_f8array *a, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	put8(a, bits);
}

void db_f8array_int8(db_f8array *a, int64_t v)
{
	put8(a, (uint64_t)v);
}

void db_f8array_int4(db_f8array *a, int32_t v)
{
	char *p = reserve(a, 8);
	put32(p, 4);
	put32(p + 4, (uint32_t)v);
	a->n++;
}

/* Appends an element of n bytes: the optional prefix byte (jsonb's format version), then s. */
static void put_bytes(db_f8array *a, int prefix, const char *s, size_t n)
{
	size_t extra = prefix >= 0 ? 1 : 0;
	char *p = reserve(a, 4 + extra + n);
	put32(p, (uint32_t)(extra + n));
	if (extra)
		p[4] = (char)prefix;
	memcpy(p + 4 + extra, s, n);
	a->n++;
}

void db_f8array_text(db_f8array *a, const char *s, size_t n)
{
	put_bytes(a, -1, s, n);
}

void db_f8array_jsonb(db_f8array *a, const char *s, size_t n)
{
	put_bytes(a, 1, s, n);
}

void db_f8array_null(db_f8array *a)
{
	put32(reserve(a, 4), UINT32_MAX); /* -1 */
	a->n++;
	a->hasnull = true;
}

void db_f8array_append(db_f8array *a, const db_f8array *src)
{
	if (src->len)
		memcpy(reserve(a, src->len), src->b + HEAD, src->len);
	a->n += src->n;
	a->hasnull = a->hasnull || src->hasnull;
}

const char *db_f8array_done(db_f8array *a, int *len)
{
	if (a->b == NULL) /* nothing added: the buffer for the header alone */
		a->b = xcalloc(1, HEAD);
	char *h = a->b;
	put32(h, a->n ? 1 : 0);
	put32(h + 4, a->hasnull ? 1 : 0);
	put32(h + 8, a->oid ? a->oid : FLOAT8_OID);
	if (a->n == 0) { /* no dimensions: the 12 bytes of an empty array */
		*len = 12;
		return h;
	}
	put32(h + 12, (uint32_t)a->n);
	put32(h + 16, 1);
	*len = (int)(HEAD + a->len);
	return h;
}

void db_f8array_free(db_f8array *a)
{
	free(a->b);
	memset(a, 0, sizeof *a);
}
