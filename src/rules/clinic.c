/* Clinic scorekeeper: rounds, finish, popularity, turn order, standings, Business helper (see
 * clinic.h). Citations: seed 001 = ../shared/seeds/001_0126e4d1d8383d3e.txt by section. */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "json/spec.h"
#include "rules/clinic.h"

static const char *const expansion_ids[CL_EXPANSIONS] = {
    "blood_transfusion", "extinguishers", "workaholic_doctors", "zombies", "floor_4",
};
static const char *const colour_ids[CL_DOCTORS] = {"white", "yellow", "orange", "red", "purple"};
static const char *const rule_ids[CL_RULES] = {
    "unpaid-expenses",
    "popularity-bought",
    "lab-doctor",
    "patient-death",
    "doctor-white",
    "doctor-yellow",
    "doctor-orange",
    "doctor-red",
    "doctor-purple",
    "nurse",
    "treatment-room-floor-0",
    "treatment-room-floor-1",
    "treatment-room-floor-2",
    "treatment-room-floor-3",
    "treatment-room-floor-4",
    "additional-building",
    "zombie",
    "patient-left-white",
    "patient-left-yellow",
    "patient-left-orange",
    "patient-left-red",
    "time-spent",
};
static const char *const rule_keys[CL_RULES] = {
    "unpaid_dollar",  "popularity_price", "lab_doctor",     "death",          "doctor",
    "doctor",         "doctor",           "doctor",         "doctor_purple",  "nurse",
    "treatment_room", "treatment_room",   "treatment_room", "treatment_room", "treatment_room",
    "building",       "zombie",           "patient_left",   "patient_left",   "patient_left",
    "patient_left",   "time_spent",
};

/* Clinic as the shared checks of tabletop.h name it. */
static const tt_game kind = {
    .name = "Clinic",
    .rounds = CL_ROUNDS,
    .max_seats = CL_MAX_SEATS,
    .max_entries = CL_MAX_ENTRIES,
    .solo_one = "the Solitaire Mode has one player",
    .too_few = "one player plays the Solitaire Mode: set \"solo\": true",
};

const char *clinic_expansion_id(int e)
{
	return tt_id_at(expansion_ids, CL_EXPANSIONS, e);
}

int clinic_expansion_from_id(const char *id)
{
	return tt_id_index(expansion_ids, CL_EXPANSIONS, id);
}

const char *clinic_rule_id(int r)
{
	return tt_id_at(rule_ids, CL_RULES, r);
}

const char *clinic_rule_profile_key(int r)
{
	return tt_id_at(rule_keys, CL_RULES, r);
}

/* ---- configuration ---- */

static int check_order(int n, const int *order, int norder, const char *at, tt_error *err)
{
	bool seen[CL_MAX_SEATS + 1] = {false};
	if (norder != n)
		return tt_fail(err, 422, "turn-order-invalid",
		               "the turn order lists every seat exactly once", "%s", at);
	for (int i = 0; i < norder; i++) {
		int s = order[i];
		if (s < 1 || s > n || seen[s])
			return tt_fail(err, 422, "turn-order-invalid",
			               "the turn order lists every seat exactly once", "%s/%d", at,
			               i);
		seen[s] = true;
	}
	return 0;
}

/* seed 001, Components (1-4 players), Setup (turn order randomized), Solitaire Mode. */
int clinic_config_check(const clinic_config *c, tt_error *err)
{
	if (tt_check_players(&kind, c->solo, c->nseats, err) != 0)
		return -1;
	int order[CL_MAX_SEATS];
	for (int i = 0; i < c->nseats; i++)
		order[i] = c->start_order[i];
	if (check_order(c->nseats, order, c->nseats, "/turn_order", err) != 0)
		return -1;
	if (!c->solo && c->goal != -1)
		return tt_fail(err, 422, "goal-not-solo",
		               "an endgame goal belongs to the Solitaire Mode", "/goal");
	if (c->solo && (c->goal < -1 || c->goal >= c->profile.ngoals))
		return tt_fail(err, 422, "goal-unknown", "not a goal of this profile", "/goal");
	return 0;
}

void clinic_game_init(clinic_game *g, const clinic_config *cfg)
{
	memset(g, 0, sizeof *g);
	g->cfg = *cfg;
}

