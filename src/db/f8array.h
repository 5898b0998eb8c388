/* A float8[] statement parameter in PostgreSQL's binary array format (the format array_send
 * writes and array_recv reads), built one element at a time and sent with format 1
 * (db_exec_bin): no number is printed as text by us or parsed back by the server, and every
 * double arrives exactly as it was. The same builder makes a bigint[] or an integer[]: one
 * made with .oid = DB_ARRAY_INT8 (or DB_ARRAY_INT4) takes db_f8array_int8 (db_f8array_int4)
 * elements, a zeroed one float8 elements. A text[] (.oid DB_ARRAY_TEXT) takes db_f8array_text
 * elements and a jsonb[] (.oid DB_ARRAY_JSONB) db_f8array_jsonb ones, sent as they are: no
 * quoting or escaping, unlike the text form of an array.
 *
 * Ownership: the buffer belongs to the array until db_f8array_free; the pointer
 * db_f8array_done returns borrows it. A zeroed db_f8array is an empty array. */
#ifndef DB_F8ARRAY_H
#define DB_F8ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	char *b;      /* owned: room for the header (20 bytes), then the elements */
	size_t len;   /* bytes written after the header */
	size_t cap;   /* bytes allocated after the header */
	int n;        /* elements */
	bool hasnull; /* an element is NULL */
	unsigned oid; /* the element type: 0 (float8), DB_ARRAY_INT8 or DB_ARRAY_INT4 */
} db_f8array;

/* PostgreSQL's type oids */
enum { DB_ARRAY_INT8 = 20, DB_ARRAY_INT4 = 23, DB_ARRAY_TEXT = 25, DB_ARRAY_JSONB = 3802 };

/* Appends v. */
void db_f8array_add(db_f8array *a, double v);
/* Appends v to a bigint[] (.oid DB_ARRAY_INT8). */
void db_f8array_int8(db_f8array *a, int64_t v);
/* Appends v to an integer[] (.oid DB_ARRAY_INT4). */
void db_f8array_int4(db_f8array *a, int32_t v);
/* Appends the n bytes of s (UTF-8 text without NUL) to a text[] (.oid DB_ARRAY_TEXT). */
void db_f8array_text(db_f8array *a, const char *s, size_t n);
/* Appends the JSON text s of n bytes to a jsonb[] (.oid DB_ARRAY_JSONB); the server parses it
 * (jsonb_recv), so s must be valid JSON. */
void db_f8array_jsonb(db_f8array *a, const char *s, size_t n);
/* Appends a NULL element. */
void db_f8array_null(db_f8array *a);
/* Appends every element of src (of the same type, not done yet) to a. */
void db_f8array_append(db_f8array *a, const db_f8array *src);
/* Writes the header and returns the parameter's bytes (borrowed from a) with their count in
 * *len; more elements may not be added after it. */
const char *db_f8array_done(db_f8array *a, int *len);
/* Frees the buffer and empties the array. */
void db_f8array_free(db_f8array *a);

#endif
