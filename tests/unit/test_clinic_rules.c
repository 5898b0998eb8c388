/* Clinic scorekeeper (src/rules/clinic.c) against the rulebook: seed 001 =
 * ../shared/seeds/001_0126e4d1d8383d3e.txt, sections by heading. Profile:
 * templates/clinic/default.json (game-data.md placeholders). */
#include <stdlib.h>

#include "rules/clinic.h"
#include "test.h"
#include "tt_fixture.h"

static clinic_profile prof;

static void load_profile(void)
{
	json_object *doc = tt_fixture_doc("clinic/default.json");
	char err[200] = "";
	CHECK(doc != NULL);
	int rc = clinic_profile_from_json(&prof, doc, err, sizeof err);
	if (rc != 0)
		printf("  %s\n", err);
	CHECK_EQ_INT(rc, 0);
	json_object_put(doc);
	/* game-data.md "Unverified values" placeholders, unverified; seed 001 constants verified */
	CHECK_EQ_INT(prof.doctor[CL_ORANGE].value, 3);
	CHECK(!prof.doctor[CL_ORANGE].verified);
	CHECK_EQ_INT(prof.room[4].value, 5);
	CHECK_EQ_INT(prof.patient_left[CL_RED].value, -4);
	CHECK(prof.building.verified && prof.building.value == 8);
	CHECK(prof.death.verified && prof.death.value == -5);
	CHECK(prof.zombie.verified && prof.zombie.value == 9);
	CHECK(prof.popularity_price.verified && prof.popularity_price.value == 3);
	CHECK_EQ_INT(prof.time_per.value, 3);
	CHECK_EQ_INT(prof.ntitles, 8);
	CHECK_STR(prof.title[7], "CEO");
}

static void config(clinic_config *c, int n, bool solo)
{
	memset(c, 0, sizeof *c);
	c->nseats = n;
	c->solo = solo;
	c->goal = -1;
	for (int i = 0; i < n && i < CL_MAX_SEATS; i++)
		c->start_order[i] = (int8_t)(i + 1);
	c->profile = prof;
}

static void game(clinic_game *g, int n)
{
	clinic_config c;
	config(&c, n, n == 1);
	tt_error e;
	CHECK_EQ_INT(clinic_config_check(&c, &e), 0);
	clinic_game_init(g, &c);
}

static void entry(clinic_round_input *in, int seat, int bought, int lab, int deaths, int unpaid,
                  int time)
{
	int i = in->nentries++;
	in->e[i].seat = seat;
	in->e[i].bought = bought;
	in->e[i].lab_doctors = lab;
	in->e[i].deaths = deaths;
	in->e[i].unpaid = unpaid;
	in->e[i].time_spent = time;
}

static int put_round(clinic_game *g, int round, const clinic_round_input *in, tt_error *e)
{
	clinic_game before = *g;
	int rc = clinic_round_apply(g, round, in, e);
	if (rc != 0)
		CHECK(memcmp(&before, g, sizeof before) == 0);
	return rc;
}

static int total(const clinic_game *g, int seat)
{
	clinic_scores sc;
	clinic_score(g, &sc);
	return sc.seat[seat - 1].total;
}

static void fill(clinic_game *g, int upto)
{
	for (int r = 1; r <= upto; r++) {
		clinic_round_input in = {0};
		for (int s = 1; s <= g->cfg.nseats; s++)
			entry(&in, s, 1, 0, 0, 0, 1);
		tt_error e;
		CHECK_EQ_INT(put_round(g, r, &in, &e), 0);
	}
}

