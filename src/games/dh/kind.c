/* Dice Hospital games at the table (api.md "Dice Hospital (/api/v1/dh) and Clinic"): the "dh"
 * kind of the table engine (engine/table.h). The rules are rules/dh.c (pure); this file holds
 * the configuration and events as JSON, who may send them, and the state, standings and result
 * as JSON. Seats, tokens, storage, versions, live updates and the log are the engine's.
 *
 * Events: "round" (turn = the round, body = the PUT body) and "finish" (the POST body). The
 * configuration stored with the game carries the whole scoring profile it was created with, so
 * the game keeps its numbers whatever happens to the profile later. */
#include "games/dh/kind.h"

#include "games/rounds/profiles.h"
#include "games/rounds/json.h"
#include "base/log.h"
#include "json/jx.h"
#include "rules/dh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	bool finish;
	dh_round_input round;
	dh_finish_input fin;
} dh_ev;

/* ---- request bodies (also the stored event payloads) ---- */

static int parse_round(json_object *root, int round, dh_round_input *in, js_error *err)
{
	json_object *entries = NULL, *reports = NULL;
	const js_field f[] = {
	    {"entries", JS_ARRAY, 0, 0, DH_MAX_ENTRIES, NULL, &entries, NULL},
	    {"reports_completed", JS_ARRAY, JS_F_NULLABLE, 0, DH_REPORTS, NULL, &reports,
	     &in->has_reports},
	};
	(void)round;
	memset(in, 0, sizeof *in);
	if (js_fields(root, "", f, sizeof f / sizeof f[0], err) != 0)
		return -1;
	in->nentries = entries ? (int)json_object_array_length(entries) : 0;
	for (int i = 0; i < in->nentries; i++) {
		char at[48], dat[64];
		json_object *dis = NULL;
		snprintf(at, sizeof at, "/entries/%d", i);
		const js_field ef[] = {
		    TT_COUNT("seat", JS_F_REQUIRED, &in->e[i].seat),
		    {"discharged", JS_OBJECT, 0, 0, 0, NULL, &dis, NULL},
		    {"wards_empty", JS_BOOL, 0, 0, 0, NULL, &in->e[i].wards_empty, NULL},
		    TT_COUNT("registrar", 0, &in->e[i].registrar),
		};
		if (js_fields(json_object_array_get_idx(entries, (size_t)i), at, ef,
		              sizeof ef / sizeof ef[0], err) != 0)
			return -1;
		snprintf(dat, sizeof dat, "%s/discharged", at);
		const js_field cf[] = {
		    TT_COUNT("red", 0, &in->e[i].discharged[DH_RED]),
		    TT_COUNT("yellow", 0, &in->e[i].discharged[DH_YELLOW]),
		    TT_COUNT("green", 0, &in->e[i].discharged[DH_GREEN]),
		};
		if (dis && js_fields(dis, dat, cf, sizeof cf / sizeof cf[0], err) != 0)
			return -1;
	}
	in->nreports = reports ? (int)json_object_array_length(reports) : 0;
	for (int i = 0; i < in->nreports; i++) {
		char at[48];
		snprintf(at, sizeof at, "/reports_completed/%d", i);
		const js_field rf = {"",         JS_INT, JS_F_INT32,      1,
		                     DH_REPORTS, NULL,   &in->reports[i], NULL};
		if (js_value(json_object_array_get_idx(reports, (size_t)i), at, &rf, err) != 0)
			return -1;
	}
	return 0;
}

static int parse_finish(json_object *root, dh_finish_input *in, js_error *err)
{
	json_object *entries = NULL;
	const js_field f[] = {
	    {"entries", JS_ARRAY, JS_F_REQUIRED, 0, DH_MAX_ENTRIES, NULL, &entries, NULL},
	};
	memset(in, 0, sizeof *in);
	if (js_fields(root, "", f, 1, err) != 0)
		return -1;
	in->nentries = (int)json_object_array_length(entries);
	for (int i = 0; i < in->nentries; i++) {
		char at[48];
		snprintf(at, sizeof at, "/entries/%d", i);
		const js_field ef[] = {
		    TT_COUNT("seat", JS_F_REQUIRED, &in->e[i].seat),
		    TT_COUNT("fatalities", 0, &in->e[i].fatalities),
		    TT_COUNT("blood_bags", 0, &in->e[i].blood_bags),
		    TT_COUNT("patients_left", 0, &in->e[i].patients_left),
		    TT_COUNT("pips_left", 0, &in->e[i].pips_left),
		    TT_COUNT("collected", 0, &in->e[i].collected),
		};
		if (js_fields(json_object_array_get_idx(entries, (size_t)i), at, ef,
		              sizeof ef / sizeof ef[0], err) != 0)
			return -1;
	}
	return 0;
}

