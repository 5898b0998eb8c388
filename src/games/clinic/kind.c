/* Clinic games at the table (api.md "Dice Hospital (/api/v1/dh) and Clinic"): the "clinic" kind
 * of the table engine (engine/table.h), and the Business helper. The rules are rules/clinic.c
 * (pure); this file holds the configuration and events as JSON, who may send them, and the
 * state, turn orders, standings and result as JSON.
 *
 * Events: "round" (turn = the round, body = the PUT body) and "finish" (the POST body), run by
 * games/rounds/kind.c through clinic_round_kind: this file gives it Clinic's fields and rules.
 * The stored configuration carries the whole scoring profile the game was created with. */
#include "games/clinic/kind.h"

#include "base/oom.h"
#include "games/rounds/json.h"
#include "games/rounds/profiles.h"
#include "json/jx.h"
#include "rules/clinic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(clinic_round_input) <= ROUND_INPUT_BYTES &&
                   sizeof(clinic_finish_input) <= ROUND_INPUT_BYTES,
               "a Clinic input fits round_ev");

static const char *const patient_names[CL_PATIENTS] = {"white", "yellow", "orange", "red"};

/* ---- request bodies (also the stored event payloads) ---- */

static int parse_seat_list(json_object *a, const char *at, int *out, int *n, js_error *err)
{
	*n = (int)json_object_array_length(a);
	for (int i = 0; i < *n; i++) {
		char p[48];
		snprintf(p, sizeof p, "%s/%d", at, i);
		const js_field f = TT_COUNT("", 0, &out[i]);
		if (js_value(json_object_array_get_idx(a, (size_t)i), p, &f, err) != 0)
			return -1;
	}
	return 0;
}

static int parse_round(json_object *root, void *input, js_error *err)
{
	clinic_round_input *in = input;
	json_object *entries = NULL, *order = NULL;
	const js_field f[] = {
	    {"entries", JS_ARRAY, 0, 0, CL_MAX_ENTRIES, NULL, &entries, NULL},
	    {"turn_order", JS_ARRAY, JS_F_NULLABLE, 0, CL_MAX_ENTRIES, NULL, &order,
	     &in->has_order},
	};
	memset(in, 0, sizeof *in);
	if (js_fields(root, "", f, sizeof f / sizeof f[0], err) != 0)
		return -1;
	in->nentries = entries ? (int)json_object_array_length(entries) : 0;
	for (int i = 0; i < in->nentries; i++) {
		char at[48];
		snprintf(at, sizeof at, "/entries/%d", i);
		const js_field ef[] = {
		    TT_COUNT("seat", JS_F_REQUIRED, &in->e[i].seat),
		    TT_COUNT("popularity_bought", 0, &in->e[i].bought),
		    TT_COUNT("lab_doctors", 0, &in->e[i].lab_doctors),
		    TT_COUNT("deaths", 0, &in->e[i].deaths),
		    TT_COUNT("unpaid_expenses", 0, &in->e[i].unpaid),
		    TT_COUNT("time_spent", 0, &in->e[i].time_spent),
		};
		if (js_fields(json_object_array_get_idx(entries, (size_t)i), at, ef,
		              sizeof ef / sizeof ef[0], err) != 0)
			return -1;
	}
	if (order && parse_seat_list(order, "/turn_order", in->order, &in->norder, err) != 0)
		return -1;
	return 0;
}

static int parse_colours(json_object *o, const char *at, const char *const *names, int n, int *out,
                         js_error *err)
{
	js_field f[CL_DOCTORS];
	for (int k = 0; k < n; k++)
		f[k] = (js_field)TT_COUNT(names[k], 0, &out[k]);
	return o ? js_fields(o, at, f, (size_t)n, err) : 0;
}