/* The last round any seat entered (0: none). */
static int rounds_entered(const clinic_game *g)
{
	int n = 0;
	for (int r = 0; r < CL_ROUNDS; r++)
		for (int s = 0; s < g->cfg.nseats; s++)
			if (g->rounds[r][s].entered)
				n = r + 1;
	return n;
}

int clinic_rounds_complete(const clinic_game *g)
{
	int n = 0;
	for (int r = 0; r < CL_ROUNDS; r++) {
		for (int s = 0; s < g->cfg.nseats; s++)
			if (!g->rounds[r][s].entered)
				return n;
		n = r + 1;
	}
	return n;
}

/* ---- rounds ---- */

static int check_count(int v, int i, const char *name, tt_error *err)
{
	return tt_check_count(v, CL_MAX_COUNT, i, name, err);
}

static int check_seat(int n, const int *seats, int i, tt_error *err)
{
	return tt_check_seat(n, seats, i, "a seat appears twice in one entry list", err);
}

static int check_round_entry(const clinic_game *g, const clinic_round_input *in, int i,
                             tt_error *err)
{
	int seats[CL_MAX_ENTRIES];
	for (int o = 0; o <= i; o++)
		seats[o] = in->e[o].seat;
	if (check_seat(g->cfg.nseats, seats, i, err) != 0)
		return -1;
	const char *names[5] = {"popularity_bought", "lab_doctors", "deaths", "unpaid_expenses",
	                        "time_spent"};
	int v[5] = {in->e[i].bought, in->e[i].lab_doctors, in->e[i].deaths, in->e[i].unpaid,
	            in->e[i].time_spent};
	for (int k = 0; k < 5; k++)
		if (check_count(v[k], i, names[k], err) != 0)
			return -1;
	/* seed 001, Phase 2: Business: expenses are paid from this round's income first, and
	 * popularity is bought only with this round's income left after them. */
	if (in->e[i].bought > 0 && in->e[i].unpaid > 0)
		return tt_fail(err, 422, "bought-with-unpaid-expenses",
		               "popularity is bought with this round's income left after expenses: "
		               "none is left when expenses went unpaid",
		               "/entries/%d/popularity_bought", i);
	return 0;
}

int clinic_round_apply(clinic_game *g, int round, const clinic_round_input *in, tt_error *err)
{
	if (tt_round_open(&kind, round, g->finished, in->nentries, in->has_order, err) != 0)
		return -1;
	for (int i = 0; i < in->nentries; i++)
		if (check_round_entry(g, in, i, err) != 0)
			return -1;
	for (int i = 0; i < in->nentries; i++)
		for (int r = 0; r < round - 1; r++)
			if (!g->rounds[r][in->e[i].seat - 1].entered)
				return tt_fail(err, 422, "round-not-reached",
				               "enter the earlier rounds of this seat first",
				               "/round");
	if (in->has_order &&
	    check_order(g->cfg.nseats, in->order, in->norder, "/turn_order", err) != 0)
		return -1;
	for (int i = 0; i < in->nentries; i++) {
		clinic_round_entry *e = &g->rounds[round - 1][in->e[i].seat - 1];
		e->entered = true;
		e->bought = (int16_t)in->e[i].bought;
		e->lab_doctors = (int16_t)in->e[i].lab_doctors;
		e->deaths = (int16_t)in->e[i].deaths;
		e->unpaid = (int16_t)in->e[i].unpaid;
		e->time_spent = (int16_t)in->e[i].time_spent;
	}
	if (in->has_order) {
		g->order_given[round - 1] = true;
		for (int i = 0; i < in->norder; i++)
			g->order_next[round - 1][i] = (int8_t)in->order[i];
	}
	return 0;
}

/* ---- finish (seed 001, End of the Game) ---- */

