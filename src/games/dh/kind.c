/* Dice Hospital games at the table (api.md "Dice Hospital (/api/v1/dh) and Clinic"): the "dh"
 * kind of the table engine (engine/table.h). The rules are rules/dh.c (pure); this file holds
 * the configuration and events as JSON, who may send them, and the state, standings and result
 * as JSON. Seats, tokens, storage, versions, live updates and the log are the engine's.
 *
 * Events: "round" (turn = the round, body = the PUT body) and "finish" (the POST body), run by
 * games/rounds/kind.c through dh_round_kind: this file gives it Dice Hospital's fields and
 * rules. The configuration stored with the game carries the whole scoring profile it was
 * created with, so the game keeps its numbers whatever happens to the profile later. */
#include "games/dh/kind.h"

#include "games/rounds/json.h"
#include "games/rounds/profiles.h"
#include "base/oom.h"
#include "json/jx.h"
#include "rules/dh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(dh_round_input) <= ROUND_INPUT_BYTES &&
                   sizeof(dh_finish_input) <= ROUND_INPUT_BYTES,
               "a Dice Hospital input fits round_ev");

/* ---- request bodies (also the stored event payloads) ---- */

static int parse_round(json_object *root, void *input, js_error *err)
{
	dh_round_input *in = input;
	json_object *entries = NULL, *reports = NULL;
	const js_field f[] = {
	    {"entries", JS_ARRAY, 0, 0, DH_MAX_ENTRIES, NULL, &entries, NULL},
	    {"reports_completed", JS_ARRAY, JS_F_NULLABLE, 0, DH_REPORTS, NULL, &reports,
	     &in->has_reports},
	};
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

static int parse_finish(json_object *root, void *input, js_error *err)
{
	dh_finish_input *in = input;
	json_object *entries = NULL;
	const js_field f[] = {
	    {"entries", JS_ARRAY, JS_F_REQUIRED, 0, DH_MAX_ENTRIES, NULL, &entries, NULL},
	    {"ended_after", JS_INT, JS_F_INT32, 1, DH_ROUNDS, NULL, &in->ended_after, NULL},
	};
	memset(in, 0, sizeof *in);
	if (js_fields(root, "", f, 2, err) != 0)
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

static json_object *round_body_json(const void *input)
{
	const dh_round_input *in = input;
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

static json_object *finish_body_json(const void *input)
{
	const dh_finish_input *in = input;
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
	if (in->ended_after)
		jx_set(o, "ended_after", jx_int(in->ended_after));
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
	json_object *o = json_tokener_parse(config), *v, *a;
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

/* ---- the game as games/rounds sees it ---- */

static void round_entry(const void *state, int round, int seat, void *input)
{
	const dh_game *g = state;
	dh_round_input *in = input;
	in->nentries = 1;
	in->e[0].seat = seat;
	if (g && round >= 1 && round <= DH_ROUNDS && seat >= 1 && seat <= DH_MAX_SEATS) {
		const dh_round_entry *r = &g->rounds[round - 1][seat - 1];
		for (int k = 0; k < DH_COLOURS; k++)
			in->e[0].discharged[k] = r->discharged[k];
		in->e[0].wards_empty = r->wards_empty;
		in->e[0].registrar = r->registrar;
	}
}

static void finish_entry(const void *state, int seat, void *input)
{
	const dh_game *g = state;
	dh_finish_input *in = input;
	in->nentries = 1;
	in->e[0].seat = seat;
	if (g && seat >= 1 && seat <= DH_MAX_SEATS) {
		const dh_finish_entry *f = &g->finish[seat - 1];
		in->e[0].fatalities = f->fatalities;
		in->e[0].blood_bags = f->blood_bags;
		in->e[0].patients_left = f->patients_left;
		in->e[0].pips_left = f->pips_left;
		in->e[0].collected = f->collected;
	}
}

/* The solo Medical Reports completed in the round. */
static int reports_stand(const void *state, int round, const void *input)
{
	const dh_game *g = state;
	const dh_round_input *in = input;
	if (!in->has_reports)
		return -1;
	if (g->nreports_done[round - 1] != in->nreports)
		return 0;
	for (int i = 0; i < in->nreports; i++)
		if (g->reports_done[round - 1][i] != in->reports[i])
			return 0;
	return 1;
}

static int apply_round(void *state, int round, const void *in, tt_error *e)
{
	return dh_round_apply(state, round, in, e);
}

static int apply_finish(void *state, const void *in, tt_error *e)
{
	return dh_finish_apply(state, in, e);
}

static int nseats(const void *state)
{
	return ((const dh_game *)state)->cfg.nseats;
}

static int rounds_played(const void *state)
{
	return ((const dh_game *)state)->rounds_played;
}

static bool finished(const void *state)
{
	return ((const dh_game *)state)->finished;
}

static bool round_entered(const void *state, int round, int seat)
{
	return ((const dh_game *)state)->rounds[round - 1][seat - 1].entered;
}

static bool finish_entered(const void *state, int seat)
{
	return ((const dh_game *)state)->finish[seat - 1].entered;
}

static int rounds_complete(const void *state)
{
	return dh_rounds_complete(state);
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

static const char *const categories[] = {"discharge",  "administrator",           "wards_empty",
                                         "registrar",  "medical_reports",         "fatalities",
                                         "blood_bags", "final_round_collections", NULL};

/* The scores as games/rounds shows them. */
static void scores_of(const dh_game *g, const dh_scores *sc, round_scores *out)
{
	out->nseats = sc->nseats;
	out->finished = sc->finished;
	out->solo = g->cfg.solo;
	out->profile_id = g->cfg.profile.id;
	out->profile_name = g->cfg.profile.name;
	for (int i = 0; i < sc->nseats; i++) {
		const dh_seat_score *ss = &sc->seat[i];
		round_seat_score *o = &out->seat[i];
		out->order[i] = sc->order[i];
		o->total = ss->total;
		o->rank = ss->rank;
		o->verified = ss->all_verified;
		o->tie = dh_tie_id(ss->tie);
		memcpy(o->round_points, ss->round_points, sizeof ss->round_points);
		o->nitems = ss->nitems;
		memcpy(o->items, ss->items, sizeof ss->items[0] * (size_t)ss->nitems);
	}
}

static void score(const void *state, round_scores *out)
{
	dh_scores *sc = xmalloc(sizeof *sc);
	dh_score(state, sc);
	scores_of(state, sc, out);
	free(sc);
}

static json_object *profile_json(const dh_profile *p)
{
	json_object *o = jx_obj(), *v = jx_obj(), *d = jx_arr();
	jx_set(o, "id", jx_str(p->id));
	jx_set(o, "name", jx_str(p->name));
	if (p->checked_at[0])
		jx_set(o, "checked_at", jx_str(p->checked_at));
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
	dh_scores *sc = xmalloc(sizeof *sc);
	round_scores *rs = xcalloc(1, sizeof *rs);
	dh_score(g, sc);
	scores_of(g, sc, rs);
	json_object *vars = jx_obj(), *seats = jx_arr();
	for (int i = 0; i < DH_VARIANTS; i++)
		jx_set(vars, dh_variant_id(i), jx_bool(g->cfg.variant[i]));
	jx_set(o, "solo", jx_bool(g->cfg.solo));
	jx_set(o, "variants", vars);
	jx_set(o, "rounds", jx_int(DH_ROUNDS));
	jx_set(o, "rounds_complete", jx_int(dh_rounds_complete(g)));
	jx_set(o, "profile", profile_json(&g->cfg.profile));
	jx_set(o, "next", round_next_json(&dh_round_kind, g));
	round_end_json(&dh_round_kind, g, o);
	if (g->cfg.solo)
		jx_set(o, "reports", reports_json(g, sc));
	for (int s = 0; s < g->cfg.nseats; s++) {
		const round_seat_score *ss = &rs->seat[s];
		json_object *so = jx_obj(), *sco = round_score_json(&dh_round_kind, ss);
		round_score_end(&dh_round_kind, ss, sco);
		jx_set(so, "seat", jx_int(s + 1));
		jx_set(so, "name", jx_str(v->names[s]));
		jx_set(so, "administrator", jx_str_or_null(dh_admin_id(g->cfg.admin[s])));
		jx_set(so, "rounds", round_rounds_json(&dh_round_kind, g, s + 1, ss));
		jx_set(so, "finish", round_finish_json(&dh_round_kind, g, s + 1));
		jx_set(so, "score", sco);
		jx_set(so, "rank", jx_int(ss->rank));
		jx_set(so, "tie_break", jx_str_or_null(ss->tie));
		jx_push(seats, so);
	}
	jx_set(o, "seats", seats);
	jx_set(o, "standings", round_standings_json(&dh_round_kind, rs, v, false));
	free(rs);
	free(sc);
}

static json_object *dh_result_json(const void *state, const table_view *v)
{
	return round_result_json(&dh_round_kind, state, v);
}

static int dh_event_decode(table_event *tev, const char *payload)
{
	return round_event_decode(&dh_round_kind, tev, payload);
}

const table_kind dh_table_kind = {
    .name = "dh",
    .max_seats = DH_MAX_SEATS,
    .state_size = sizeof(dh_game),
    .event_size = sizeof(round_ev),
    .create_parse = dh_create_parse,
    .create_reply = dh_create_reply,
    .init = dh_init,
    .event_decode = dh_event_decode,
    .event_encode = round_event_encode,
    .prepare = round_prepare,
    .repeats = round_repeats,
    .apply = round_apply,
    .finished = finished,
    .state_json = dh_state_json,
    .result_json = dh_result_json,
    .log_step = round_log_step,
};

const round_kind dh_round_kind = {
    .table = &dh_table_kind,
    .title = "Dice Hospital",
    .rounds = DH_ROUNDS,
    .round_parse = parse_round,
    .finish_parse = parse_finish,
    .round_encode = round_body_json,
    .finish_encode = finish_body_json,
    .round_entry = round_entry,
    .finish_entry = finish_entry,
    .round_table_stands = reports_stand,
    .round_apply = apply_round,
    .finish_apply = apply_finish,
    .nseats = nseats,
    .finished = finished,
    .round_entered = round_entered,
    .rounds_played = rounds_played,
    .finish_entered = finish_entered,
    .rounds_complete = rounds_complete,
    .score = score,
    .rule_id = dh_rule_id,
    .rule_profile_key = dh_rule_profile_key,
    .category = category,
    .categories = categories,
};

/* ---- handlers ---- */

/* PUT /api/v1/dh/games/{id}/rounds/{n} */
int api_dh_round(const http_req *req, http_resp *resp)
{
	return round_api_round(req, resp, &dh_round_kind);
}

/* POST /api/v1/dh/games/{id}/finish */
int api_dh_finish(const http_req *req, http_resp *resp)
{
	return round_api_finish(req, resp, &dh_round_kind);
}