static int parse_finish(json_object *root, void *input, js_error *err)
{
	clinic_finish_input *in = input;
	static const char *const doctor_names[CL_DOCTORS] = {"white", "yellow", "orange", "red",
	                                                     "purple"};
	json_object *entries = NULL;
	const js_field f[] = {
	    {"entries", JS_ARRAY, JS_F_REQUIRED, 0, CL_MAX_ENTRIES, NULL, &entries, NULL},
	    {"ended_after", JS_INT, JS_F_INT32, 1, CL_ROUNDS, NULL, &in->ended_after, NULL},
	};
	memset(in, 0, sizeof *in);
	if (js_fields(root, "", f, 2, err) != 0)
		return -1;
	in->nentries = (int)json_object_array_length(entries);
	for (int i = 0; i < in->nentries; i++) {
		char at[48], sub[80];
		json_object *doctors = NULL, *patients = NULL, *rooms = NULL;
		snprintf(at, sizeof at, "/entries/%d", i);
		const js_field ef[] = {
		    TT_COUNT("seat", JS_F_REQUIRED, &in->e[i].seat),
		    {"doctors", JS_OBJECT, 0, 0, 0, NULL, &doctors, NULL},
		    TT_COUNT("nurses", 0, &in->e[i].nurses),
		    {"treatment_rooms", JS_ARRAY, 0, 0, CL_FLOORS, NULL, &rooms, NULL},
		    TT_COUNT("additional_buildings", 0, &in->e[i].buildings),
		    {"patients_left", JS_OBJECT, 0, 0, 0, NULL, &patients, NULL},
		    TT_COUNT("zombies", 0, &in->e[i].zombies),
		    {"goal_achieved", JS_BOOL, 0, 0, 0, NULL, &in->e[i].goal_achieved, NULL},
		};
		if (js_fields(json_object_array_get_idx(entries, (size_t)i), at, ef,
		              sizeof ef / sizeof ef[0], err) != 0)
			return -1;
		snprintf(sub, sizeof sub, "%s/doctors", at);
		if (parse_colours(doctors, sub, doctor_names, CL_DOCTORS, in->e[i].doctors, err))
			return -1;
		snprintf(sub, sizeof sub, "%s/patients_left", at);
		if (parse_colours(patients, sub, patient_names, CL_PATIENTS, in->e[i].patients,
		                  err))
			return -1;
		int n = 0;
		snprintf(sub, sizeof sub, "%s/treatment_rooms", at);
		if (rooms && parse_seat_list(rooms, sub, in->e[i].rooms, &n, err) != 0)
			return -1;
	}
	return 0;
}

static json_object *int_list(const int *v, int n)
{
	json_object *a = jx_arr();
	for (int i = 0; i < n; i++)
		jx_push(a, jx_int(v[i]));
	return a;
}

static json_object *round_body_json(const void *input)
{
	const clinic_round_input *in = input;
	json_object *o = jx_obj(), *a = jx_arr();
	for (int i = 0; i < in->nentries; i++) {
		json_object *e = jx_obj();
		jx_set(e, "seat", jx_int(in->e[i].seat));
		jx_set(e, "popularity_bought", jx_int(in->e[i].bought));
		jx_set(e, "lab_doctors", jx_int(in->e[i].lab_doctors));
		jx_set(e, "deaths", jx_int(in->e[i].deaths));
		jx_set(e, "unpaid_expenses", jx_int(in->e[i].unpaid));
		jx_set(e, "time_spent", jx_int(in->e[i].time_spent));
		jx_push(a, e);
	}
	jx_set(o, "entries", a);
	if (in->has_order)
		jx_set(o, "turn_order", int_list(in->order, in->norder));
	return o;
}

static json_object *colours_json(const int *v, int n)
{
	static const char *const names[CL_DOCTORS] = {"white", "yellow", "orange", "red", "purple"};
	json_object *o = jx_obj();
	for (int k = 0; k < n; k++)
		jx_set(o, names[k], jx_int(v[k]));
	return o;
}

static json_object *finish_body_json(const void *input)
{
	const clinic_finish_input *in = input;
	json_object *o = jx_obj(), *a = jx_arr();
	for (int i = 0; i < in->nentries; i++) {
		json_object *e = jx_obj();
		jx_set(e, "seat", jx_int(in->e[i].seat));
		jx_set(e, "doctors", colours_json(in->e[i].doctors, CL_DOCTORS));
		jx_set(e, "nurses", jx_int(in->e[i].nurses));
		jx_set(e, "treatment_rooms", int_list(in->e[i].rooms, CL_FLOORS));
		jx_set(e, "additional_buildings", jx_int(in->e[i].buildings));
		jx_set(e, "patients_left", colours_json(in->e[i].patients, CL_PATIENTS));
		jx_set(e, "zombies", jx_int(in->e[i].zombies));
		jx_set(e, "goal_achieved", jx_bool(in->e[i].goal_achieved));
		jx_push(a, e);
	}
	jx_set(o, "entries", a);
	if (in->ended_after)
		jx_set(o, "ended_after", jx_int(in->ended_after));
	return o;
}