/* seed 001, Phase 2: Business, Facility Upkeep — the rulebook's five examples. */
static void t_upkeep_examples(void)
{
	clinic_config c;
	config(&c, 2, false);
	struct {
		int modules, gardens, orderlies, or_used, want;
	} ex[] = {
	    {4, 1, 0, 0, 5}, /* 4 modules and 1 garden: $5 */
	    {4, 1, 1, 0, 2}, /* … and 1 orderly: $2 */
	    {4, 1, 2, 0, 0}, /* … and 2 orderlies: $0 (minimum $0) */
	    {7, 0, 0, 0, 7}, /* 7 modules, the operating room unused: $7 */
	    {7, 0, 0, 1, 9}, /* … used this turn: $9 */
	};
	for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
		clinic_business_in in = {0};
		clinic_business_out out;
		tt_error e;
		in.modules = ex[i].modules;
		in.gardens = ex[i].gardens;
		in.orderlies = ex[i].orderlies;
		in.operating_rooms_used = ex[i].or_used;
		CHECK_EQ_INT(clinic_business(&c, &in, &out, &e), 0);
		CHECK_EQ_INT(out.upkeep, ex[i].want);
		CHECK(out.upkeep_verified);
	}
}

/* seed 001, Phase 2: Business: income (outpatients $6, +$2 per adjacent garden), expenses from
 * this round's income, then savings, then 1 popularity per $1; popularity $3 each from the
 * income left. */
static void t_business(void)
{
	clinic_config c;
	config(&c, 2, false);
	clinic_business_in in = {0};
	clinic_business_out out;
	tt_error e;
	in.modules = 4;
	in.outpatients = 2;
	in.garden_bonus = 1;
	CHECK_EQ_INT(clinic_business(&c, &in, &out, &e), 0);
	CHECK_EQ_INT(out.income, 14);
	CHECK_EQ_INT(out.expenses, 4);
	CHECK_EQ_INT(out.income_left, 10);
	CHECK_EQ_INT(out.popularity_affordable, 3);
	CHECK(out.verified);
	in.doctors[CL_WHITE] = 1; /* wages are placeholders */
	in.treated[CL_RED] = 1;   /* so is treated-patient income */
	CHECK_EQ_INT(clinic_business(&c, &in, &out, &e), 0);
	CHECK_EQ_INT(out.wages, prof.wage_doctor[CL_WHITE].value);
	CHECK_EQ_INT(out.income, 14 + prof.income_treated[CL_RED].value);
	CHECK(!out.verified && !out.wages_verified && !out.income_verified);
	clinic_business_in poor = {0};
	poor.modules = 5;
	poor.savings = 2;
	CHECK_EQ_INT(clinic_business(&c, &poor, &out, &e), 0);
	CHECK_EQ_INT(out.paid_from_savings, 2);
	CHECK_EQ_INT(out.unpaid, 3);
	CHECK_EQ_INT(out.popularity_affordable, 0);
	poor.extinguisher_bonus = 1;
	CHECK_EQ_INT(clinic_business(&c, &poor, &out, &e), -1);
	CHECK_STR(e.rule, "expansion-not-used");
	poor.extinguisher_bonus = 0;
	poor.savings = -1;
	CHECK_EQ_INT(clinic_business(&c, &poor, &out, &e), -1);
	CHECK_STR(e.field, "/savings");
}

/* seed 001, Business (bought, unpaid expenses never below 0) and Admin (lab +1, death −5). */
static void t_round_scoring(void)
{
	clinic_game g;
	game(&g, 2);
	clinic_round_input in = {0};
	entry(&in, 1, 2, 1, 0, 0, 4);
	entry(&in, 2, 0, 0, 1, 0, 2);
	tt_error e;
	CHECK_EQ_INT(put_round(&g, 1, &in, &e), 0);
	CHECK_EQ_INT(total(&g, 1), 3);
	CHECK_EQ_INT(total(&g, 2), -5); /* a reading: only unpaid expenses stop at 0 */
	clinic_round_input r2 = {0};
	entry(&r2, 1, 0, 0, 0, 5, 0); /* owes $5 with 3 popularity: loses 3, off the hook */
	entry(&r2, 2, 0, 0, 0, 2, 0); /* below 0 already: loses nothing */
	CHECK_EQ_INT(put_round(&g, 2, &r2, &e), 0);
	CHECK_EQ_INT(total(&g, 1), 0);
	CHECK_EQ_INT(total(&g, 2), -5);
	clinic_scores sc;
	clinic_score(&g, &sc);
	CHECK_EQ_INT(sc.seat[0].round_points[2], -3);
	CHECK_EQ_INT(sc.seat[0].time_spent, 4);
	CHECK(sc.seat[0].all_verified); /* every value used is a seed 001 constant */
	CHECK_STR(clinic_rule_id(sc.seat[0].items[0].rule), "popularity-bought");
	CHECK_EQ_INT(sc.seat[0].popularity_after[1], 3);
}

