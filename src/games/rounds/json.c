/* JSON helpers shared by the Dice Hospital and Clinic kinds (see json.h). */
#include "games/rounds/json.h"

#include "json/jx.h"

#include <stdlib.h>

json_object *tt_json_reason(const tt_item *it, const char *rule, const char *key)
{
	json_object *o = jx_obj();
	jx_set(o, "round", it->round ? jx_int(it->round) : jx_str("end"));
	jx_set(o, "rule", jx_str(rule));
	jx_set(o, "profile_value", jx_str_or_null(key));
	jx_set(o, "count", jx_int(it->count));
	jx_set(o, "points", jx_int(it->points));
	jx_set(o, "verified", jx_bool(it->verified));
	return o;
}

json_object *tt_json_value(const tt_value *v)
{
	json_object *o = jx_obj();
	jx_set(o, "value", jx_int(v->value));
	jx_set(o, "verified", jx_bool(v->verified));
	return o;
}

int tt_refuse_parse(table_refusal *r, const js_error *err)
{
	return table_refuse(r, 400, NULL, err->field, "%s", err->detail);
}

int tt_refuse_rule(table_refusal *r, const tt_error *e)
{
	return table_refuse(r, e->status, e->rule, e->field, "%s", e->detail);
}

int tt_path_round(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < -1000 || v > 1000)
		return -1;
	return (int)v;
}

void tt_json_log_totals(json_object *log, const table_event *tev, const int *totals, int nseats)
{
	json_object *steps;
	if (!json_object_object_get_ex(log, "totals", &steps)) {
		steps = jx_arr();
		jx_set(log, "totals", steps);
	}
	json_object *o = jx_obj(), *t = jx_arr();
	jx_set(o, "event", jx_str(tev->name));
	jx_set(o, "round", tev->turn ? jx_int(tev->turn) : jx_null());
	for (int s = 0; s < nseats; s++)
		jx_push(t, jx_int(totals[s]));
	jx_set(o, "totals", t);
	jx_push(steps, o);
}