/* ---- configuration ---- */

static json_object *config_json(const clinic_config *c, json_object *doc)
{
	json_object *o = jx_obj(), *ex = jx_arr(), *order = jx_arr();
	jx_set(o, "nseats", jx_int(c->nseats));
	jx_set(o, "solo", jx_bool(c->solo));
	for (int i = 0; i < CL_EXPANSIONS; i++)
		if (c->expansion[i])
			jx_push(ex, jx_str(clinic_expansion_id(i)));
	jx_set(o, "expansions", ex);
	for (int i = 0; i < c->nseats; i++)
		jx_push(order, jx_int(c->start_order[i]));
	jx_set(o, "turn_order", order);
	jx_set(o, "goal", c->goal >= 0 ? jx_str(c->profile.goal[c->goal]) : jx_null());
	jx_set(o, "profile", json_object_get(doc));
	return o;
}

static int parse_expansions(json_object *a, bool *out, table_refusal *r)
{
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *v = json_object_array_get_idx(a, i);
		char at[48];
		snprintf(at, sizeof at, "/expansions/%zu", i);
		int e = json_object_is_type(v, json_type_string)
		            ? clinic_expansion_from_id(json_object_get_string(v))
		            : -1;
		if (e < 0)
			return table_refuse(r, 400, "expansion-unknown", at,
			                    "expansions: blood_transfusion, extinguishers, "
			                    "workaholic_doctors, zombies, floor_4");
		out[e] = true;
	}
	return 0;
}

static int goal_index(const clinic_profile *p, const char *goal)
{
	for (int i = 0; goal && i < p->ngoals; i++)
		if (strcmp(p->goal[i], goal) == 0)
			return i;
	return goal ? -2 : -1;
}

/* POST /api/v1/clinic/games */
static int clinic_create_parse(json_object *root, table_new *n, table_refusal *r)
{
	json_object *players = NULL, *exps = NULL, *order = NULL, *doc = NULL;
	const char *profile = NULL, *goal = NULL;
	bool solo = false;
	js_error err = {{0}, {0}};
	clinic_config c;
	memset(&c, 0, sizeof c);
	const js_field f[] = {
	    {"players", JS_ARRAY, JS_F_REQUIRED, 1, 16, NULL, &players, NULL},
	    {"expansions", JS_ARRAY, 0, 0, CL_EXPANSIONS, NULL, &exps, NULL},
	    {"solo", JS_BOOL, 0, 0, 0, NULL, &solo, NULL},
	    {"profile", JS_STRING, JS_F_NULLABLE, 1, TT_ID_LEN - 1, NULL, &profile, NULL},
	    {"league", JS_STRING, JS_F_NULLABLE, 1, TABLE_NAME_MAX, NULL, &n->league, NULL},
	    {"turn_order", JS_ARRAY, JS_F_NULLABLE, 0, CL_MAX_ENTRIES, NULL, &order, NULL},
	    {"goal", JS_STRING, JS_F_NULLABLE, 1, TT_ID_LEN - 1, NULL, &goal, NULL},
	};
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0)
		return tt_refuse_parse(r, &err);
	n->nseats = (int)json_object_array_length(players);
	if (n->nseats > CL_MAX_SEATS)
		return table_refuse(r, 422, "too-many-players", "/players",
		                    "Clinic takes at most 4 players");
	for (int i = 0; i < n->nseats; i++) {
		const char *name = NULL;
		char at[32];
		snprintf(at, sizeof at, "/players/%d", i);
		const js_field pf[] = {
		    {"name", JS_STRING, JS_F_REQUIRED, 1, TABLE_NAME_MAX, NULL, &name, NULL},
		};
		if (js_fields(json_object_array_get_idx(players, (size_t)i), at, pf, 1, &err))
			return tt_refuse_parse(r, &err);
		snprintf(n->names[i], sizeof n->names[i], "%s", name);
	}
	c.nseats = n->nseats;
	c.solo = solo;
	if (exps && parse_expansions(exps, c.expansion, r) != 0)
		return -1;
	int ord[CL_MAX_ENTRIES] = {0}, nord = c.nseats;
	for (int i = 0; i < CL_MAX_SEATS; i++)
		ord[i] = i + 1;
	if (order && parse_seat_list(order, "/turn_order", ord, &nord, &err) != 0)
		return tt_refuse_parse(r, &err);
	if (nord != c.nseats)
		return table_refuse(r, 422, "turn-order-invalid", "/turn_order",
		                    "the turn order lists every seat exactly once");
	for (int i = 0; i < c.nseats; i++)
		c.start_order[i] = (int8_t)(ord[i] < 0 ? 0 : ord[i] > 99 ? 99 : ord[i]);
	if (profiles_find_clinic(profile, &c.profile, &doc, r) != 0)
		return -1;
	int gi = goal_index(&c.profile, goal);
	tt_error e;
	if (gi == -2) {
		json_object_put(doc);
		return table_refuse(r, 422, "goal-unknown", "/goal",
		                    "not an endgame goal of this profile");
	}
	c.goal = (int8_t)gi;
	if (clinic_config_check(&c, &e) != 0) {
		json_object_put(doc);
		return tt_refuse_rule(r, &e);
	}
	n->config = config_json(&c, doc);
	json_object_put(doc);
	return 0;
}

