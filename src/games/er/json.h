/* JSON ↔ ER rules structs (api.md "The sheet", "A move", stateless endpoints).
 *
 * Parsers borrow the json_object they read and fill caller-owned structs. They return 0, or
 * -1 for malformed input (400: err names the field) or -2 for well-formed input that breaks a
 * rule (422: *rule is set to a static rule id, err->detail explains). Builders return a new
 * json_object the caller owns. */
#ifndef ER_JSON_H
#define ER_JSON_H

#include "json/spec.h"
#include "rules/er.h"

struct json_object;
struct jw;

int er_json_sheet_parse(const er_data *d, struct json_object *obj, const char *at, bool alicat,
                        unsigned modifiers, er_sheet *out, const char **rule, js_error *err);
struct json_object *er_json_sheet(const er_data *d, const er_sheet *s);

int er_json_turn_parse(struct json_object *obj, const char *at, er_turn *out, js_error *err);

int er_json_move_parse(struct json_object *obj, const char *at, er_move *out, js_error *err);
struct json_object *er_json_move(const er_move *m);

/* "alicat_modifiers": ["preparation", …] → bit set */
int er_json_modifiers_parse(struct json_object *arr, const char *at, unsigned *out, js_error *err);
struct json_object *er_json_modifiers(unsigned mods);

struct json_object *er_json_breakdown(const er_breakdown *b);
/* The /er/score reply as text, written without building JSON objects (the hot path of the
 * stateless endpoint): {"total", "breakdown": er_json_breakdown(b), "details": the beds of each
 * of det's masks as [{"ward","bed"},…] (1-based, bed order) and "nurse_space" (1-based or
 * null)} — tests/unit/test_api_score_text.c compares it with the same document built of
 * json-c objects. Returns a malloc'ed string (caller frees) and its length. */
char *er_json_score_text(const er_data *d, const er_breakdown *b, const er_details *det,
                         size_t *len);
struct json_object *er_json_option(const er_option *o);

/* The same documents as er_json_sheet, er_json_breakdown and er_json_modifiers, written as
 * text into w (json/jw.h) as a value: byte for byte what json-c writes for the objects
 * (tests/unit/test_api_state_text.c). */
void er_json_sheet_text(struct jw *w, const er_sheet *s);
void er_json_breakdown_text(struct jw *w, const er_breakdown *b);
void er_json_modifiers_text(struct jw *w, unsigned mods);

/* Specialist id string → enum of the wanted kind, else a 400 error. Null or absent: ER_SPEC_NONE
 * when nullable (none chosen), else the same error. */
int er_json_specialist(const er_data *d, struct json_object *v, const char *at, er_spec_kind kind,
                       bool nullable, er_spec_id *out, js_error *err);

#endif