static int check_finish_entry(const void *game, const void *input, int i, tt_error *err)
{
	const clinic_game *g = game;
	const clinic_finish_input *in = input;
	const clinic_config *c = &g->cfg;
	int seats[CL_MAX_ENTRIES];
	for (int o = 0; o <= i; o++)
		seats[o] = in->e[o].seat;
	if (check_seat(c->nseats, seats, i, err) != 0)
		return -1;
	char name[48];
	for (int k = 0; k < CL_DOCTORS; k++) {
		snprintf(name, sizeof name, "doctors/%s", colour_ids[k]);
		if (check_count(in->e[i].doctors[k], i, name, err) != 0)
			return -1;
	}
	for (int k = 0; k < CL_PATIENTS; k++) {
		snprintf(name, sizeof name, "patients_left/%s", colour_ids[k]);
		if (check_count(in->e[i].patients[k], i, name, err) != 0)
			return -1;
	}
	for (int k = 0; k < CL_FLOORS; k++) {
		snprintf(name, sizeof name, "treatment_rooms/%d", k);
		if (check_count(in->e[i].rooms[k], i, name, err) != 0)
			return -1;
	}
	if (check_count(in->e[i].nurses, i, "nurses", err) != 0 ||
	    check_count(in->e[i].buildings, i, "additional_buildings", err) != 0 ||
	    check_count(in->e[i].zombies, i, "zombies", err) != 0)
		return -1;
	if (in->e[i].doctors[CL_PURPLE] > 0 && !c->expansion[CL_EXP_WORKAHOLIC_DOCTORS])
		return tt_fail(err, 422, "expansion-not-used",
		               "purple doctors come with the Workaholic Doctors expansion",
		               "/entries/%d/doctors/purple", i);
	if (in->e[i].rooms[4] > 0 && !c->expansion[CL_EXP_FLOOR_4])
		return tt_fail(err, 422, "expansion-not-used",
		               "Floor 4 comes with an expansion (seed 001, Solitaire Mode note)",
		               "/entries/%d/treatment_rooms/4", i);
	if (in->e[i].zombies > 0 && !c->expansion[CL_EXP_ZOMBIES])
		return tt_fail(err, 422, "expansion-not-used",
		               "zombies come with the Zombies in a Clinic expansion",
		               "/entries/%d/zombies", i);
	if (in->e[i].goal_achieved && !c->solo)
		return tt_fail(err, 422, "goal-not-solo",
		               "an endgame goal belongs to the Solitaire Mode",
		               "/entries/%d/goal_achieved", i);
	if (in->e[i].goal_achieved && c->goal < 0)
		return tt_fail(err, 422, "goal-not-chosen", "no endgame goal was chosen",
		               "/entries/%d/goal_achieved", i);
	return 0;
}

int clinic_finish_apply(clinic_game *g, const clinic_finish_input *in, tt_error *err)
{
	/* "After 6 rounds, the game ends" (seed 001, End of the Game); a table may stop earlier:
	 * the end of the game is scored the same way, on the boards as they stand */
	int last = in->ended_after ? in->ended_after : CL_ROUNDS;
	if (last < 1 || last > CL_ROUNDS)
		return tt_fail(err, 400, "round-out-of-range",
		               "a game ends after one of rounds 1 to 6", "/ended_after");
	if (tt_finish_check(&kind, g->finished, clinic_rounds_complete(g), rounds_entered(g), last,
	                    g->cfg.nseats, in->nentries, check_finish_entry, g, in, err) != 0)
		return -1;
	for (int i = 0; i < in->nentries; i++) {
		clinic_finish_entry *f = &g->finish[in->e[i].seat - 1];
		f->entered = true;
		for (int k = 0; k < CL_DOCTORS; k++)
			f->doctors[k] = (int16_t)in->e[i].doctors[k];
		for (int k = 0; k < CL_FLOORS; k++)
			f->rooms[k] = (int16_t)in->e[i].rooms[k];
		for (int k = 0; k < CL_PATIENTS; k++)
			f->patients[k] = (int16_t)in->e[i].patients[k];
		f->nurses = (int16_t)in->e[i].nurses;
		f->buildings = (int16_t)in->e[i].buildings;
		f->zombies = (int16_t)in->e[i].zombies;
		f->goal_achieved = in->e[i].goal_achieved;
	}
	g->finished = true;
	g->rounds_played = (int8_t)last;
	return 0;
}

/* ---- scoring ---- */

static void add(clinic_seat_score *s, int round, cl_rule rule, int count, int points, bool verified)
{
	tt_tally t = {s->items,  &s->nitems,      CL_MAX_ITEMS,
	              &s->total, s->round_points, &s->all_verified};
	tt_add(&t, round, (int)rule, count, points, verified);
}