static void clinic_create_reply(json_object *config, json_object *reply)
{
	static const char *const keys[] = {"expansions", "solo", "turn_order", "goal"};
	json_object *v, *p, *id;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (json_object_object_get_ex(config, keys[i], &v))
			jx_set(reply, keys[i], json_object_get(v));
	if (json_object_object_get_ex(config, "profile", &p) &&
	    json_object_object_get_ex(p, "id", &id))
		jx_set(reply, "profile", json_object_get(id));
	jx_set(reply, "rounds", jx_int(CL_ROUNDS));
}

static int clinic_init(void *state, const char *config, int nseats)
{
	json_object *o = json_tokener_parse(config), *v;
	clinic_config c;
	char err[256];
	int rc = -1;
	if (!o)
		return -1;
	memset(&c, 0, sizeof c);
	c.nseats = nseats;
	c.solo = json_object_object_get_ex(o, "solo", &v) && json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "expansions", &v))
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			int e = clinic_expansion_from_id(
			    json_object_get_string(json_object_array_get_idx(v, i)));
			if (e >= 0)
				c.expansion[e] = true;
		}
	if (json_object_object_get_ex(o, "turn_order", &v))
		for (int i = 0; i < nseats && i < (int)json_object_array_length(v); i++)
			c.start_order[i] =
			    (int8_t)json_object_get_int(json_object_array_get_idx(v, (size_t)i));
	tt_error e;
	if (!json_object_object_get_ex(o, "profile", &v) ||
	    clinic_profile_from_json(&c.profile, v, err, sizeof err) != 0)
		goto out;
	c.goal = -1;
	if (json_object_object_get_ex(o, "goal", &v) && v)
		c.goal = (int8_t)goal_index(&c.profile, json_object_get_string(v));
	if (clinic_config_check(&c, &e) != 0)
		goto out;
	clinic_game_init(state, &c);
	rc = 0;
out:
	json_object_put(o);
	return rc;
}

/* ---- the game as games/rounds sees it ---- */

static void round_entry(const void *state, int round, int seat, void *input)
{
	const clinic_game *g = state;
	clinic_round_input *in = input;
	in->nentries = 1;
	in->e[0].seat = seat;
	if (g && round >= 1 && round <= CL_ROUNDS && seat >= 1 && seat <= CL_MAX_SEATS) {
		const clinic_round_entry *r = &g->rounds[round - 1][seat - 1];
		in->e[0].bought = r->bought;
		in->e[0].lab_doctors = r->lab_doctors;
		in->e[0].deaths = r->deaths;
		in->e[0].unpaid = r->unpaid;
		in->e[0].time_spent = r->time_spent;
	}
}

