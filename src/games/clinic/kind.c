/* Clinic games at the table (api.md "Dice Hospital (/api/v1/dh) and Clinic"): the "clinic" kind
 * of the table engine (engine/table.h), and the Business helper. The rules are rules/clinic.c
 * (pure); this file holds the configuration and events as JSON, who may send them, and the
 * state, turn orders, standings and result as JSON.
 *
 * Events: "round" (turn = the round, body = the PUT body) and "finish" (the POST body). The
 * stored configuration carries the whole scoring profile the game was created with. */
#include "games/clinic/kind.h"

#include "games/rounds/profiles.h"
#include "games/rounds/json.h"
#include "json/jx.h"
#include "rules/clinic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	bool finish;
	clinic_round_input round;
	clinic_finish_input fin;
} clinic_ev;

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

static int parse_round(json_object *root, clinic_round_input *in, js_error *err)
{
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

static int parse_finish(json_object *root, clinic_finish_input *in, js_error *err)
{
	static const char *const doctor_names[CL_DOCTORS] = {"white", "yellow", "orange", "red",
	                                                     "purple"};
	json_object *entries = NULL;
	const js_field f[] = {
	    {"entries", JS_ARRAY, JS_F_REQUIRED, 0, CL_MAX_ENTRIES, NULL, &entries, NULL},
	};
	memset(in, 0, sizeof *in);
	if (js_fields(root, "", f, 1, err) != 0)
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

static json_object *round_body_json(const clinic_round_input *in)
{
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

static json_object *finish_body_json(const clinic_finish_input *in)
{
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
	json_object *o = jx_parse_stored(config), *v;
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

/* ---- events ---- */

static json_object *clinic_event_encode(const table_event *tev)
{
	const clinic_ev *ev = tev->body;
	return ev->finish ? finish_body_json(&ev->fin) : round_body_json(&ev->round);
}

static int clinic_event_decode(table_event *tev, const char *payload)
{
	clinic_ev *ev = tev->body;
	json_object *o = jx_parse_stored(payload);
	js_error err;
	if (!o)
		return -1;
	memset(ev, 0, sizeof *ev);
	ev->finish = strcmp(tev->name, "finish") == 0;
	int rc = ev->finish ? parse_finish(o, &ev->fin, &err) : parse_round(o, &ev->round, &err);
	json_object_put(o);
	return rc;
}

/* The host writes any seat (and the turn order); a seat token only its own seat's entries. */
static int clinic_prepare(const void *state, const table_view *v, table_event *tev,
                          table_refusal *r)
{
	const clinic_ev *ev = tev->body;
	(void)state;
	int n = ev->finish ? ev->fin.nentries : ev->round.nentries;
	int first = n > 0 ? (ev->finish ? ev->fin.e[0].seat : ev->round.e[0].seat) : 0;
	bool one = n > 0;
	if (!v->host && v->you == 0)
		return table_refuse(r, 403, NULL, NULL, "this token cannot write");
	for (int i = 0; i < n; i++) {
		int seat = ev->finish ? ev->fin.e[i].seat : ev->round.e[i].seat;
		if (seat != first)
			one = false;
		if (!v->host && seat != v->you)
			return table_refuse(r, 403, NULL, NULL,
			                    "a seat token writes only its own seat's entries");
	}
	if (!ev->finish && ev->round.has_order && !v->host && v->nseats > 1)
		return table_refuse(r, 403, NULL, "/turn_order",
		                    "the turn order is the table's: the host token enters it");
	tev->seat = one ? first : 0;
	return 0;
}

/* An identical resubmission of the finish: the game is finished with exactly these entries. */
static bool finish_repeats(const clinic_game *g, const clinic_finish_input *in)
{
	if (!g->finished || in->nentries != g->cfg.nseats)
		return false;
	for (int i = 0; i < in->nentries; i++) {
		int s = in->e[i].seat;
		if (s < 1 || s > g->cfg.nseats)
			return false;
		const clinic_finish_entry *f = &g->finish[s - 1];
		bool same = f->nurses == in->e[i].nurses && f->buildings == in->e[i].buildings &&
		            f->zombies == in->e[i].zombies &&
		            f->goal_achieved == in->e[i].goal_achieved;
		for (int k = 0; k < CL_DOCTORS; k++)
			same = same && f->doctors[k] == in->e[i].doctors[k];
		for (int k = 0; k < CL_FLOORS; k++)
			same = same && f->rooms[k] == in->e[i].rooms[k];
		for (int k = 0; k < CL_PATIENTS; k++)
			same = same && f->patients[k] == in->e[i].patients[k];
		if (!same)
			return false;
	}
	return true;
}

static bool clinic_repeats(const void *state, const table_event *tev)
{
	const clinic_game *g = state;
	const clinic_ev *ev = tev->body;
	int round = tev->turn;
	if (ev->finish)
		return finish_repeats(g, &ev->fin);
	if (round < 1 || round > CL_ROUNDS)
		return false;
	const clinic_round_input *in = &ev->round;
	for (int i = 0; i < in->nentries; i++) {
		int s = in->e[i].seat;
		if (s < 1 || s > g->cfg.nseats)
			return false;
		const clinic_round_entry *e = &g->rounds[round - 1][s - 1];
		if (!e->entered || e->bought != in->e[i].bought ||
		    e->lab_doctors != in->e[i].lab_doctors || e->deaths != in->e[i].deaths ||
		    e->unpaid != in->e[i].unpaid || e->time_spent != in->e[i].time_spent)
			return false;
	}
	if (in->has_order) {
		if (!g->order_given[round - 1] || in->norder != g->cfg.nseats)
			return false;
		for (int i = 0; i < in->norder; i++)
			if (g->order_next[round - 1][i] != in->order[i])
				return false;
	}
	return in->nentries > 0 || in->has_order;
}

static int clinic_apply(void *state, const table_event *tev, table_refusal *r)
{
	const clinic_ev *ev = tev->body;
	tt_error e;
	int rc = ev->finish ? clinic_finish_apply(state, &ev->fin, &e)
	                    : clinic_round_apply(state, tev->turn, &ev->round, &e);
	return rc == 0 ? 0 : tt_refuse_rule(r, &e);
}

static bool clinic_finished(const void *state)
{
	return ((const clinic_game *)state)->finished;
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

static json_object *breakdown_json(const clinic_seat_score *s)
{
	static const char *const cats[] = {"popularity_bought",
	                                   "lab_doctors",
	                                   "deaths",
	                                   "unpaid_expenses",
	                                   "employees",
	                                   "treatment_rooms",
	                                   "additional_buildings",
	                                   "zombies",
	                                   "patients_left",
	                                   "time_spent"};
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

static json_object *reasons_json(const clinic_seat_score *s, int round)
{
	json_object *a = jx_arr();
	for (int i = 0; i < s->nitems; i++)
		if (s->items[i].round == round)
			jx_push(a, tt_json_reason(&s->items[i], clinic_rule_id(s->items[i].rule),
			                          clinic_rule_profile_key(s->items[i].rule)));
	return a;
}

static json_object *rounds_json(const clinic_game *g, int s, const clinic_seat_score *sc)
{
	json_object *a = jx_arr();
	for (int r = 0; r < CL_ROUNDS; r++) {
		const clinic_round_entry *e = &g->rounds[r][s];
		json_object *o = jx_obj();
		jx_set(o, "round", jx_int(r + 1));
		jx_set(o, "entered", jx_bool(e->entered));
		if (e->entered) {
			jx_set(o, "popularity_bought", jx_int(e->bought));
			jx_set(o, "lab_doctors", jx_int(e->lab_doctors));
			jx_set(o, "deaths", jx_int(e->deaths));
			jx_set(o, "unpaid_expenses", jx_int(e->unpaid));
			jx_set(o, "time_spent", jx_int(e->time_spent));
		}
		jx_set(o, "points", jx_int(sc->round_points[r + 1]));
		jx_set(o, "popularity_after", jx_int(sc->popularity_after[r + 1]));
		jx_set(o, "reasons", reasons_json(sc, r + 1));
		jx_push(a, o);
	}
	return a;
}

static json_object *finish_json(const clinic_finish_entry *f)
{
	if (!f->entered)
		return jx_null();
	int d[CL_DOCTORS], p[CL_PATIENTS], rooms[CL_FLOORS];
	for (int k = 0; k < CL_DOCTORS; k++)
		d[k] = f->doctors[k];
	for (int k = 0; k < CL_PATIENTS; k++)
		p[k] = f->patients[k];
	for (int k = 0; k < CL_FLOORS; k++)
		rooms[k] = f->rooms[k];
	json_object *o = jx_obj();
	jx_set(o, "doctors", colours_json(d, CL_DOCTORS));
	jx_set(o, "nurses", jx_int(f->nurses));
	jx_set(o, "treatment_rooms", int_list(rooms, CL_FLOORS));
	jx_set(o, "additional_buildings", jx_int(f->buildings));
	jx_set(o, "patients_left", colours_json(p, CL_PATIENTS));
	jx_set(o, "zombies", jx_int(f->zombies));
	jx_set(o, "goal_achieved", jx_bool(f->goal_achieved));
	return o;
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

static json_object *standings_json(const clinic_game *g, const clinic_scores *sc,
                                   const table_view *v, bool with_bot)
{
	json_object *a = jx_arr();
	for (int i = 0; i < sc->nseats; i++) {
		int s = sc->order[i] - 1;
		const clinic_seat_score *ss = &sc->seat[s];
		json_object *o = jx_obj();
		jx_set(o, "seat", jx_int(s + 1));
		jx_set(o, "name", jx_str(v->names[s]));
		if (with_bot)
			jx_set(o, "bot", jx_bool(false));
		jx_set(o, "rank", jx_int(ss->rank));
		jx_set(o, "total", jx_int(ss->total));
		jx_set(o, "score", jx_int(ss->total));
		jx_set(o, "breakdown", breakdown_json(ss));
		jx_set(o, "tie_break", ss->tie_turn_order ? jx_str("turn-order") : jx_null());
		jx_set(o, "verified", jx_bool(ss->all_verified));
		if (g->cfg.solo)
			jx_set(o, "title",
			       ss->title >= 0 ? jx_str(g->cfg.profile.title[ss->title])
			                      : jx_null());
		jx_push(a, o);
	}
	return a;
}

static json_object *next_json(const clinic_game *g)
{
	json_object *o = jx_obj();
	int done = clinic_rounds_complete(g);
	if (g->finished) {
		jx_set(o, "action", jx_str("finished"));
	} else if (done < CL_ROUNDS) {
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

static void clinic_state_json(const void *state, const table_view *v, json_object *o)
{
	const clinic_game *g = state;
	clinic_scores sc;
	clinic_score(g, &sc);
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
	jx_set(o, "next", next_json(g));
	for (int r = 0; r <= CL_ROUNDS; r++) {
		json_object *t = jx_obj();
		jx_set(t, "round", r < CL_ROUNDS ? jx_int(r + 1) : jx_str("end"));
		jx_set(t, "order", order_json(sc.turn_order[r], n));
		jx_set(t, "entered", jx_bool(sc.order_entered[r]));
		jx_push(orders, t);
	}
	jx_set(o, "turn_orders", orders);
	for (int s = 0; s < n; s++) {
		const clinic_seat_score *ss = &sc.seat[s];
		json_object *so = jx_obj(), *score = jx_obj();
		jx_set(so, "seat", jx_int(s + 1));
		jx_set(so, "name", jx_str(v->names[s]));
		jx_set(so, "rounds", rounds_json(g, s, ss));
		jx_set(so, "finish", finish_json(&g->finish[s]));
		jx_set(score, "total", jx_int(ss->total));
		jx_set(score, "verified", jx_bool(ss->all_verified));
		jx_set(score, "breakdown", breakdown_json(ss));
		jx_set(score, "time_spent", jx_int(ss->time_spent));
		jx_set(score, "end", jx_int(ss->round_points[0]));
		jx_set(score, "end_reasons", reasons_json(ss, 0));
		jx_set(so, "score", score);
		jx_set(so, "rank", jx_int(ss->rank));
		jx_set(so, "tie_break", ss->tie_turn_order ? jx_str("turn-order") : jx_null());
		if (g->cfg.solo)
			jx_set(so, "title",
			       ss->title >= 0 ? jx_str(g->cfg.profile.title[ss->title])
			                      : jx_null());
		jx_push(seats, so);
	}
	jx_set(o, "seats", seats);
	jx_set(o, "standings", standings_json(g, &sc, v, false));
}

static json_object *clinic_result_json(const void *state, const table_view *v)
{
	const clinic_game *g = state;
	clinic_scores sc;
	clinic_score(g, &sc);
	json_object *o = jx_obj();
	jx_set(o, "standings", standings_json(g, &sc, v, true));
	jx_set(o, "solo", jx_bool(g->cfg.solo));
	jx_set(o, "profile", jx_str(g->cfg.profile.id));
	return o;
}

/* The log, event by event: after each accepted round or finish, every seat's running total
 * (the score sheet of the table, as the board's score track would show it). */
static void clinic_log_step(const void *state, const table_event *tev, const table_view *v,
                            json_object *log)
{
	clinic_scores sc;
	int totals[TABLE_MAX_SEATS];
	(void)v;
	clinic_score(state, &sc);
	for (int s = 0; s < sc.nseats && s < TABLE_MAX_SEATS; s++)
		totals[s] = sc.seat[s].total;
	tt_json_log_totals(log, tev, totals,
	                   sc.nseats < TABLE_MAX_SEATS ? sc.nseats : TABLE_MAX_SEATS);
}

const table_kind clinic_table_kind = {
    .name = "clinic",
    .max_seats = CL_MAX_SEATS,
    .state_size = sizeof(clinic_game),
    .event_size = sizeof(clinic_ev),
    .create_parse = clinic_create_parse,
    .create_reply = clinic_create_reply,
    .init = clinic_init,
    .event_decode = clinic_event_decode,
    .event_encode = clinic_event_encode,
    .prepare = clinic_prepare,
    .repeats = clinic_repeats,
    .apply = clinic_apply,
    .finished = clinic_finished,
    .state_json = clinic_state_json,
    .result_json = clinic_result_json,
    .log_step = clinic_log_step,
};

/* ---- handlers ---- */

/* PUT /api/v1/clinic/games/{id}/rounds/{n} */
int api_clinic_round(const http_req *req, http_resp *resp)
{
	clinic_ev ev;
	json_object *root = NULL;
	js_error err = {{0}, {0}};
	int round = tt_path_round(req->params[1]);
	memset(&ev, 0, sizeof ev);
	if (round < 1 || round > CL_ROUNDS)
		return http_reply_problem(resp, 400, "Clinic has rounds 1 to 6",
		                          "round-out-of-range", "/round");
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (parse_round(root, &ev.round, &err) != 0)
		http_reply_invalid(resp, err.field, err.detail);
	else {
		table_event tev = {.name = "round", .seat = 0, .turn = round, .body = &ev};
		table_mutate(req, resp, &clinic_table_kind, &tev);
	}
	json_object_put(root);
	return 0;
}

/* POST /api/v1/clinic/games/{id}/finish */
int api_clinic_finish(const http_req *req, http_resp *resp)
{
	clinic_ev ev;
	json_object *root = NULL;
	js_error err = {{0}, {0}};
	memset(&ev, 0, sizeof ev);
	ev.finish = true;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (parse_finish(root, &ev.fin, &err) != 0)
		http_reply_invalid(resp, err.field, err.detail);
	else {
		table_event tev = {.name = "finish", .seat = 0, .turn = 0, .body = &ev};
		table_mutate(req, resp, &clinic_table_kind, &tev);
	}
	json_object_put(root);
	return 0;
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

json_object *clinic_pad_round_entry(const clinic_game *g, int round, int seat)
{
	clinic_round_input in = {.nentries = 1};
	in.e[0].seat = seat;
	if (g && round >= 1 && round <= CL_ROUNDS && seat >= 1 && seat <= CL_MAX_SEATS) {
		const clinic_round_entry *r = &g->rounds[round - 1][seat - 1];
		in.e[0].bought = r->bought;
		in.e[0].lab_doctors = r->lab_doctors;
		in.e[0].deaths = r->deaths;
		in.e[0].unpaid = r->unpaid;
		in.e[0].time_spent = r->time_spent;
	}
	return lone_entry(round_body_json(&in));
}

json_object *clinic_pad_finish_entry(const clinic_game *g, int seat)
{
	clinic_finish_input in = {.nentries = 1};
	in.e[0].seat = seat;
	if (g && seat >= 1 && seat <= CL_MAX_SEATS) {
		const clinic_finish_entry *f = &g->finish[seat - 1];
		for (int k = 0; k < CL_DOCTORS; k++)
			in.e[0].doctors[k] = f->doctors[k];
		for (int k = 0; k < CL_FLOORS; k++)
			in.e[0].rooms[k] = f->rooms[k];
		for (int k = 0; k < CL_PATIENTS; k++)
			in.e[0].patients[k] = f->patients[k];
		in.e[0].nurses = f->nurses;
		in.e[0].buildings = f->buildings;
		in.e[0].zombies = f->zombies;
		in.e[0].goal_achieved = f->goal_achieved;
	}
	return lone_entry(finish_body_json(&in));
}