/* One seat's round, in the order the phases change the track: Business (unpaid expenses, then
 * popularity bought), Admin (labs step 7, deaths step 9). Unpaid expenses stop at 0 popularity
 * ("you're off the hook"); the rulebook floors nothing else, so a death may take the track
 * below 0 (a reading: the rulebook is silent). */
/* The steps of a round that move a Popularity marker, in the order the rulebook plays them
 * (seed 001): Business, Expenses (popularity paid for what is still owed), Gain Popularity
 * (buying, in reverse turn order); Admin, step 7 (+1 per doctor in a lab) and step 9 (−5 per
 * death). Players who move in the same step move in turn order, except when buying. */
typedef enum { STEP_UNPAID, STEP_BOUGHT, STEP_LAB, STEP_DEATH, STEP_COUNT } round_step;

static void score_step(const clinic_game *g, int r, int s, round_step step, clinic_seat_score *out)
{
	const clinic_profile *p = &g->cfg.profile;
	const clinic_round_entry *e = &g->rounds[r][s];
	int round = r + 1;
	if (!e->entered)
		return;
	switch (step) {
	case STEP_UNPAID: {
		int before = out->total > 0 ? out->total : 0;
		int owed = e->unpaid * -p->unpaid_dollar.value; /* popularity owed */
		int lost = owed < before ? owed : before;
		if (p->unpaid_dollar.value != 0)
			add(out, round, CL_R_UNPAID, lost / -p->unpaid_dollar.value, -lost,
			    p->unpaid_dollar.verified);
		out->time_spent += e->time_spent;
		break;
	}
	case STEP_BOUGHT:
		add(out, round, CL_R_BOUGHT, e->bought, e->bought, p->popularity_price.verified);
		break;
	case STEP_LAB:
		add(out, round, CL_R_LAB, e->lab_doctors, e->lab_doctors * p->lab_doctor.value,
		    p->lab_doctor.verified);
		break;
	default:
		add(out, round, CL_R_DEATH, e->deaths, e->deaths * p->death.value,
		    p->death.verified);
		break;
	}
}

static void score_end(const clinic_game *g, int s, clinic_seat_score *out)
{
	const clinic_profile *p = &g->cfg.profile;
	const clinic_finish_entry *f = &g->finish[s];
	for (int k = 0; k < CL_DOCTORS; k++)
		add(out, 0, (cl_rule)(CL_R_DOCTOR_WHITE + k), f->doctors[k],
		    f->doctors[k] * p->doctor[k].value, p->doctor[k].verified);
	add(out, 0, CL_R_NURSE, f->nurses, f->nurses * p->nurse.value, p->nurse.verified);
	for (int k = 0; k < CL_FLOORS; k++)
		add(out, 0, (cl_rule)(CL_R_ROOM_FLOOR_0 + k), f->rooms[k],
		    f->rooms[k] * p->room[k].value, p->room[k].verified);
	add(out, 0, CL_R_BUILDING, f->buildings, f->buildings * p->building.value,
	    p->building.verified);
	add(out, 0, CL_R_ZOMBIE, f->zombies, f->zombies * p->zombie.value, p->zombie.verified);
	for (int k = 0; k < CL_PATIENTS; k++)
		add(out, 0, (cl_rule)(CL_R_PATIENT_WHITE + k), f->patients[k],
		    f->patients[k] * p->patient_left[k].value, p->patient_left[k].verified);
	int steps = p->time_per.value > 0 ? out->time_spent / p->time_per.value : 0;
	add(out, 0, CL_R_TIME_SPENT, out->time_spent, steps * p->time_value.value,
	    p->time_per.verified && p->time_value.verified);
}

/* seed 001, Phase 3: Admin, step 11 "Reset turn order": lowest popularity first; on equal
 * popularity the player who reached it first goes later; an unchanged order rotates (the last
 * player becomes first). reach[s] grows with the time seat s last reached its space. */
