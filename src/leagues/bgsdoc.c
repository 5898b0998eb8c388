/* The JSON document a BG Stats export is built in (bgsdoc.h): members set without ever
 * repeating a name, json-c objects used as hash tables, the document's arrays of objects found
 * by id, uuid and name. */
#include "leagues/bgsdoc.h"

#include "base/names.h"
#include "json/jx.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Sets o[key] = v (stealing v), replacing a member of that name. */
void bd_put(json_object *o, const char *key, json_object *v)
{
	if (json_object_object_add(o, key, v) != 0)
		oom_abort();
}

json_object *bd_get(json_object *o, const char *key)
{
	json_object *v = NULL;
	return json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v)
	           ? v
	           : NULL;
}

const char *bd_get_str(json_object *o, const char *key)
{
	json_object *v = bd_get(o, key);
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

bool bd_get_id(json_object *o, const char *key, int64_t *id)
{
	json_object *v = bd_get(o, key);
	if (!json_object_is_type(v, json_type_int))
		return false;
	*id = json_object_get_int64(v);
	return true;
}

json_object *bd_get_arr(json_object *o, const char *key)
{
	json_object *v = bd_get(o, key);
	return json_object_is_type(v, json_type_array) ? v : NULL;
}

/* A hash table from text to an integer, on json-c's object (keys copied). */
void bd_map_set(json_object *m, const char *key, int64_t v)
{
	bd_put(m, key, jx_int(v));
}

bool bd_map_get(json_object *m, const char *key, int64_t *v)
{
	json_object *x;
	if (!key || !json_object_object_get_ex(m, key, &x))
		return false;
	*v = json_object_get_int64(x);
	return true;
}

void bd_id_key(int64_t id, char buf[24])
{
	snprintf(buf, 24, "%" PRId64, id);
}

/* Names as members are matched: by the keys they are stored with (base/names.h). */
bool bd_names_match(const char *a, const char *b)
{
	if (!a || !b)
		return false;
	char *da, *ka, *db, *kb;
	name_forms(a, &da, &ka);
	name_forms(b, &db, &kb);
	bool same = strcmp(ka, kb) == 0;
	free(da);
	free(ka);
	free(db);
	free(kb);
	return same;
}

/* ---- the document's objects: games, players, locations ---- */

void bd_list_index(bd_list *l, json_object *o, int64_t idx)
{
	int64_t id, had;
	char k[24];
	if (bd_get_id(o, "id", &id)) {
		bd_id_key(id, k);
		if (!bd_map_get(l->by_id, k, &had))
			bd_map_set(l->by_id, k, idx);
		if (id > l->max)
			l->max = id;
	}
	const char *u = bd_get_str(o, "uuid"), *n = bd_get_str(o, "name");
	if (u && !bd_map_get(l->by_uuid, u, &had))
		bd_map_set(l->by_uuid, u, idx);
	if (n && !bd_map_get(l->by_name, n, &had))
		bd_map_set(l->by_name, n, idx);
}

void bd_list_open(bd_list *l, json_object *doc, const char *key)
{
	l->key = key;
	l->arr = bd_get_arr(doc, key);
	l->by_id = jx_obj();
	l->by_uuid = jx_obj();
	l->by_name = jx_obj();
	for (size_t i = 0; l->arr && i < json_object_array_length(l->arr); i++)
		bd_list_index(l, json_object_array_get_idx(l->arr, i), (int64_t)i);
}

void bd_list_close(bd_list *l)
{
	json_object_put(l->by_id);
	json_object_put(l->by_uuid);
	json_object_put(l->by_name);
}

json_object *bd_list_at(const bd_list *l, json_object *map, const char *key)
{
	int64_t i;
	return bd_map_get(map, key, &i) ? json_object_array_get_idx(l->arr, (size_t)i) : NULL;
}

json_object *bd_list_by_id(const bd_list *l, int64_t id)
{
	char k[24];
	bd_id_key(id, k);
	return bd_list_at(l, l->by_id, k);
}

/* Appends o (stolen) to the document's array, with its own id when no object has it, else the
 * next after the largest; returns the id it got. */
int64_t bd_list_add(bd_list *l, json_object *doc, json_object *o)
{
	int64_t id;
	if (!bd_get_id(o, "id", &id) || id <= 0 || bd_list_by_id(l, id))
		id = l->max + 1;
	bd_put(o, "id", jx_int(id));
	if (!l->arr) {
		l->arr = jx_arr();
		bd_put(doc, l->key, l->arr);
	}
	jx_push(l->arr, o);
	bd_list_index(l, o, (int64_t)json_object_array_length(l->arr) - 1);
	return id;
}
