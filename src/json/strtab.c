/* Frozen string tables (strtab.h). */
#include "json/strtab.h"

#include "base/oom.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

enum { KEY_MAX = 512 };

/* Appends name to key (of length len) with a separator; returns the new length, or 0 when it
 * does not fit (KEY_MAX). */
static size_t key_push(char *key, size_t len, const char *name)
{
	size_t nl = strlen(name), sep = len > 0;
	if (len + sep + nl + 1 > KEY_MAX)
		return 0;
	if (sep)
		key[len] = STRTAB_SEP;
	memcpy(key + len + sep, name, nl + 1);
	return len + sep + nl;
}

static void collect(strtab *t, size_t *cap, json_object *o, char *key, size_t len)
{
	json_object_object_foreach(o, name, v)
	{
		size_t l = key_push(key, len, name);
		if (l == 0)
			continue;
		if (json_object_is_type(v, json_type_object)) {
			collect(t, cap, v, key, l);
		} else if (json_object_is_type(v, json_type_string)) {
			if (t->n == *cap) {
				*cap = *cap ? 2 * *cap : 64;
				t->e = xrealloc(t->e, *cap * sizeof *t->e);
			}
			t->e[t->n].key = xstrdup(key);
			t->e[t->n].text = xstrdup(json_object_get_string(v));
			t->n++;
		}
		key[len] = '\0';
	}
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const strtab_entry *)a)->key, ((const strtab_entry *)b)->key);
}

void strtab_from_json(strtab *t, json_object *doc)
{
	char key[KEY_MAX] = "";
	size_t cap = 0;
	t->e = NULL;
	t->n = 0;
	if (json_object_is_type(doc, json_type_object))
		collect(t, &cap, doc, key, 0);
	if (t->n > 1)
		qsort(t->e, t->n, sizeof *t->e, entry_cmp);
}

void strtab_free(strtab *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->e[i].key);
		free(t->e[i].text);
	}
	free(t->e);
	t->e = NULL;
	t->n = 0;
}

const char *strtab_get(const strtab *t, const char *const *path, size_t n)
{
	char key[KEY_MAX] = "";
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		if (path[i] == NULL)
			return NULL;
		len = key_push(key, len, path[i]);
		if (len == 0 && (i > 0 || path[i][0] != '\0'))
			return NULL;
	}
	strtab_entry probe = {key, NULL};
	const strtab_entry *e = t->n ? bsearch(&probe, t->e, t->n, sizeof *t->e, entry_cmp) : NULL;
	return e ? e->text : NULL;
}