static void next_order(int n, const int *pop, const int *reach, const int8_t *prev, int8_t *next)
{
	int8_t o[CL_MAX_SEATS];
	for (int i = 0; i < n; i++)
		o[i] = (int8_t)(i + 1);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0; j--) {
			int a = o[j] - 1, b = o[j - 1] - 1;
			bool before = pop[a] < pop[b] || (pop[a] == pop[b] && reach[a] > reach[b]);
			if (!before)
				break;
			int8_t t = o[j];
			o[j] = o[j - 1];
			o[j - 1] = t;
		}
	if (memcmp(o, prev, (size_t)n) == 0) {
		next[0] = prev[n - 1];
		for (int i = 1; i < n; i++)
			next[i] = prev[i - 1];
		return;
	}
	memcpy(next, o, (size_t)n);
}

/* Replays the track round by round: items, totals, and the turn order of each round. Who
 * "reached a space first" among equal popularity (seed 001, Gain Popularity: "place your
 * marker on top, so the order in which you reached that level of popularity is clear"): at
 * setup the markers are stacked with the earliest in turn order on top (reached last); then
 * every step that moves a marker (score_step's order) puts it on top of its new space, so a
 * marker that leaves a space and comes back is on top again. A table that sees a different
 * stack enters the order itself (order_given). */
static void replay(const clinic_game *g, clinic_scores *out)
{
	int n = g->cfg.nseats;
	int pop[CL_MAX_SEATS], reach[CL_MAX_SEATS], clock = 0;
	memcpy(out->turn_order[0], g->cfg.start_order, (size_t)n);
	out->order_entered[0] = true;
	for (int i = 0; i < n; i++)
		reach[g->cfg.start_order[i] - 1] = n - i;
	clock = n + 1;
	for (int r = 0; r < CL_ROUNDS; r++) {
		const int8_t *order = out->turn_order[r];
		for (int step = 0; step < STEP_COUNT; step++)
			for (int i = 0; i < n; i++) {
				int s = order[step == STEP_BOUGHT ? n - 1 - i : i] - 1;
				int before = out->seat[s].total;
				score_step(g, r, s, (round_step)step, &out->seat[s]);
				if (out->seat[s].total != before)
					reach[s] = clock++;
			}
		for (int s = 0; s < n; s++) {
			pop[s] = out->seat[s].total;
			out->seat[s].popularity_after[r + 1] = pop[s];
		}
		if (g->order_given[r]) {
			memcpy(out->turn_order[r + 1], g->order_next[r], (size_t)n);
			out->order_entered[r + 1] = true;
		} else {
			next_order(n, pop, reach, order, out->turn_order[r + 1]);
		}
	}
}

static void standings(const clinic_game *g, clinic_scores *out)
{
	int n = g->cfg.nseats;
	/* the turn order after the last round played (seed 001, End of the Game: ties) */
	const int8_t *fin = out->turn_order[g->rounds_played ? g->rounds_played : CL_ROUNDS];
	int pos[CL_MAX_SEATS];
	for (int i = 0; i < n; i++)
		pos[fin[i] - 1] = i;
	for (int a = 0; a < n; a++) {
		int better = 0;
		for (int b = 0; b < n; b++) {
			if (b == a)
				continue;
			int ta = out->seat[a].total, tb = out->seat[b].total;
			if (tb > ta || (tb == ta && pos[b] < pos[a]))
				better++;
			if (tb == ta)
				out->seat[a].tie_turn_order = true;
		}
		out->seat[a].rank = better + 1;
		out->order[better] = a + 1;
	}
}

/* seed 001, Solitaire Mode step 4: the Hall of Fame only when the goal was achieved. */
static int hall_of_fame(const clinic_profile *p, int total)
{
	int t = -1;
	for (int i = 0; i < p->ntitles; i++)
		if (total >= p->title_min[i].value)
			t = i;
	return t;
}

void clinic_score(const clinic_game *g, clinic_scores *out)
{
	memset(out, 0, sizeof *out);
	int n = g->cfg.nseats;
	out->nseats = n;
	out->finished = g->finished;
	for (int s = 0; s < n; s++) {
		out->seat[s].seat = s + 1;
		out->seat[s].all_verified = true;
		out->seat[s].title = -1;
	}
	replay(g, out);
	if (g->finished)
		for (int s = 0; s < n; s++)
			score_end(g, s, &out->seat[s]);
	standings(g, out);
	if (g->finished && g->cfg.solo && g->finish[0].goal_achieved)
		out->seat[0].title = hall_of_fame(&g->cfg.profile, out->seat[0].total);
}