static json_object *round_body_json(const dh_round_input *in)
{
	json_object *o = jx_obj(), *a = jx_arr();
	for (int i = 0; i < in->nentries; i++) {
		json_object *e = jx_obj(), *d = jx_obj();
		jx_set(e, "seat", jx_int(in->e[i].seat));
		for (int k = 0; k < DH_COLOURS; k++)
			jx_set(d, dh_colour_id(k), jx_int(in->e[i].discharged[k]));
		jx_set(e, "discharged", d);
		jx_set(e, "wards_empty", jx_bool(in->e[i].wards_empty));
		jx_set(e, "registrar", jx_int(in->e[i].registrar));
		jx_push(a, e);
	}
	jx_set(o, "entries", a);
	if (in->has_reports) {
		json_object *r = jx_arr();
		for (int i = 0; i < in->nreports; i++)
			jx_push(r, jx_int(in->reports[i]));
		jx_set(o, "reports_completed", r);
	}
	return o;
}

static json_object *finish_body_json(const dh_finish_input *in)
{
	json_object *o = jx_obj(), *a = jx_arr();
	for (int i = 0; i < in->nentries; i++) {
		json_object *e = jx_obj();
		jx_set(e, "seat", jx_int(in->e[i].seat));
		jx_set(e, "fatalities", jx_int(in->e[i].fatalities));
		jx_set(e, "blood_bags", jx_int(in->e[i].blood_bags));
		jx_set(e, "patients_left", jx_int(in->e[i].patients_left));
		jx_set(e, "pips_left", jx_int(in->e[i].pips_left));
		jx_set(e, "collected", jx_int(in->e[i].collected));
		jx_push(a, e);
	}
	jx_set(o, "entries", a);
	return o;
}

/* ---- configuration ---- */

static json_object *config_json(const dh_config *c, json_object *profile_doc)
{
	json_object *o = jx_obj(), *v = jx_obj(), *adm = jx_arr(), *rep = jx_arr();
	jx_set(o, "nseats", jx_int(c->nseats));
	jx_set(o, "solo", jx_bool(c->solo));
	for (int i = 0; i < DH_VARIANTS; i++)
		jx_set(v, dh_variant_id(i), jx_bool(c->variant[i]));
	jx_set(o, "variants", v);
	for (int s = 0; s < c->nseats; s++)
		jx_push(adm, jx_str_or_null(dh_admin_id(c->admin[s])));
	jx_set(o, "administrators", adm);
	for (int i = 0; c->solo && i < DH_REPORTS; i++) {
		json_object *r = jx_obj();
		for (int k = 0; k < DH_COLOURS; k++)
			jx_set(r, dh_colour_id(k), jx_int(c->reports[i].need[k]));
		jx_set(r, "points", jx_int(c->reports[i].points));
		jx_push(rep, r);
	}
	jx_set(o, "reports", rep);
	jx_set(o, "profile", json_object_get(profile_doc));
	return o;
}

static int parse_reports(json_object *reports, dh_config *c, js_error *err)
{
	if (json_object_array_length(reports) != DH_REPORTS) {
		snprintf(err->field, sizeof err->field, "/reports");
		snprintf(err->detail, sizeof err->detail,
		         "the solo game deals 6 Medical Reports: 1-3 the bottom row, 4-6 the top");
		return -1;
	}
	for (int i = 0; i < DH_REPORTS; i++) {
		char at[32];
		int need[DH_COLOURS] = {0}, points = 0;
		snprintf(at, sizeof at, "/reports/%d", i);
		const js_field f[] = {
		    TT_COUNT("red", 0, &need[DH_RED]),
		    TT_COUNT("yellow", 0, &need[DH_YELLOW]),
		    TT_COUNT("green", 0, &need[DH_GREEN]),
		    TT_COUNT("points", JS_F_REQUIRED, &points),
		};
		if (js_fields(json_object_array_get_idx(reports, (size_t)i), at, f,
		              sizeof f / sizeof f[0], err) != 0)
			return -1;
		for (int k = 0; k < DH_COLOURS; k++)
			c->reports[i].need[k] = (int8_t)(need[k] < -1   ? -1
			                                 : need[k] > 99 ? 99
			                                                : need[k]);
		c->reports[i].points = (int8_t)(points < -1 ? -1 : points > 99 ? 99 : points);
	}
	return 0;
}

