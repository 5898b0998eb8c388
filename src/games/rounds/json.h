/* JSON helpers shared by the Dice Hospital and Clinic kinds (games/dh/kind.c, games/clinic/kind.c):
 * a reason for points, a profile value, the seat and round path parameters, and the parse error of
 * a request as a refusal. Every builder returns a new object (caller owns). */
#ifndef API_TABLETOP_JSON_H
#define API_TABLETOP_JSON_H

#include "engine/table.h"
#include "json/spec.h"
#include "rules/tabletop.h"

struct json_object;

/* {"round", "rule", "profile_value", "count", "points", "verified"} (round 0 → "end"). */
struct json_object *tt_json_reason(const tt_item *it, const char *rule, const char *key);
/* {"value", "verified"} */
struct json_object *tt_json_value(const tt_value *v);
/* A js_* parse error as a 400 refusal naming the field. */
int tt_refuse_parse(table_refusal *r, const js_error *err);
/* A rules refusal (tt_error) as a table refusal. */
int tt_refuse_rule(table_refusal *r, const tt_error *e);
/* Reads an integer field that the rules bound themselves: any int in [-1000, 1000]. */
#define TT_COUNT(name, flags, out)                                                                 \
	{                                                                                          \
		name, JS_INT, (flags) | JS_F_INT32, -1000, 1000, NULL, out, NULL                   \
	}
/* The log step of both kinds: appends {"event", "round", "totals": [every seat's running total]}
 * to the log's "totals" array (created on the first call). */
void tt_json_log_totals(struct json_object *log, const table_event *tev, const int *totals,
                        int nseats);
/* The path parameter {n} of …/rounds/{n}: an integer, else -1 (the rules refuse it). */
int tt_path_round(const char *s);

#endif