/* ---- Business helper (seed 001, Phase 2: Business) ---- */

int clinic_business(const clinic_config *cfg, const clinic_business_in *in,
                    clinic_business_out *out, tt_error *err)
{
	const clinic_profile *p = &cfg->profile;
	struct {
		const char *name;
		int v;
	} counts[] = {
	    {"modules", in->modules},
	    {"gardens", in->gardens},
	    {"operating_rooms_used", in->operating_rooms_used},
	    {"orderlies", in->orderlies},
	    {"doctors/white", in->doctors[0]},
	    {"doctors/yellow", in->doctors[1]},
	    {"doctors/orange", in->doctors[2]},
	    {"doctors/red", in->doctors[3]},
	    {"doctors/purple", in->doctors[4]},
	    {"nurses", in->nurses},
	    {"janitors", in->janitors},
	    {"treated/white", in->treated[0]},
	    {"treated/yellow", in->treated[1]},
	    {"treated/orange", in->treated[2]},
	    {"treated/red", in->treated[3]},
	    {"outpatients", in->outpatients},
	    {"garden_bonus", in->garden_bonus},
	    {"extinguisher_bonus", in->extinguisher_bonus},
	    {"zombies_cured", in->zombies_cured},
	    {"savings", in->savings},
	};
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		if (counts[i].v < 0)
			return tt_fail(err, 400, "negative-count", "a count cannot be negative",
			               "/%s", counts[i].name);
		if (counts[i].v > CL_MAX_COUNT)
			return tt_fail(err, 400, "count-out-of-range", "at most 999", "/%s",
			               counts[i].name);
	}
	if (in->operating_rooms_used > in->modules)
		return tt_fail(err, 422, "impossible-count",
		               "an operating room is one of the modules", "/operating_rooms_used");
	if (in->extinguisher_bonus > 0 && !cfg->expansion[CL_EXP_EXTINGUISHERS])
		return tt_fail(err, 422, "expansion-not-used",
		               "extinguishers come with the Extinguishers expansion",
		               "/extinguisher_bonus");
	if (in->zombies_cured > 0 && !cfg->expansion[CL_EXP_ZOMBIES])
		return tt_fail(err, 422, "expansion-not-used",
		               "zombies come with the Zombies in a Clinic expansion",
		               "/zombies_cured");
	if (in->doctors[CL_PURPLE] > 0 && !cfg->expansion[CL_EXP_WORKAHOLIC_DOCTORS])
		return tt_fail(err, 422, "expansion-not-used",
		               "purple doctors come with the Workaholic Doctors expansion",
		               "/doctors/purple");
	memset(out, 0, sizeof *out);
	/* Facility Upkeep: $1 per module and garden, +$2 per operating room that treated a
	 * patient, −$3 per orderly, minimum $0. */
	int up = (in->modules + in->gardens) * p->upkeep_module.value +
	         in->operating_rooms_used * p->upkeep_operating_room_used.value +
	         in->orderlies * p->upkeep_orderly.value;
	out->upkeep = up > 0 ? up : 0;
	out->upkeep_verified = p->upkeep_module.verified &&
	                       p->upkeep_operating_room_used.verified && p->upkeep_orderly.verified;
	/* Pay Your Employees (the wages are profile values) */
	bool wv = true;
	int w = 0;
	for (int k = 0; k < CL_DOCTORS; k++) {
		w += in->doctors[k] * p->wage_doctor[k].value;
		wv = wv && (in->doctors[k] == 0 || p->wage_doctor[k].verified);
	}
	w += in->nurses * p->wage_nurse.value + in->orderlies * p->wage_orderly.value +
	     in->janitors * p->wage_janitor.value;
	wv = wv && (in->nurses == 0 || p->wage_nurse.verified) &&
	     (in->orderlies == 0 || p->wage_orderly.verified) &&
	     (in->janitors == 0 || p->wage_janitor.verified);
	out->wages = w;
	out->wages_verified = wv;
	/* Patient Care and Income */
	bool iv = (in->outpatients == 0 || p->income_outpatient.verified) &&
	          (in->garden_bonus == 0 || p->income_garden.verified) &&
	          (in->extinguisher_bonus == 0 || p->income_extinguisher.verified);
	int inc = in->outpatients * p->income_outpatient.value +
	          in->garden_bonus * p->income_garden.value +
	          in->extinguisher_bonus * p->income_extinguisher.value +
	          in->zombies_cured * CL_ZOMBIE_CURE_DOLLARS;
	for (int k = 0; k < CL_PATIENTS; k++) {
		inc += in->treated[k] * p->income_treated[k].value;
		iv = iv && (in->treated[k] == 0 || p->income_treated[k].verified);
	}
	out->income = inc;
	out->income_verified = iv;
	/* Expenses: from this round's income, then savings, then 1 popularity per $1. */
	out->expenses = out->upkeep + out->wages;
	out->paid_from_income = out->expenses < inc ? out->expenses : inc;
	int rest = out->expenses - out->paid_from_income;
	out->paid_from_savings = rest < in->savings ? rest : in->savings;
	out->unpaid = rest - out->paid_from_savings;
	out->income_left = inc - out->paid_from_income;
	int price = p->popularity_price.value > 0 ? p->popularity_price.value : 1;
	out->popularity_affordable = out->income_left / price;
	out->verified = out->upkeep_verified && wv && iv && p->popularity_price.verified;
	return 0;
}