static int parse_variants(json_object *vars, dh_config *c, js_error *err)
{
	js_field f[DH_VARIANTS];
	for (int i = 0; i < DH_VARIANTS; i++)
		f[i] = (js_field){dh_variant_id(i), JS_BOOL, 0, 0, 0, NULL, &c->variant[i], NULL};
	return js_fields(vars, "/variants", f, DH_VARIANTS, err);
}

static int parse_players(json_object *players, table_new *n, dh_config *c, table_refusal *r)
{
	js_error err = {{0}, {0}};
	for (int i = 0; i < n->nseats; i++) {
		const char *name = NULL, *admin = NULL;
		char at[32];
		snprintf(at, sizeof at, "/players/%d", i);
		const js_field f[] = {
		    {"name", JS_STRING, JS_F_REQUIRED, 1, TABLE_NAME_MAX, NULL, &name, NULL},
		    {"administrator", JS_STRING, JS_F_NULLABLE, 1, 32, NULL, &admin, NULL},
		};
		if (js_fields(json_object_array_get_idx(players, (size_t)i), at, f, 2, &err) != 0)
			return tt_refuse_parse(r, &err);
		snprintf(n->names[i], sizeof n->names[i], "%s", name);
		c->admin[i] = DH_ADMIN_NONE;
		if (admin && (c->admin[i] = (int8_t)dh_admin_from_id(admin)) == DH_ADMIN_NONE)
			return table_refuse(r, 400, "administrator-unknown", NULL,
			                    "unknown Administrator (ids: game-data.md §2)");
	}
	return 0;
}

/* POST /api/v1/dh/games */
static int dh_create_parse(json_object *root, table_new *n, table_refusal *r)
{
	json_object *players = NULL, *vars = NULL, *reports = NULL, *doc = NULL;
	const char *profile = NULL;
	bool solo = false;
	js_error err = {{0}, {0}};
	dh_config c;
	memset(&c, 0, sizeof c);
	const js_field f[] = {
	    {"players", JS_ARRAY, JS_F_REQUIRED, 1, 16, NULL, &players, NULL},
	    {"variants", JS_OBJECT, 0, 0, 0, NULL, &vars, NULL},
	    {"solo", JS_BOOL, 0, 0, 0, NULL, &solo, NULL},
	    {"profile", JS_STRING, JS_F_NULLABLE, 1, TT_ID_LEN - 1, NULL, &profile, NULL},
	    {"league", JS_STRING, JS_F_NULLABLE, 1, TABLE_NAME_MAX, NULL, &n->league, NULL},
	    {"reports", JS_ARRAY, JS_F_NULLABLE, 0, 16, NULL, &reports, NULL},
	};
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0)
		return tt_refuse_parse(r, &err);
	n->nseats = (int)json_object_array_length(players);
	if (n->nseats > DH_MAX_SEATS)
		return table_refuse(r, 422, "too-many-players", "/players",
		                    "Dice Hospital takes at most 4 players");
	c.nseats = n->nseats;
	c.solo = solo;
	if (parse_players(players, n, &c, r) != 0)
		return -1;
	if (vars && parse_variants(vars, &c, &err) != 0)
		return tt_refuse_parse(r, &err);
	if (reports && parse_reports(reports, &c, &err) != 0)
		return tt_refuse_parse(r, &err);
	if (solo && !reports)
		return table_refuse(r, 422, "report-invalid", "/reports",
		                    "the solo game needs the 6 Medical Reports dealt");
	if (profiles_find_dh(profile, &c.profile, &doc, r) != 0)
		return -1;
	tt_error e;
	if (dh_config_check(&c, &e) != 0) {
		json_object_put(doc);
		return tt_refuse_rule(r, &e);
	}
	n->config = config_json(&c, doc);
	json_object_put(doc);
	return 0;
}

