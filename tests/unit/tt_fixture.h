/* Shared helpers for the Dice Hospital and Clinic unit tests: load the shipped scoring profiles
 * from templates/ ($TEMPLATES_ROOT, default "templates"). Tests may do I/O; the rules may not. */
#ifndef TT_FIXTURE_H
#define TT_FIXTURE_H

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#define TT_FIXTURE_UNUSED __attribute__((unused))

/* Reads templates/<rel> (caller owns the result), or prints why and returns NULL. */
TT_FIXTURE_UNUSED static json_object *tt_fixture_doc(const char *rel)
{
	const char *root = getenv("TEMPLATES_ROOT");
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", root && *root ? root : "templates", rel);
	json_object *doc = json_object_from_file(path);
	if (!doc)
		printf("  tt_fixture_doc: cannot read %s\n", path);
	return doc;
}

#endif