/* Bad input: round outside 1–6, negative counts, a seat twice, popularity bought
 * while expenses went unpaid (seed 001, Expenses: paid from this round's income first). */
static void t_bad_rounds(void)
{
	clinic_game g;
	game(&g, 3);
	clinic_round_input in = {0};
	entry(&in, 1, 1, 0, 0, 0, 0);
	tt_error e;
	CHECK_EQ_INT(put_round(&g, 7, &in, &e), -1);
	CHECK_STR(e.rule, "round-out-of-range");
	CHECK_EQ_INT(put_round(&g, 0, &in, &e), -1);
	CHECK_EQ_INT(put_round(&g, 2, &in, &e), -1);
	CHECK_STR(e.rule, "round-not-reached");
	clinic_round_input neg = {0};
	entry(&neg, 2, 0, 0, -1, 0, 0);
	CHECK_EQ_INT(put_round(&g, 1, &neg, &e), -1);
	CHECK_STR(e.field, "/entries/0/deaths");
	CHECK_EQ_INT(e.status, 400);
	clinic_round_input twice = {0};
	entry(&twice, 1, 0, 0, 0, 0, 0);
	entry(&twice, 1, 0, 0, 0, 0, 0);
	CHECK_EQ_INT(put_round(&g, 1, &twice, &e), -1);
	CHECK_STR(e.rule, "seat-twice");
	clinic_round_input both = {0};
	entry(&both, 3, 1, 0, 0, 2, 0);
	CHECK_EQ_INT(put_round(&g, 1, &both, &e), -1);
	CHECK_STR(e.rule, "bought-with-unpaid-expenses");
	CHECK_STR(e.field, "/entries/0/popularity_bought");
	clinic_round_input order = {0};
	entry(&order, 1, 0, 0, 0, 0, 0);
	order.has_order = true;
	order.norder = 3;
	order.order[0] = 1;
	order.order[1] = 1;
	order.order[2] = 3;
	CHECK_EQ_INT(put_round(&g, 1, &order, &e), -1);
	CHECK_STR(e.rule, "turn-order-invalid");
	CHECK_STR(e.field, "/turn_order/1");
	clinic_config c;
	config(&c, 5, false);
	CHECK_EQ_INT(clinic_config_check(&c, &e), -1);
	CHECK_STR(e.rule, "too-many-players");
	config(&c, 2, false);
	c.start_order[1] = 1;
	CHECK_EQ_INT(clinic_config_check(&c, &e), -1);
	CHECK_STR(e.field, "/turn_order/1");
}

static void expect_order(const int8_t *got, int a, int b, int c)
{
	CHECK_EQ_INT(got[0], a);
	CHECK_EQ_INT(got[1], b);
	CHECK_EQ_INT(got[2], c);
}

/* seed 001, Phase 3: Admin, step 11 "Reset turn order": lowest popularity first; on a tie the
 * player who reached it first goes later; an unchanged order rotates (last becomes first). */
