/* Property test of the Dice Hospital and Clinic scorekeepers (src/rules/dh.c, clinic.c):
 * thousands of random games (seeded PRNG) of random rounds and finishes, legal or not. After
 * every call: a refusal leaves the state byte for byte as it was and names a rule and a field;
 * after an acceptance every seat's total is the sum of its reasons and of its round points, the
 * standings are a consistent ranking (ranks ascending along the order, equal ranks only on
 * equal totals), and the solo Medical Reports replay to the same completed cards. */
#include <stdint.h>
#include <stdlib.h>

#include "rules/clinic.h"
#include "rules/dh.h"
#include "test.h"
#include "tt_fixture.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}
static int pick(int lo, int hi) /* inclusive */
{
	return lo + (int)(next() % (uint32_t)(hi - lo + 1));
}

static dh_profile dhp;
static clinic_profile clp;

static void load(void)
{
	char err[200];
	json_object *a = tt_fixture_doc("dice-hospital/default.json");
	json_object *b = tt_fixture_doc("clinic/default.json");
	CHECK_EQ_INT(dh_profile_from_json(&dhp, a, err, sizeof err), 0);
	CHECK_EQ_INT(clinic_profile_from_json(&clp, b, err, sizeof err), 0);
	json_object_put(a);
	json_object_put(b);
}

static void check_items(const tt_item *items, int nitems, int total, const int *round_points,
                        int nrounds)
{
	int sum = 0, rsum = 0;
	for (int i = 0; i < nitems; i++)
		sum += items[i].points;
	for (int r = 0; r <= nrounds; r++)
		rsum += round_points[r];
	CHECK_EQ_INT(sum, total);
	CHECK_EQ_INT(rsum, total);
}

static void dh_random_game(void)
{
	dh_config c;
	memset(&c, 0, sizeof c);
	c.solo = pick(0, 4) == 0;
	c.nseats = c.solo ? 1 : pick(2, 4);
	c.profile = dhp;
	for (int s = 0; s < DH_MAX_SEATS; s++)
		c.admin[s] = DH_ADMIN_NONE;
	for (int s = 0; !c.solo && s < c.nseats; s++)
		c.admin[s] = (int8_t)(s * 2 + pick(0, 1)); /* distinct */
	for (int v = 0; v < DH_VARIANTS; v++)
		c.variant[v] = pick(0, 1) && (c.solo || v < DH_VAR_FATALITY_PENALTY);
	for (int i = 0; c.solo && i < DH_REPORTS; i++) {
		c.reports[i].need[pick(0, 2)] = (int8_t)pick(1, 2);
		c.reports[i].points = (int8_t)pick(1, 6);
	}
	tt_error e;
	CHECK_EQ_INT(dh_config_check(&c, &e), 0);
	dh_game g;
	dh_game_init(&g, &c);
	for (int step = 0; step < 60; step++) {
		dh_game before;
		memcpy(&before, &g, sizeof g);
		int rc;
		if (pick(0, 9) == 0) {
			dh_finish_input f = {.nentries = pick(c.nseats - 1, c.nseats)};
			for (int i = 0; i < f.nentries; i++) {
				f.e[i].seat = pick(0, 9) ? i + 1 : pick(0, 5);
				f.e[i].fatalities = pick(pick(0, 9) ? 0 : -1, 5);
				f.e[i].blood_bags = pick(0, 5);
				f.e[i].patients_left = pick(0, pick(0, 9) ? 4 : 13);
				f.e[i].pips_left = f.e[i].patients_left * pick(1, 6) +
				                   (pick(0, 9) ? 0 : pick(-3, 3));
				f.e[i].collected = pick(0, 3) ? 0 : pick(0, 4);
			}
			rc = dh_finish_apply(&g, &f, &e);
		} else {
			int round = pick(0, 9) ? dh_rounds_complete(&g) + pick(0, 1) : pick(-1, 10);
			dh_round_input in = {.nentries =
			                         pick(0, 3) ? c.nseats : pick(1, c.nseats + 1)};
			if (in.nentries > DH_MAX_ENTRIES)
				in.nentries = DH_MAX_ENTRIES;
			for (int i = 0; i < in.nentries; i++) {
				in.e[i].seat = pick(0, 30) ? (i % c.nseats) + 1 : pick(0, 6);
				for (int k = 0; k < DH_COLOURS; k++)
					in.e[i].discharged[k] =
					    pick(0, 20) ? pick(0, 3) : pick(-1, 13);
				in.e[i].wards_empty = pick(0, 3) == 0;
				in.e[i].registrar = pick(0, 4) ? 0 : pick(0, 3);
			}
			if (c.solo && pick(0, 1)) {
				in.has_reports = true;
				in.nreports = pick(0, 3);
				for (int i = 0; i < in.nreports; i++)
					in.reports[i] = pick(0, 7);
			}
			rc = dh_round_apply(&g, round, &in, &e);
		}
		if (rc != 0) {
			CHECK(memcmp(&before, &g, sizeof g) == 0);
			CHECK(e.rule != NULL &&
			      (e.status == 400 || e.status == 409 || e.status == 422));
			continue;
		}
		dh_scores sc;
		dh_score(&g, &sc);
		for (int s = 0; s < c.nseats; s++)
			check_items(sc.seat[s].items, sc.seat[s].nitems, sc.seat[s].total,
			            sc.seat[s].round_points, DH_ROUNDS);
		for (int i = 1; i < c.nseats; i++) {
			const dh_seat_score *a = &sc.seat[sc.order[i - 1] - 1],
			                    *b = &sc.seat[sc.order[i] - 1];
			CHECK(a->rank <= b->rank && a->total >= b->total);
			if (a->rank == b->rank)
				CHECK(a->total == b->total && a->tie == DH_TIE_SHARED);
		}
		CHECK_EQ_INT(sc.seat[sc.order[0] - 1].rank, 1);
	}
}