/* ---- profile ---- */

/* values[key] as an object with an array list_key of at most max elements and a boolean
 * "verified": the array (borrowed) and *verified, or NULL with err. */
static json_object *verified_list(json_object *values, const char *key, const char *list_key,
                                  int max, bool *verified, char *err, size_t errlen)
{
	json_object *o = js_member(values, key, json_type_object);
	json_object *list = js_member(o, list_key, json_type_array);
	json_object *ver = js_member(o, "verified", json_type_boolean);
	if (!list || !ver || json_object_array_length(list) > (size_t)max) {
		snprintf(err, errlen, "/values/%s: needs \"%s\" (at most %d) and \"verified\"", key,
		         list_key, max);
		return NULL;
	}
	*verified = json_object_get_boolean(ver);
	return list;
}

static int load_titles(clinic_profile *p, json_object *values, char *err, size_t errlen)
{
	bool ver;
	json_object *list =
	    verified_list(values, "hall_of_fame", "titles", CL_MAX_TITLES, &ver, err, errlen);
	if (!list)
		return -1;
	p->ntitles = (int)json_object_array_length(list);
	for (int i = 0; i < p->ntitles; i++) {
		json_object *t = json_object_array_get_idx(list, (size_t)i), *name = NULL,
		            *min = NULL;
		if (!json_object_object_get_ex(t, "title", &name) ||
		    !json_object_is_type(name, json_type_string) ||
		    strlen(json_object_get_string(name)) >= CL_TITLE_LEN ||
		    !json_object_object_get_ex(t, "min", &min) ||
		    !json_object_is_type(min, json_type_int) ||
		    (i > 0 && json_object_get_int64(min) <= p->title_min[i - 1].value) ||
		    json_object_get_int64(min) < -1000 || json_object_get_int64(min) > 100000) {
			snprintf(err, errlen,
			         "/values/hall_of_fame/titles/%d: needs \"title\" (< %d bytes) and "
			         "an ascending integer \"min\"",
			         i, CL_TITLE_LEN);
			return -1;
		}
		snprintf(p->title[i], CL_TITLE_LEN, "%s", json_object_get_string(name));
		p->title_min[i].value = (int32_t)json_object_get_int64(min);
		p->title_min[i].verified = ver;
	}
	return 0;
}

static int load_goals(clinic_profile *p, json_object *values, char *err, size_t errlen)
{
	json_object *list = verified_list(values, "solitaire_goals", "goals", CL_MAX_GOALS,
	                                  &p->goals_verified, err, errlen);
	if (!list)
		return -1;
	p->ngoals = (int)json_object_array_length(list);
	for (int i = 0; i < p->ngoals; i++) {
		json_object *v = json_object_array_get_idx(list, (size_t)i);
		if (!json_object_is_type(v, json_type_string) ||
		    strlen(json_object_get_string(v)) < 1 ||
		    strlen(json_object_get_string(v)) >= TT_ID_LEN) {
			snprintf(err, errlen,
			         "/values/solitaire_goals/goals/%d: a string of 1 to %d "
			         "bytes",
			         i, TT_ID_LEN - 1);
			return -1;
		}
		snprintf(p->goal[i], TT_ID_LEN, "%s", json_object_get_string(v));
	}
	return 0;
}