static void t_turn_order(void)
{
	tt_error e;
	clinic_scores sc;
	clinic_game g;
	game(&g, 3);
	clinic_round_input in = {0};
	entry(&in, 1, 2, 0, 0, 0, 0);
	entry(&in, 2, 2, 0, 0, 0, 0);
	entry(&in, 3, 0, 0, 0, 0, 0);
	CHECK_EQ_INT(put_round(&g, 1, &in, &e), 0);
	clinic_score(&g, &sc);
	/* seat 3 lowest; seats 1 and 2 tied at 2: seat 2 bought first (reverse turn order), so
	 * reached it first and goes later */
	expect_order(sc.turn_order[1], 3, 1, 2);
	CHECK(!sc.order_entered[1]);

	clinic_game h;
	game(&h, 3);
	clinic_round_input same = {0};
	entry(&same, 1, 0, 0, 0, 0, 0);
	entry(&same, 2, 1, 0, 0, 0, 0);
	entry(&same, 3, 2, 0, 0, 0, 0);
	CHECK_EQ_INT(put_round(&h, 1, &same, &e), 0);
	clinic_score(&h, &sc);
	expect_order(sc.turn_order[1], 3, 1, 2); /* 1,2,3 again: rotated */

	clinic_game k;
	game(&k, 3);
	clinic_round_input zero = {0};
	for (int s = 1; s <= 3; s++)
		entry(&zero, s, 0, 0, 0, 0, 0);
	zero.has_order = true; /* the table read the stack differently: its order wins */
	zero.norder = 3;
	zero.order[0] = 2;
	zero.order[1] = 3;
	zero.order[2] = 1;
	CHECK_EQ_INT(put_round(&k, 1, &zero, &e), 0);
	clinic_score(&k, &sc);
	expect_order(sc.turn_order[1], 2, 3, 1);
	CHECK(sc.order_entered[1]);
	/* setup stack: all at 0, earliest on top (reached last) — unchanged, so it rotates */
	zero.has_order = false;
	CHECK_EQ_INT(put_round(&k, 2, &zero, &e), 0);
	clinic_score(&k, &sc);
	expect_order(sc.turn_order[2], 1, 2, 3);
}

/* seed 001, Gain Popularity ("in reverse turn order … place your marker on top, so the order
 * in which you reached that level of popularity is clear") against Admin steps 7 (a doctor in
 * a lab: +1) and 9 (a death: −5), which come after buying: who reached a space first. */
static void t_turn_order_reached_first(void)
{
	tt_error e;
	clinic_scores sc;
	clinic_game g;
	clinic_config c;
	config(&c, 3, false);
	c.start_order[0] = 2;
	c.start_order[1] = 1;
	c.start_order[2] = 3;
	CHECK_EQ_INT(clinic_config_check(&c, &e), 0);
	clinic_game_init(&g, &c);
	/* turn order [2,1,3]: seat 2 buys 1 popularity (Business), seat 1 has a doctor in a lab
	 * (+1 in Admin, later): seat 2 reached 1 first and goes later */
	clinic_round_input in = {0};
	entry(&in, 1, 0, 1, 0, 0, 0);
	entry(&in, 2, 1, 0, 0, 0, 0);
	entry(&in, 3, 0, 0, 0, 0, 0);
	CHECK_EQ_INT(put_round(&g, 1, &in, &e), 0);
	clinic_score(&g, &sc);
	expect_order(sc.turn_order[1], 3, 1, 2);

	/* a marker that leaves its space and comes back is on top again: turn order [1,2,3],
	 * everybody buys 6 in round 1 in reverse order (3, 2, 1: seat 1 on top); in round 2
	 * seat 2 buys 5 and loses a patient (−5): back on 6, now on top, so it reached 6 last */
	clinic_game h;
	game(&h, 3);
	clinic_round_input r1 = {0};
	for (int s = 1; s <= 3; s++)
		entry(&r1, s, 6, 0, 0, 0, 0);
	CHECK_EQ_INT(put_round(&h, 1, &r1, &e), 0);
	clinic_score(&h, &sc);
	/* 3 reached 6 first, 1 last: 1, 2, 3 — the order of round 1 again, so it rotates */
	expect_order(sc.turn_order[1], 3, 1, 2);
	clinic_round_input r2 = {0};
	entry(&r2, 1, 0, 0, 0, 0, 0);
	entry(&r2, 2, 5, 0, 1, 0, 0);
	entry(&r2, 3, 0, 0, 0, 0, 0);
	CHECK_EQ_INT(put_round(&h, 2, &r2, &e), 0);
	clinic_score(&h, &sc);
	CHECK_EQ_INT(sc.seat[1].total, 6);
	/* 3 reached 6 first, then 1, then 2 (again): 2, 1, 3 */
	expect_order(sc.turn_order[2], 2, 1, 3);
}

/* seed 001, End of the Game: employees, treatment rooms by floor, +8 per building, patients
 * left (pre-admissions included), time spent; Expansions: zombies +9; finish after round 6. */