static void dh_create_reply(json_object *config, json_object *reply)
{
	json_object *v, *p, *id;
	if (json_object_object_get_ex(config, "variants", &v))
		jx_set(reply, "variants", json_object_get(v));
	if (json_object_object_get_ex(config, "solo", &v))
		jx_set(reply, "solo", json_object_get(v));
	if (json_object_object_get_ex(config, "profile", &p) &&
	    json_object_object_get_ex(p, "id", &id))
		jx_set(reply, "profile", json_object_get(id));
	jx_set(reply, "rounds", jx_int(DH_ROUNDS));
}

/* Reads a stored configuration (our own writing: a failure is a bug). */
static int dh_init(void *state, const char *config, int nseats)
{
	json_object *o = jx_parse_stored(config), *v, *a;
	dh_config c;
	char err[256];
	int rc = -1;
	if (!o)
		return -1;
	memset(&c, 0, sizeof c);
	c.nseats = nseats;
	c.solo = json_object_object_get_ex(o, "solo", &v) && json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "variants", &v))
		for (int i = 0; i < DH_VARIANTS; i++)
			c.variant[i] = json_object_object_get_ex(v, dh_variant_id(i), &a) &&
			               json_object_get_boolean(a);
	for (int s = 0; s < DH_MAX_SEATS; s++)
		c.admin[s] = DH_ADMIN_NONE;
	if (json_object_object_get_ex(o, "administrators", &v))
		for (int s = 0; s < nseats && s < (int)json_object_array_length(v); s++) {
			a = json_object_array_get_idx(v, (size_t)s);
			if (a)
				c.admin[s] = (int8_t)dh_admin_from_id(json_object_get_string(a));
		}
	if (json_object_object_get_ex(o, "reports", &v))
		for (int i = 0; i < DH_REPORTS && i < (int)json_object_array_length(v); i++) {
			a = json_object_array_get_idx(v, (size_t)i);
			json_object *x;
			for (int k = 0; k < DH_COLOURS; k++)
				if (json_object_object_get_ex(a, dh_colour_id(k), &x))
					c.reports[i].need[k] = (int8_t)json_object_get_int(x);
			if (json_object_object_get_ex(a, "points", &x))
				c.reports[i].points = (int8_t)json_object_get_int(x);
		}
	tt_error e;
	if (!json_object_object_get_ex(o, "profile", &v) ||
	    dh_profile_from_json(&c.profile, v, err, sizeof err) != 0 || dh_config_check(&c, &e))
		goto out;
	dh_game_init(state, &c);
	rc = 0;
out:
	json_object_put(o);
	return rc;
}

/* ---- events ---- */

static json_object *dh_event_encode(const table_event *tev)
{
	const dh_ev *ev = tev->body;
	return ev->finish ? finish_body_json(&ev->fin) : round_body_json(&ev->round);
}

static int dh_event_decode(table_event *tev, const char *payload)
{
	dh_ev *ev = tev->body;
	json_object *o = jx_parse_stored(payload);
	js_error err;
	int rc = -1;
	if (!o)
		return -1;
	memset(ev, 0, sizeof *ev);
	ev->finish = strcmp(tev->name, "finish") == 0;
	rc = ev->finish ? parse_finish(o, &ev->fin, &err)
	                : parse_round(o, tev->turn, &ev->round, &err);
	json_object_put(o);
	return rc;
}

/* The host writes any seat; a seat token only entries of its own seat. */
static int dh_prepare(const void *state, const table_view *v, table_event *tev, table_refusal *r)
{
	const dh_ev *ev = tev->body;
	(void)state;
	int n = ev->finish ? ev->fin.nentries : ev->round.nentries;
	int first = n > 0 ? (ev->finish ? ev->fin.e[0].seat : ev->round.e[0].seat) : 0;
	bool one = n > 0;
	for (int i = 0; i < n; i++) {
		int seat = ev->finish ? ev->fin.e[i].seat : ev->round.e[i].seat;
		if (seat != first)
			one = false;
		if (!v->host && seat != v->you)
			return table_refuse(r, 403, NULL, NULL,
			                    "a seat token writes only its own seat's entries");
	}
	if (!v->host && v->you == 0)
		return table_refuse(r, 403, NULL, NULL, "this token cannot write");
	tev->seat = one ? first : 0;
	return 0;
}