int clinic_profile_from_json(clinic_profile *out, struct json_object *doc, char *err, size_t errlen)
{
	static const char *const doc_names[CL_PATIENTS] = {"white", "yellow", "orange", "red"};
	static const char *const wage_docs[CL_DOCTORS] = {
	    "doctor_white", "doctor_yellow", "doctor_orange", "doctor_red", "doctor_purple"};
	static const char *const wage_staff[3] = {"nurse", "orderly", "janitor"};
	clinic_profile p;
	memset(&p, 0, sizeof p);
	json_object *values = NULL;
	if (tt_get_profile(doc, "clinic", p.id, p.name, p.checked_at, &values, err, errlen) != 0)
		return -1;
	tt_value staff[3];
	if (tt_get_named(values, "doctor", doc_names, CL_PATIENTS, 0, 100, p.doctor, err, errlen) !=
	        0 ||
	    tt_get_named(values, "patient_left", doc_names, CL_PATIENTS, -100, 0, p.patient_left,
	                 err, errlen) != 0 ||
	    tt_get_named(values, "income_treated", doc_names, CL_PATIENTS, 0, 1000,
	                 p.income_treated, err, errlen) != 0 ||
	    tt_get_named(values, "wage", wage_docs, CL_DOCTORS, 0, 1000, p.wage_doctor, err,
	                 errlen) != 0 ||
	    tt_get_named(values, "wage", wage_staff, 3, 0, 1000, staff, err, errlen) != 0 ||
	    tt_get_list(values, "treatment_room", "floors", CL_FLOORS, 0, 100, p.room, err,
	                errlen) != 0)
		return -1;
	p.wage_nurse = staff[0];
	p.wage_orderly = staff[1];
	p.wage_janitor = staff[2];
	const tt_scalar scalars[] = {
	    {"doctor_purple", &p.doctor[CL_PURPLE], 0, 100},
	    {"nurse", &p.nurse, 0, 100},
	    {"building", &p.building, 0, 100},
	    {"death", &p.death, -100, 0},
	    {"lab_doctor", &p.lab_doctor, 0, 100},
	    {"unpaid_dollar", &p.unpaid_dollar, -10, -1},
	    {"popularity_price", &p.popularity_price, 1, 100},
	    {"zombie", &p.zombie, 0, 100},
	    {"upkeep_module", &p.upkeep_module, 0, 100},
	    {"upkeep_operating_room_used", &p.upkeep_operating_room_used, 0, 100},
	    {"upkeep_orderly", &p.upkeep_orderly, -100, 0},
	    {"income_outpatient", &p.income_outpatient, 0, 1000},
	    {"income_garden", &p.income_garden, 0, 1000},
	    {"income_extinguisher", &p.income_extinguisher, 0, 1000},
	};
	if (tt_get_scalars(values, scalars, sizeof scalars / sizeof scalars[0], err, errlen) != 0)
		return -1;
	/* time_spent: {"per": n, "value": v, "verified"} */
	json_object *ts = NULL, *per = NULL;
	if (tt_get_value(values, "time_spent", -100, 0, &p.time_value, err, errlen) != 0)
		return -1;
	json_object_object_get_ex(values, "time_spent", &ts);
	if (!json_object_object_get_ex(ts, "per", &per) ||
	    !json_object_is_type(per, json_type_int) || json_object_get_int64(per) < 1 ||
	    json_object_get_int64(per) > 100) {
		snprintf(err, errlen, "/values/time_spent/per: an integer in [1, 100]");
		return -1;
	}
	p.time_per.value = (int32_t)json_object_get_int64(per);
	p.time_per.verified = p.time_value.verified;
	if (load_titles(&p, values, err, errlen) != 0 || load_goals(&p, values, err, errlen) != 0)
		return -1;
	*out = p;
	return 0;
}