static void t_finish(void)
{
	clinic_game g;
	game(&g, 2);
	fill(&g, 5);
	clinic_finish_input f = {.nentries = 2};
	f.e[0].seat = 1;
	f.e[0].doctors[CL_WHITE] = 1;
	f.e[0].doctors[CL_RED] = 2;
	f.e[0].nurses = 3;
	f.e[0].rooms[0] = 1;
	f.e[0].rooms[3] = 1;
	f.e[0].buildings = 1;
	f.e[0].patients[CL_ORANGE] = 2;
	f.e[1].seat = 2;
	tt_error e;
	CHECK_EQ_INT(clinic_finish_apply(&g, &f, &e), -1);
	CHECK_STR(e.rule, "finish-before-last-round");
	fill(&g, 6);
	clinic_finish_input z = f;
	z.e[1].zombies = 1;
	CHECK_EQ_INT(clinic_finish_apply(&g, &z, &e), -1);
	CHECK_STR(e.rule, "expansion-not-used");
	CHECK_STR(e.field, "/entries/1/zombies");
	clinic_finish_input f4 = f;
	f4.e[0].rooms[4] = 1;
	CHECK_EQ_INT(clinic_finish_apply(&g, &f4, &e), -1);
	CHECK_STR(e.field, "/entries/0/treatment_rooms/4");
	clinic_finish_input neg = f;
	neg.e[0].patients[CL_RED] = -1;
	CHECK_EQ_INT(clinic_finish_apply(&g, &neg, &e), -1);
	CHECK_STR(e.field, "/entries/0/patients_left/red");
	CHECK_EQ_INT(clinic_finish_apply(&g, &f, &e), 0);
	/* 6 bought; 1 + 8 + 3 doctors, 3 nurses, rooms 1 + 4, +8, −6 patients, time 6 → −2 */
	CHECK_EQ_INT(total(&g, 1), 6 + 9 + 3 + 5 + 8 - 6 - 2);
	clinic_scores sc;
	clinic_score(&g, &sc);
	CHECK(!sc.seat[0].all_verified); /* doctor and room values are placeholders */

	clinic_game h;
	game(&h, 2);
	h.cfg.expansion[CL_EXP_ZOMBIES] = true;
	h.cfg.expansion[CL_EXP_FLOOR_4] = true;
	fill(&h, 6);
	z.e[0] = f4.e[0];
	CHECK_EQ_INT(clinic_finish_apply(&h, &z, &e), 0);
	CHECK_EQ_INT(total(&h, 2), 6 + 9 - 2);
}

/* seed 001, End of the Game: "In a tie, the tied player who reached the space first (i.e. was
 * earlier in the turn order) is the winner" — the turn order after round 6's Admin. */
static void t_tie(void)
{
	clinic_game g;
	game(&g, 3);
	fill(&g, 6); /* everyone +1 each round: always tied, the order rotates every round */
	clinic_finish_input f = {.nentries = 3};
	for (int s = 0; s < 3; s++)
		f.e[s].seat = s + 1;
	tt_error e;
	CHECK_EQ_INT(clinic_finish_apply(&g, &f, &e), 0);
	clinic_scores sc;
	clinic_score(&g, &sc);
	const int8_t *fin = sc.turn_order[CL_ROUNDS];
	CHECK_EQ_INT(sc.order[0], fin[0]);
	CHECK_EQ_INT(sc.order[2], fin[2]);
	CHECK_EQ_INT(sc.seat[fin[0] - 1].rank, 1);
	CHECK_EQ_INT(sc.seat[fin[2] - 1].rank, 3);
	CHECK(sc.seat[0].tie_turn_order);
}