/* An identical resubmission of the finish: the game is finished with exactly these entries. */
static bool finish_repeats(const dh_game *g, const dh_finish_input *in)
{
	if (!g->finished || in->nentries != g->cfg.nseats)
		return false;
	for (int i = 0; i < in->nentries; i++) {
		int s = in->e[i].seat;
		if (s < 1 || s > g->cfg.nseats)
			return false;
		const dh_finish_entry *f = &g->finish[s - 1];
		if (f->fatalities != in->e[i].fatalities || f->blood_bags != in->e[i].blood_bags ||
		    f->patients_left != in->e[i].patients_left ||
		    f->pips_left != in->e[i].pips_left || f->collected != in->e[i].collected)
			return false;
	}
	return true;
}

/* An identical resubmission of a round: every entry and the report list already stand. */
static bool dh_repeats(const void *state, const table_event *tev)
{
	const dh_game *g = state;
	const dh_ev *ev = tev->body;
	int round = tev->turn;
	if (ev->finish)
		return finish_repeats(g, &ev->fin);
	if (round < 1 || round > DH_ROUNDS)
		return false;
	const dh_round_input *in = &ev->round;
	for (int i = 0; i < in->nentries; i++) {
		int s = in->e[i].seat;
		if (s < 1 || s > g->cfg.nseats)
			return false;
		const dh_round_entry *e = &g->rounds[round - 1][s - 1];
		if (!e->entered || e->wards_empty != in->e[i].wards_empty ||
		    e->registrar != in->e[i].registrar)
			return false;
		for (int k = 0; k < DH_COLOURS; k++)
			if (e->discharged[k] != in->e[i].discharged[k])
				return false;
	}
	if (in->has_reports) {
		if (g->nreports_done[round - 1] != in->nreports)
			return false;
		for (int i = 0; i < in->nreports; i++)
			if (g->reports_done[round - 1][i] != in->reports[i])
				return false;
	}
	return in->nentries > 0 || in->has_reports;
}

static int dh_apply(void *state, const table_event *tev, table_refusal *r)
{
	const dh_ev *ev = tev->body;
	tt_error e;
	int rc = ev->finish ? dh_finish_apply(state, &ev->fin, &e)
	                    : dh_round_apply(state, tev->turn, &ev->round, &e);
	return rc == 0 ? 0 : tt_refuse_rule(r, &e);
}

static bool dh_finished(const void *state)
{
	return ((const dh_game *)state)->finished;
}

/* ---- state ---- */

static const char *category(int rule)
{
	switch (rule) {
	case DH_R_DISCHARGE:
		return "discharge";
	case DH_R_ADMIN_2_RED:
	case DH_R_ADMIN_2_YELLOW:
	case DH_R_ADMIN_2_GREEN:
	case DH_R_ADMIN_3_COLOURS:
	case DH_R_ADMIN_MOST:
		return "administrator";
	case DH_R_WARDS_EMPTY:
		return "wards_empty";
	case DH_R_REGISTRAR:
		return "registrar";
	case DH_R_REPORT_COMPLETED:
	case DH_R_REPORT_INCOMPLETE:
		return "medical_reports";
	case DH_R_FATALITY:
		return "fatalities";
	case DH_R_BLOOD_BAG:
		return "blood_bags";
	default:
		return "final_round_collections";
	}
}

static json_object *breakdown_json(const dh_seat_score *s)
{
	static const char *const cats[] = {"discharge",  "administrator",          "wards_empty",
	                                   "registrar",  "medical_reports",        "fatalities",
	                                   "blood_bags", "final_round_collections"};
	json_object *o = jx_obj();
	for (size_t c = 0; c < sizeof cats / sizeof cats[0]; c++) {
		int sum = 0;
		for (int i = 0; i < s->nitems; i++)
			if (strcmp(category(s->items[i].rule), cats[c]) == 0)
				sum += s->items[i].points;
		jx_set(o, cats[c], jx_int(sum));
	}
	return o;
}