static void finish_entry(const void *state, int seat, void *input)
{
	const clinic_game *g = state;
	clinic_finish_input *in = input;
	in->nentries = 1;
	in->e[0].seat = seat;
	if (g && seat >= 1 && seat <= CL_MAX_SEATS) {
		const clinic_finish_entry *f = &g->finish[seat - 1];
		for (int k = 0; k < CL_DOCTORS; k++)
			in->e[0].doctors[k] = f->doctors[k];
		for (int k = 0; k < CL_FLOORS; k++)
			in->e[0].rooms[k] = f->rooms[k];
		for (int k = 0; k < CL_PATIENTS; k++)
			in->e[0].patients[k] = f->patients[k];
		in->e[0].nurses = f->nurses;
		in->e[0].buildings = f->buildings;
		in->e[0].zombies = f->zombies;
		in->e[0].goal_achieved = f->goal_achieved;
	}
}

/* The next turn order the table entered with the round. */
static int order_stands(const void *state, int round, const void *input)
{
	const clinic_game *g = state;
	const clinic_round_input *in = input;
	if (!in->has_order)
		return -1;
	if (!g->order_given[round - 1] || in->norder != g->cfg.nseats)
		return 0;
	for (int i = 0; i < in->norder; i++)
		if (g->order_next[round - 1][i] != in->order[i])
			return 0;
	return 1;
}

/* The turn order is the table's: only the host enters it (a solo player is the table). */
static int order_prepare(const table_view *v, const void *input, table_refusal *r)
{
	const clinic_round_input *in = input;
	if (in->has_order && !v->host && v->nseats > 1)
		return table_refuse(r, 403, NULL, "/turn_order",
		                    "the turn order is the table's: the host token enters it");
	return 0;
}

static int apply_round(void *state, int round, const void *in, tt_error *e)
{
	return clinic_round_apply(state, round, in, e);
}

static int apply_finish(void *state, const void *in, tt_error *e)
{
	return clinic_finish_apply(state, in, e);
}

static int nseats(const void *state)
{
	return ((const clinic_game *)state)->cfg.nseats;
}

static int rounds_played(const void *state)
{
	return ((const clinic_game *)state)->rounds_played;
}

static bool finished(const void *state)
{
	return ((const clinic_game *)state)->finished;
}

static bool round_entered(const void *state, int round, int seat)
{
	return ((const clinic_game *)state)->rounds[round - 1][seat - 1].entered;
}

static bool finish_entered(const void *state, int seat)
{
	return ((const clinic_game *)state)->finish[seat - 1].entered;
}

static int rounds_complete(const void *state)
{
	return clinic_rounds_complete(state);
}

/* ---- state ---- */

static const char *category(int rule)
{
	if (rule >= CL_R_DOCTOR_WHITE && rule <= CL_R_NURSE)
		return "employees";
	if (rule >= CL_R_ROOM_FLOOR_0 && rule <= CL_R_ROOM_FLOOR_4)
		return "treatment_rooms";
	if (rule >= CL_R_PATIENT_WHITE && rule <= CL_R_PATIENT_RED)
		return "patients_left";
	switch (rule) {
	case CL_R_UNPAID:
		return "unpaid_expenses";
	case CL_R_BOUGHT:
		return "popularity_bought";
	case CL_R_LAB:
		return "lab_doctors";
	case CL_R_DEATH:
		return "deaths";
	case CL_R_BUILDING:
		return "additional_buildings";
	case CL_R_ZOMBIE:
		return "zombies";
	default:
		return "time_spent";
	}
}

static const char *const categories[] = {"popularity_bought",    "lab_doctors", "deaths",
                                         "unpaid_expenses",      "employees",   "treatment_rooms",
                                         "additional_buildings", "zombies",     "patients_left",
                                         "time_spent",           NULL};