/* seed 001, Solitaire Mode: the chosen goal; the Hall of Fame only if it was achieved. */
static void t_solitaire(void)
{
	for (int achieved = 0; achieved < 2; achieved++) {
		clinic_config c;
		config(&c, 1, true);
		c.goal = 0;
		tt_error e;
		CHECK_EQ_INT(clinic_config_check(&c, &e), 0);
		clinic_game g;
		clinic_game_init(&g, &c);
		for (int r = 1; r <= 6; r++) {
			clinic_round_input in = {0};
			entry(&in, 1, 4, 0, 0, 0, 0);
			CHECK_EQ_INT(put_round(&g, r, &in, &e), 0);
		}
		clinic_finish_input f = {.nentries = 1};
		f.e[0].seat = 1;
		f.e[0].goal_achieved = achieved;
		CHECK_EQ_INT(clinic_finish_apply(&g, &f, &e), 0);
		clinic_scores sc;
		clinic_score(&g, &sc);
		CHECK_EQ_INT(sc.seat[0].total, 24);
		CHECK_EQ_INT(sc.seat[0].rank, 1);
		if (achieved)
			CHECK_STR(prof.title[sc.seat[0].title],
			          "nurse"); /* 20 ≤ 24 < 40 placeholder */
		else
			CHECK_EQ_INT(sc.seat[0].title, -1);
	}
	clinic_config c;
	config(&c, 2, false);
	c.goal = 0;
	tt_error e;
	CHECK_EQ_INT(clinic_config_check(&c, &e), -1);
	CHECK_STR(e.rule, "goal-not-solo");
}

/* A whole 3-player game to a final ranking (seed 001, Playing the Game, End of the Game). */
static void t_whole_game(void)
{
	clinic_game g;
	game(&g, 3);
	tt_error e;
	for (int r = 1; r <= 6; r++) {
		clinic_round_input in = {0};
		entry(&in, 1, 3, 1, r == 4, 0, 3);
		entry(&in, 2, 2, 0, 0, 0, 2);
		entry(&in, 3, r, 0, 0, 0, 5);
		CHECK_EQ_INT(put_round(&g, r, &in, &e), 0);
	}
	clinic_finish_input f = {.nentries = 3};
	for (int s = 0; s < 3; s++)
		f.e[s].seat = s + 1;
	f.e[1].buildings = 2;
	f.e[2].patients[CL_WHITE] = 1;
	CHECK_EQ_INT(clinic_finish_apply(&g, &f, &e), 0);
	clinic_scores sc;
	clinic_score(&g, &sc);
	CHECK_EQ_INT(sc.seat[0].total, 24 - 5 - 6);  /* 13 */
	CHECK_EQ_INT(sc.seat[1].total, 12 + 16 - 4); /* 24 */
	CHECK_EQ_INT(sc.seat[2].total, 21 - 1 - 10); /* 10 */
	CHECK_EQ_INT(sc.order[0], 2);
	CHECK_EQ_INT(sc.order[1], 1);
	CHECK_EQ_INT(sc.order[2], 3);
	CHECK(!sc.seat[1].tie_turn_order);
}

int main(void)
{
	TEST("clinic profile: game-data placeholders unverified, seed 001 constants verified",
	     load_profile);
	TEST("clinic upkeep: the rulebook's five examples (seed 001 Phase 2 Business, Facility "
	     "Upkeep)",
	     t_upkeep_examples);
	TEST("clinic business helper: income, expenses, savings, popularity $3 (seed 001 Phase 2)",
	     t_business);
	TEST("clinic round: bought, labs, deaths, unpaid not below 0 (seed 001 Business, Admin)",
	     t_round_scoring);
	TEST("clinic bad rounds: range, negative, seat twice, bought with unpaid (seed 001)",
	     t_bad_rounds);
	TEST("clinic turn order: lowest first, ties, rotation, entered (seed 001 Admin step 11)",
	     t_turn_order);
	TEST("clinic finish: employees, rooms, buildings, patients, time, zombies (seed 001 End "
	     "of the Game)",
	     t_finish);
	TEST("clinic turn order: bought in reverse turn order before lab and death moves "
	     "(seed 001 Gain Popularity, Admin steps 7, 9, 11)",
	     t_turn_order_reached_first);
	TEST("clinic tie: earlier in the final turn order wins (seed 001 End of the Game)", t_tie);
	TEST("clinic solitaire: goal and Hall of Fame (seed 001 Solitaire Mode)", t_solitaire);
	TEST("clinic whole 3-player game to a final ranking (seed 001)", t_whole_game);
	TEST_MAIN_END();
}
