/* A frozen table of strings read from a JSON document: every string leaf of the document under
 * its path of member names. Built once (at start, from templates/) and read-only afterwards,
 * so request threads may look strings up at once without a lock — which json-c objects do not
 * allow (their reference counts are plain integers and some getters write to the object).
 *
 * Ownership: strtab_from_json copies every key and value; the table owns them all and the
 * document stays the caller's. Pointers returned by strtab_get live as long as the table. */
#ifndef JSON_STRTAB_H
#define JSON_STRTAB_H

#include <stddef.h>

struct json_object;

typedef struct {
	char *key;  /* member names joined by STRTAB_SEP */
	char *text; /* the string */
} strtab_entry;

typedef struct {
	strtab_entry *e; /* sorted by key */
	size_t n;
} strtab;

/* Member names are joined with the ASCII unit separator, which no label key contains. */
#define STRTAB_SEP '\x1f'

/* Fills *t from the string leaves of the object doc (arrays and other types are skipped).
 * Aborts on allocation failure (base/oom.h). */
void strtab_from_json(strtab *t, struct json_object *doc);
void strtab_free(strtab *t);

/* The string at the path of n member names, or NULL. A path longer than 512 bytes is NULL. */
const char *strtab_get(const strtab *t, const char *const *path, size_t n);

#endif