static json_object *reasons_json(const dh_seat_score *s, int round)
{
	json_object *a = jx_arr();
	for (int i = 0; i < s->nitems; i++)
		if (round < 0 || s->items[i].round == round)
			jx_push(a, tt_json_reason(&s->items[i], dh_rule_id(s->items[i].rule),
			                          dh_rule_profile_key(s->items[i].rule)));
	return a;
}

static json_object *score_json(const dh_seat_score *s)
{
	json_object *o = jx_obj();
	jx_set(o, "total", jx_int(s->total));
	jx_set(o, "verified", jx_bool(s->all_verified));
	jx_set(o, "breakdown", breakdown_json(s));
	jx_set(o, "end", jx_int(s->round_points[0]));
	jx_set(o, "end_reasons", reasons_json(s, 0));
	return o;
}

static json_object *rounds_json(const dh_game *g, int s, const dh_seat_score *sc)
{
	json_object *a = jx_arr();
	for (int r = 0; r < DH_ROUNDS; r++) {
		const dh_round_entry *e = &g->rounds[r][s];
		json_object *o = jx_obj();
		jx_set(o, "round", jx_int(r + 1));
		jx_set(o, "entered", jx_bool(e->entered));
		if (e->entered) {
			json_object *d = jx_obj();
			for (int k = 0; k < DH_COLOURS; k++)
				jx_set(d, dh_colour_id(k), jx_int(e->discharged[k]));
			jx_set(o, "discharged", d);
			jx_set(o, "wards_empty", jx_bool(e->wards_empty));
			jx_set(o, "registrar", jx_int(e->registrar));
		}
		jx_set(o, "points", jx_int(sc->round_points[r + 1]));
		jx_set(o, "reasons", reasons_json(sc, r + 1));
		jx_push(a, o);
	}
	return a;
}

static json_object *finish_json(const dh_finish_entry *f)
{
	if (!f->entered)
		return jx_null();
	json_object *o = jx_obj();
	jx_set(o, "fatalities", jx_int(f->fatalities));
	jx_set(o, "blood_bags", jx_int(f->blood_bags));
	jx_set(o, "patients_left", jx_int(f->patients_left));
	jx_set(o, "pips_left", jx_int(f->pips_left));
	jx_set(o, "collected", jx_int(f->collected));
	return o;
}

static json_object *profile_json(const dh_profile *p)
{
	json_object *o = jx_obj(), *v = jx_obj(), *d = jx_arr();
	jx_set(o, "id", jx_str(p->id));
	jx_set(o, "name", jx_str(p->name));
	bool all = true;
	for (int n = 1; n <= DH_SPACES; n++) {
		json_object *x = tt_json_value(&p->discharge[n]);
		jx_set(x, "patients", jx_int(n));
		jx_push(d, x);
		all = all && p->discharge[n].verified;
	}
	jx_set(v, "discharge", d);
	struct {
		const char *k;
		const tt_value *x;
	} sc[] = {{"wards_empty", &p->wards_empty},
	          {"administrator_bonus", &p->administrator_bonus},
	          {"registrar", &p->registrar},
	          {"fatality", &p->fatality},
	          {"blood_bag", &p->blood_bag},
	          {"collected", &p->collected},
	          {"patient_left", &p->patient_left},
	          {"fatality_penalty_factor", &p->fatality_penalty_factor},
	          {"report_penalty_factor", &p->report_penalty_factor}};
	for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++) {
		jx_set(v, sc[i].k, tt_json_value(sc[i].x));
		all = all && sc[i].x->verified;
	}
	jx_set(o, "values", v);
	jx_set(o, "all_verified", jx_bool(all));
	return o;
}

static json_object *standings_json(const dh_game *g, const dh_scores *sc, const table_view *v,
                                   bool with_bot)
{
	json_object *a = jx_arr();
	for (int i = 0; i < sc->nseats; i++) {
		int s = sc->order[i] - 1;
		const dh_seat_score *ss = &sc->seat[s];
		json_object *o = jx_obj();
		jx_set(o, "seat", jx_int(s + 1));
		jx_set(o, "name", jx_str(v->names[s]));
		if (with_bot)
			jx_set(o, "bot", jx_bool(false));
		jx_set(o, "rank", jx_int(ss->rank));
		jx_set(o, "total", jx_int(ss->total));
		jx_set(o, "score", jx_int(ss->total));
		jx_set(o, "breakdown", breakdown_json(ss));
		jx_set(o, "tie_break", jx_str_or_null(dh_tie_id(ss->tie)));
		jx_set(o, "verified", jx_bool(ss->all_verified));
		jx_push(a, o);
	}
	(void)g;
	return a;
}