/* The scores as games/rounds shows them. */
static void scores_of(const clinic_game *g, const clinic_scores *sc, round_scores *out)
{
	out->nseats = sc->nseats;
	out->finished = sc->finished;
	out->solo = g->cfg.solo;
	out->profile_id = g->cfg.profile.id;
	out->profile_name = g->cfg.profile.name;
	for (int i = 0; i < sc->nseats; i++) {
		const clinic_seat_score *ss = &sc->seat[i];
		round_seat_score *o = &out->seat[i];
		out->order[i] = sc->order[i];
		o->total = ss->total;
		o->rank = ss->rank;
		o->verified = ss->all_verified;
		o->tie = ss->tie_turn_order ? "turn-order" : NULL;
		o->title = ss->title >= 0 ? g->cfg.profile.title[ss->title] : NULL;
		memcpy(o->round_points, ss->round_points, sizeof ss->round_points);
		memcpy(o->popularity_after, ss->popularity_after, sizeof ss->popularity_after);
		o->nitems = ss->nitems;
		memcpy(o->items, ss->items, sizeof ss->items[0] * (size_t)ss->nitems);
	}
}

static void score(const void *state, round_scores *out)
{
	clinic_scores *sc = xmalloc(sizeof *sc);
	clinic_score(state, sc);
	scores_of(state, sc, out);
	free(sc);
}

static json_object *named_json(const tt_value *v, int n)
{
	static const char *const names[CL_DOCTORS] = {"white", "yellow", "orange", "red", "purple"};
	json_object *o = jx_obj();
	for (int k = 0; k < n; k++)
		jx_set(o, names[k], tt_json_value(&v[k]));
	return o;
}

static json_object *profile_json(const clinic_profile *p)
{
	json_object *o = jx_obj(), *v = jx_obj(), *rooms = jx_arr(), *titles = jx_arr(),
	            *goals = jx_arr();
	jx_set(o, "id", jx_str(p->id));
	jx_set(o, "name", jx_str(p->name));
	if (p->checked_at[0])
		jx_set(o, "checked_at", jx_str(p->checked_at));
	jx_set(v, "doctor", named_json(p->doctor, CL_DOCTORS));
	jx_set(v, "nurse", tt_json_value(&p->nurse));
	for (int k = 0; k < CL_FLOORS; k++)
		jx_push(rooms, tt_json_value(&p->room[k]));
	jx_set(v, "treatment_room", rooms);
	jx_set(v, "patient_left", named_json(p->patient_left, CL_PATIENTS));
	json_object *ts = tt_json_value(&p->time_value);
	jx_set(ts, "per", jx_int(p->time_per.value));
	jx_set(v, "time_spent", ts);
	struct {
		const char *k;
		const tt_value *x;
	} sc[] = {{"building", &p->building},
	          {"death", &p->death},
	          {"lab_doctor", &p->lab_doctor},
	          {"unpaid_dollar", &p->unpaid_dollar},
	          {"popularity_price", &p->popularity_price},
	          {"zombie", &p->zombie}};
	bool all = p->nurse.verified && p->time_value.verified;
	for (int k = 0; k < CL_FLOORS; k++)
		all = all && p->room[k].verified;
	for (int k = 0; k < CL_DOCTORS; k++)
		all = all && p->doctor[k].verified;
	for (int k = 0; k < CL_PATIENTS; k++)
		all = all && p->patient_left[k].verified;
	for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++) {
		jx_set(v, sc[i].k, tt_json_value(sc[i].x));
		all = all && sc[i].x->verified;
	}
	for (int i = 0; i < p->ntitles; i++) {
		json_object *t = tt_json_value(&p->title_min[i]);
		jx_set(t, "title", jx_str(p->title[i]));
		jx_push(titles, t);
	}
	jx_set(v, "hall_of_fame", titles);
	for (int i = 0; i < p->ngoals; i++)
		jx_push(goals, jx_str(p->goal[i]));
	jx_set(v, "solitaire_goals", goals);
	jx_set(o, "values", v);
	jx_set(o, "all_verified", jx_bool(all));
	return o;
}

static json_object *order_json(const int8_t *o, int n)
{
	json_object *a = jx_arr();
	for (int i = 0; i < n; i++)
		jx_push(a, jx_int(o[i]));
	return a;
}

