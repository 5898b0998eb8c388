/* Reading the game data files (templates.h). */
#include "base/templates.h"

#include "base/log.h"

#include <json-c/json.h>
#include <stdio.h>

struct json_object *templates_read(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	json_object *o = json_object_from_file(path);
	if (o == NULL)
		log_warn("templates: cannot read %s: %s", path, json_util_get_last_err());
	return o;
}