static json_object *next_json(const dh_game *g)
{
	json_object *o = jx_obj();
	int done = dh_rounds_complete(g);
	if (g->finished) {
		jx_set(o, "action", jx_str("finished"));
	} else if (done < DH_ROUNDS) {
		json_object *seats = jx_arr();
		for (int s = 0; s < g->cfg.nseats; s++)
			if (!g->rounds[done][s].entered)
				jx_push(seats, jx_int(s + 1));
		jx_set(o, "action", jx_str("round"));
		jx_set(o, "round", jx_int(done + 1));
		jx_set(o, "seats", seats);
	} else {
		jx_set(o, "action", jx_str("finish"));
	}
	return o;
}

static json_object *reports_json(const dh_game *g, const dh_scores *sc)
{
	json_object *a = jx_arr();
	for (int i = 0; g->cfg.solo && i < DH_REPORTS; i++) {
		json_object *o = jx_obj();
		jx_set(o, "card", jx_int(i + 1));
		jx_set(o, "row", jx_str(i < 3 ? "bottom" : "top"));
		for (int k = 0; k < DH_COLOURS; k++)
			jx_set(o, dh_colour_id(k), jx_int(g->cfg.reports[i].need[k]));
		jx_set(o, "points", jx_int(g->cfg.reports[i].points));
		jx_set(o, "completed_round",
		       sc->report_round[i] ? jx_int(sc->report_round[i]) : jx_null());
		jx_push(a, o);
	}
	return a;
}

static void dh_state_json(const void *state, const table_view *v, json_object *o)
{
	const dh_game *g = state;
	dh_scores sc;
	dh_score(g, &sc);
	json_object *vars = jx_obj(), *seats = jx_arr();
	for (int i = 0; i < DH_VARIANTS; i++)
		jx_set(vars, dh_variant_id(i), jx_bool(g->cfg.variant[i]));
	jx_set(o, "solo", jx_bool(g->cfg.solo));
	jx_set(o, "variants", vars);
	jx_set(o, "rounds", jx_int(DH_ROUNDS));
	jx_set(o, "rounds_complete", jx_int(dh_rounds_complete(g)));
	jx_set(o, "profile", profile_json(&g->cfg.profile));
	jx_set(o, "next", next_json(g));
	if (g->cfg.solo)
		jx_set(o, "reports", reports_json(g, &sc));
	for (int s = 0; s < g->cfg.nseats; s++) {
		json_object *so = jx_obj();
		jx_set(so, "seat", jx_int(s + 1));
		jx_set(so, "name", jx_str(v->names[s]));
		jx_set(so, "administrator", jx_str_or_null(dh_admin_id(g->cfg.admin[s])));
		jx_set(so, "rounds", rounds_json(g, s, &sc.seat[s]));
		jx_set(so, "finish", finish_json(&g->finish[s]));
		jx_set(so, "score", score_json(&sc.seat[s]));
		jx_set(so, "rank", jx_int(sc.seat[s].rank));
		jx_set(so, "tie_break", jx_str_or_null(dh_tie_id(sc.seat[s].tie)));
		jx_push(seats, so);
	}
	jx_set(o, "seats", seats);
	jx_set(o, "standings", standings_json(g, &sc, v, false));
}

static json_object *dh_result_json(const void *state, const table_view *v)
{
	const dh_game *g = state;
	dh_scores sc;
	dh_score(g, &sc);
	json_object *o = jx_obj();
	jx_set(o, "standings", standings_json(g, &sc, v, true));
	jx_set(o, "solo", jx_bool(g->cfg.solo));
	jx_set(o, "profile", jx_str(g->cfg.profile.id));
	return o;
}

/* The log, event by event: after each accepted round or finish, every seat's running total
 * (the score sheet of the table, as the board's score track would show it). */