static void clinic_state_json(const void *state, const table_view *v, json_object *o)
{
	const clinic_game *g = state;
	clinic_scores *sc = xmalloc(sizeof *sc);
	round_scores *rs = xcalloc(1, sizeof *rs);
	clinic_score(g, sc);
	scores_of(g, sc, rs);
	int n = g->cfg.nseats;
	json_object *ex = jx_arr(), *orders = jx_arr(), *seats = jx_arr();
	for (int i = 0; i < CL_EXPANSIONS; i++)
		if (g->cfg.expansion[i])
			jx_push(ex, jx_str(clinic_expansion_id(i)));
	jx_set(o, "solo", jx_bool(g->cfg.solo));
	jx_set(o, "expansions", ex);
	jx_set(o, "goal", g->cfg.goal >= 0 ? jx_str(g->cfg.profile.goal[g->cfg.goal]) : jx_null());
	jx_set(o, "rounds", jx_int(CL_ROUNDS));
	jx_set(o, "rounds_complete", jx_int(clinic_rounds_complete(g)));
	jx_set(o, "profile", profile_json(&g->cfg.profile));
	jx_set(o, "next", round_next_json(&clinic_round_kind, g));
	round_end_json(&clinic_round_kind, g, o);
	for (int r = 0; r <= CL_ROUNDS; r++) {
		json_object *t = jx_obj();
		jx_set(t, "round", r < CL_ROUNDS ? jx_int(r + 1) : jx_str("end"));
		jx_set(t, "order", order_json(sc->turn_order[r], n));
		jx_set(t, "entered", jx_bool(sc->order_entered[r]));
		jx_push(orders, t);
	}
	jx_set(o, "turn_orders", orders);
	for (int s = 0; s < n; s++) {
		const round_seat_score *ss = &rs->seat[s];
		json_object *so = jx_obj(), *score = round_score_json(&clinic_round_kind, ss);
		jx_set(score, "time_spent", jx_int(sc->seat[s].time_spent));
		round_score_end(&clinic_round_kind, ss, score);
		jx_set(so, "seat", jx_int(s + 1));
		jx_set(so, "name", jx_str(v->names[s]));
		jx_set(so, "rounds", round_rounds_json(&clinic_round_kind, g, s + 1, ss));
		jx_set(so, "finish", round_finish_json(&clinic_round_kind, g, s + 1));
		jx_set(so, "score", score);
		jx_set(so, "rank", jx_int(ss->rank));
		jx_set(so, "tie_break", jx_str_or_null(ss->tie));
		if (g->cfg.solo)
			jx_set(so, "title", jx_str_or_null(ss->title));
		jx_push(seats, so);
	}
	jx_set(o, "seats", seats);
	jx_set(o, "standings", round_standings_json(&clinic_round_kind, rs, v, false));
	free(rs);
	free(sc);
}

static json_object *clinic_result_json(const void *state, const table_view *v)
{
	return round_result_json(&clinic_round_kind, state, v);
}

static int clinic_event_decode(table_event *tev, const char *payload)
{
	return round_event_decode(&clinic_round_kind, tev, payload);
}

const table_kind clinic_table_kind = {
    .name = "clinic",
    .max_seats = CL_MAX_SEATS,
    .state_size = sizeof(clinic_game),
    .event_size = sizeof(round_ev),
    .create_parse = clinic_create_parse,
    .create_reply = clinic_create_reply,
    .init = clinic_init,
    .event_decode = clinic_event_decode,
    .event_encode = round_event_encode,
    .prepare = round_prepare,
    .repeats = round_repeats,
    .apply = round_apply,
    .finished = finished,
    .state_json = clinic_state_json,
    .result_json = clinic_result_json,
    .log_step = round_log_step,
};

const round_kind clinic_round_kind = {
    .table = &clinic_table_kind,
    .title = "Clinic",
    .rounds = CL_ROUNDS,
    .track = true,
    .titled = true,
    .round_parse = parse_round,
    .finish_parse = parse_finish,
    .round_encode = round_body_json,
    .finish_encode = finish_body_json,
    .round_entry = round_entry,
    .finish_entry = finish_entry,
    .round_table_stands = order_stands,
    .round_prepare = order_prepare,
    .round_apply = apply_round,
    .finish_apply = apply_finish,
    .nseats = nseats,
    .finished = finished,
    .round_entered = round_entered,
    .rounds_played = rounds_played,
    .finish_entered = finish_entered,
    .rounds_complete = rounds_complete,
    .score = score,
    .rule_id = clinic_rule_id,
    .rule_profile_key = clinic_rule_profile_key,
    .category = category,
    .categories = categories,
};

/* ---- handlers ---- */

