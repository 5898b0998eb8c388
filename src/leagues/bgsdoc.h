/* The JSON document a BG Stats export is built in (bgsexport.c). Every member is set with
 * bd_put, which replaces a member of that name: no object the export writes repeats a name.
 * Objects passed in are borrowed unless said otherwise. */
#ifndef LEAGUES_BGSDOC_H
#define LEAGUES_BGSDOC_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

/* One array of the document (games, players or locations) and what finds its objects: by id,
 * by uuid, by name (the first of each). */
typedef struct {
	const char *key;                        /* the member of the document ("games" …) */
	json_object *arr;                       /* borrowed from the document; NULL until needed */
	json_object *by_id, *by_uuid, *by_name; /* owned: text → index in arr */
	int64_t max;                            /* the largest id (0: none) */
} bd_list;

void bd_put(json_object *o, const char *key, json_object *v);
json_object *bd_get(json_object *o, const char *key);
const char *bd_get_str(json_object *o, const char *key);
bool bd_get_id(json_object *o, const char *key, int64_t *id);
json_object *bd_get_arr(json_object *o, const char *key);
void bd_map_set(json_object *m, const char *key, int64_t v);
bool bd_map_get(json_object *m, const char *key, int64_t *v);
void bd_id_key(int64_t id, char buf[24]);
bool bd_names_match(const char *a, const char *b);
void bd_list_index(bd_list *l, json_object *o, int64_t idx);
void bd_list_open(bd_list *l, json_object *doc, const char *key);
void bd_list_close(bd_list *l);
json_object *bd_list_at(const bd_list *l, json_object *map, const char *key);
json_object *bd_list_by_id(const bd_list *l, int64_t id);
int64_t bd_list_add(bd_list *l, json_object *doc, json_object *o);

#endif
