/* The game data files under templates/ (the single source the rules, the PDFs and the front end
 * read), as the modules load them at start. */
#ifndef API_TEMPLATES_H
#define API_TEMPLATES_H

struct json_object;

/* Reads dir/name (name may hold a subdirectory: "er/sheet.json") as JSON: a new object (caller
 * puts), or NULL after a warning naming the file and why. */
struct json_object *templates_read(const char *dir, const char *name);

#endif