static void clinic_random_game(void)
{
	clinic_config c;
	memset(&c, 0, sizeof c);
	c.solo = pick(0, 4) == 0;
	c.nseats = c.solo ? 1 : pick(2, 4);
	c.profile = clp;
	c.goal = c.solo ? (int8_t)pick(-1, 2) : -1;
	for (int i = 0; i < CL_EXPANSIONS; i++)
		c.expansion[i] = pick(0, 1);
	for (int i = 0; i < c.nseats; i++)
		c.start_order[i] = (int8_t)(i + 1);
	for (int i = c.nseats - 1; i > 0; i--) { /* shuffle */
		int j = pick(0, i);
		int8_t t = c.start_order[i];
		c.start_order[i] = c.start_order[j];
		c.start_order[j] = t;
	}
	tt_error e;
	CHECK_EQ_INT(clinic_config_check(&c, &e), 0);
	clinic_game g;
	clinic_game_init(&g, &c);
	for (int step = 0; step < 50; step++) {
		clinic_game before;
		memcpy(&before, &g, sizeof g);
		int rc;
		if (pick(0, 7) == 0) {
			clinic_finish_input f = {.nentries = pick(c.nseats - 1, c.nseats)};
			for (int i = 0; i < f.nentries; i++) {
				f.e[i].seat = pick(0, 9) ? i + 1 : pick(0, 5);
				for (int k = 0; k < CL_DOCTORS; k++)
					f.e[i].doctors[k] = pick(0, 30) ? pick(0, 3) : pick(-1, 2);
				for (int k = 0; k < CL_FLOORS; k++)
					f.e[i].rooms[k] = pick(0, 2);
				for (int k = 0; k < CL_PATIENTS; k++)
					f.e[i].patients[k] = pick(0, 3);
				f.e[i].nurses = pick(0, 4);
				f.e[i].buildings = pick(0, 2);
				f.e[i].zombies = pick(0, 3) ? 0 : pick(0, 2);
				f.e[i].goal_achieved = pick(0, 1);
			}
			rc = clinic_finish_apply(&g, &f, &e);
		} else {
			int round =
			    pick(0, 9) ? clinic_rounds_complete(&g) + pick(0, 1) : pick(-1, 8);
			clinic_round_input in = {.nentries =
			                             pick(0, 3) ? c.nseats : pick(1, c.nseats)};
			for (int i = 0; i < in.nentries; i++) {
				in.e[i].seat = pick(0, 30) ? i + 1 : pick(0, 6);
				in.e[i].bought = pick(0, 4);
				in.e[i].lab_doctors = pick(0, 2);
				in.e[i].deaths = pick(0, 5) ? 0 : pick(pick(0, 9) ? 0 : -1, 2);
				in.e[i].unpaid = pick(0, 3) ? 0 : pick(0, 6);
				in.e[i].time_spent = pick(0, 6);
			}
			if (pick(0, 5) == 0) {
				in.has_order = true;
				in.norder = c.nseats;
				for (int i = 0; i < c.nseats; i++)
					in.order[i] = pick(0, 9) ? c.nseats - i : pick(0, 5);
			}
			rc = clinic_round_apply(&g, round, &in, &e);
		}
		if (rc != 0) {
			CHECK(memcmp(&before, &g, sizeof g) == 0);
			CHECK(e.rule != NULL &&
			      (e.status == 400 || e.status == 409 || e.status == 422));
			continue;
		}
		clinic_scores sc;
		clinic_score(&g, &sc);
		for (int s = 0; s < c.nseats; s++)
			check_items(sc.seat[s].items, sc.seat[s].nitems, sc.seat[s].total,
			            sc.seat[s].round_points, CL_ROUNDS);
		/* every turn order is a permutation of the seats */
		for (int r = 0; r <= CL_ROUNDS; r++) {
			int seen = 0;
			for (int i = 0; i < c.nseats; i++)
				seen |= 1 << sc.turn_order[r][i];
			CHECK_EQ_INT(seen, ((1 << (c.nseats + 1)) - 2));
		}
		/* ranks 1..n, all different (the turn order breaks every tie) */
		for (int i = 0; i < c.nseats; i++)
			CHECK_EQ_INT(sc.seat[sc.order[i] - 1].rank, i + 1);
	}
}

static void t_dh(void)
{
	for (int n = 0; n < 3000; n++)
		dh_random_game();
}

static void t_clinic(void)
{
	for (int n = 0; n < 3000; n++)
		clinic_random_game();
}

int main(void)
{
	TEST("dh/clinic property: profiles load", load);
	TEST("dh property: 3000 random games, refusals change nothing, totals = reasons, "
	     "standings consistent (seed 000 END GAME SCORING)",
	     t_dh);
	TEST("clinic property: 3000 random games, refusals change nothing, turn orders are "
	     "permutations, ranks 1..n (seed 001 Admin step 11, End of the Game)",
	     t_clinic);
	TEST_MAIN_END();
}