static void dh_log_step(const void *state, const table_event *tev, const table_view *v,
                        json_object *log)
{
	dh_scores sc;
	int totals[TABLE_MAX_SEATS];
	(void)v;
	dh_score(state, &sc);
	for (int s = 0; s < sc.nseats && s < TABLE_MAX_SEATS; s++)
		totals[s] = sc.seat[s].total;
	tt_json_log_totals(log, tev, totals,
	                   sc.nseats < TABLE_MAX_SEATS ? sc.nseats : TABLE_MAX_SEATS);
}

const table_kind dh_table_kind = {
    .name = "dh",
    .max_seats = DH_MAX_SEATS,
    .state_size = sizeof(dh_game),
    .event_size = sizeof(dh_ev),
    .create_parse = dh_create_parse,
    .create_reply = dh_create_reply,
    .init = dh_init,
    .event_decode = dh_event_decode,
    .event_encode = dh_event_encode,
    .prepare = dh_prepare,
    .repeats = dh_repeats,
    .apply = dh_apply,
    .finished = dh_finished,
    .state_json = dh_state_json,
    .result_json = dh_result_json,
    .log_step = dh_log_step,
};

/* ---- handlers ---- */

static int reply_parse_error(http_resp *resp, const js_error *err)
{
	return http_reply_invalid(resp, err->field, err->detail);
}

/* PUT /api/v1/dh/games/{id}/rounds/{n} */
int api_dh_round(const http_req *req, http_resp *resp)
{
	dh_ev ev;
	json_object *root = NULL;
	js_error err = {{0}, {0}};
	int round = tt_path_round(req->params[1]);
	memset(&ev, 0, sizeof ev);
	if (round < 1 || round > DH_ROUNDS)
		return http_reply_problem(resp, 400, "Dice Hospital has rounds 1 to 8",
		                          "round-out-of-range", "/round");
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (parse_round(root, round, &ev.round, &err) != 0)
		reply_parse_error(resp, &err);
	else {
		table_event tev = {.name = "round", .seat = 0, .turn = round, .body = &ev};
		table_mutate(req, resp, &dh_table_kind, &tev);
	}
	json_object_put(root);
	return 0;
}

/* POST /api/v1/dh/games/{id}/finish */
int api_dh_finish(const http_req *req, http_resp *resp)
{
	dh_ev ev;
	json_object *root = NULL;
	js_error err = {{0}, {0}};
	memset(&ev, 0, sizeof ev);
	ev.finish = true;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (parse_finish(root, &ev.fin, &err) != 0)
		reply_parse_error(resp, &err);
	else {
		table_event tev = {.name = "finish", .seat = 0, .turn = 0, .body = &ev};
		table_mutate(req, resp, &dh_table_kind, &tev);
	}
	json_object_put(root);
	return 0;
}

/* ---- score pads (issue 9): one seat's entry through the stored events' encoder ---- */

/* The first entry of body without its "seat" (body is released; the caller owns the result). */
static json_object *lone_entry(json_object *body)
{
	json_object *entries = NULL;
	json_object_object_get_ex(body, "entries", &entries);
	json_object *e = json_object_get(json_object_array_get_idx(entries, 0));
	json_object_object_del(e, "seat");
	json_object_put(body);
	return e;
}

json_object *dh_pad_round_entry(const dh_game *g, int round, int seat)
{
	dh_round_input in = {.nentries = 1};
	in.e[0].seat = seat;
	if (g && round >= 1 && round <= DH_ROUNDS && seat >= 1 && seat <= DH_MAX_SEATS) {
		const dh_round_entry *r = &g->rounds[round - 1][seat - 1];
		for (int k = 0; k < DH_COLOURS; k++)
			in.e[0].discharged[k] = r->discharged[k];
		in.e[0].wards_empty = r->wards_empty;
		in.e[0].registrar = r->registrar;
	}
	return lone_entry(round_body_json(&in));
}

json_object *dh_pad_finish_entry(const dh_game *g, int seat)
{
	dh_finish_input in = {.nentries = 1};
	in.e[0].seat = seat;
	if (g && seat >= 1 && seat <= DH_MAX_SEATS) {
		const dh_finish_entry *f = &g->finish[seat - 1];
		in.e[0].fatalities = f->fatalities;
		in.e[0].blood_bags = f->blood_bags;
		in.e[0].patients_left = f->patients_left;
		in.e[0].pips_left = f->pips_left;
		in.e[0].collected = f->collected;
	}
	return lone_entry(finish_body_json(&in));
}