/* PUT /api/v1/clinic/games/{id}/rounds/{n} */
int api_clinic_round(const http_req *req, http_resp *resp)
{
	return round_api_round(req, resp, &clinic_round_kind);
}

/* POST /api/v1/clinic/games/{id}/finish */
int api_clinic_finish(const http_req *req, http_resp *resp)
{
	return round_api_finish(req, resp, &clinic_round_kind);
}

/* POST /api/v1/clinic/business: the Business helper (seed 001, Phase 2: Business), stateless. */
int api_clinic_business(const http_req *req, http_resp *resp)
{
	static const char *const doctor_names[CL_DOCTORS] = {"white", "yellow", "orange", "red",
	                                                     "purple"};
	json_object *root = NULL, *exps = NULL, *doctors = NULL, *treated = NULL, *doc = NULL;
	const char *profile = NULL;
	clinic_business_in in;
	clinic_config c;
	js_error err = {{0}, {0}};
	table_refusal r;
	memset(&in, 0, sizeof in);
	memset(&c, 0, sizeof c);
	const js_field f[] = {
	    {"profile", JS_STRING, JS_F_NULLABLE, 1, TT_ID_LEN - 1, NULL, &profile, NULL},
	    {"expansions", JS_ARRAY, 0, 0, CL_EXPANSIONS, NULL, &exps, NULL},
	    TT_COUNT("modules", 0, &in.modules),
	    TT_COUNT("gardens", 0, &in.gardens),
	    TT_COUNT("operating_rooms_used", 0, &in.operating_rooms_used),
	    TT_COUNT("orderlies", 0, &in.orderlies),
	    {"doctors", JS_OBJECT, 0, 0, 0, NULL, &doctors, NULL},
	    TT_COUNT("nurses", 0, &in.nurses),
	    TT_COUNT("janitors", 0, &in.janitors),
	    {"treated", JS_OBJECT, 0, 0, 0, NULL, &treated, NULL},
	    TT_COUNT("outpatients", 0, &in.outpatients),
	    TT_COUNT("garden_bonus", 0, &in.garden_bonus),
	    TT_COUNT("extinguisher_bonus", 0, &in.extinguisher_bonus),
	    TT_COUNT("zombies_cured", 0, &in.zombies_cured),
	    TT_COUNT("savings", 0, &in.savings),
	};
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0 ||
	    parse_colours(doctors, "/doctors", doctor_names, CL_DOCTORS, in.doctors, &err) != 0 ||
	    parse_colours(treated, "/treated", patient_names, CL_PATIENTS, in.treated, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
		goto out;
	}
	if ((exps && parse_expansions(exps, c.expansion, &r) != 0) ||
	    profiles_find_clinic(profile, &c.profile, &doc, &r) != 0) {
		table_reply_refusal(resp, &r);
		goto out;
	}
	clinic_business_out b;
	tt_error e;
	if (clinic_business(&c, &in, &b, &e) != 0) {
		http_reply_problem(resp, e.status, e.detail, e.rule, e.field);
		goto out;
	}
	json_object *o = jx_obj(), *ver = jx_obj();
	jx_set(o, "profile", jx_str(c.profile.id));
	jx_set(o, "upkeep", jx_int(b.upkeep));
	jx_set(o, "wages", jx_int(b.wages));
	jx_set(o, "income", jx_int(b.income));
	jx_set(o, "expenses", jx_int(b.expenses));
	jx_set(o, "paid_from_income", jx_int(b.paid_from_income));
	jx_set(o, "paid_from_savings", jx_int(b.paid_from_savings));
	jx_set(o, "unpaid_expenses", jx_int(b.unpaid));
	jx_set(o, "income_left", jx_int(b.income_left));
	jx_set(o, "popularity_affordable", jx_int(b.popularity_affordable));
	jx_set(o, "verified", jx_bool(b.verified));
	jx_set(ver, "upkeep", jx_bool(b.upkeep_verified));
	jx_set(ver, "wages", jx_bool(b.wages_verified));
	jx_set(ver, "income", jx_bool(b.income_verified));
	jx_set(o, "verified_parts", ver);
	http_reply_json(resp, 200, o);
out:
	json_object_put(doc);
	json_object_put(root);
	return 0;
}
