/* er_move_options and er_move_from_option: the rulebook's example, the options' costs, screens
 * and extra patients, the steps an option stands for, and a property test tying the options to
 * er_move_apply over random reachable sheets. Citations and the printed data the tests use:
 * er_moves_fixture.h. */
#include <stdint.h>
#include <stdlib.h>

#include "er_fixture.h"
#include "er_moves_fixture.h"
#include "test.h"

static er_data D;

/* seed003 ADMIT PATIENT example: "You admit a green patient die of value 3 …" — ✓ beds are
 * green or wild and next to the lobby or after a lower value; ✗ beds are the wrong colour or
 * after a value ≥ 3. Wards (next bed): W1 empty (wild) ✓; W2 1 (yellow) ✗ colour; W3 2 (wild) ✓;
 * W4 1 (yellow) ✗ colour; W5 3 (wild) ✗ equal; W6 1 (green) ✓; W7 5 (wild) ✗ greater. */
static void test_green_3_example(void)
{
	static const char *const rules[ER_WARDS] = {NULL,
	                                            ER_RULE_COLOUR_MISMATCH,
	                                            NULL,
	                                            ER_RULE_COLOUR_MISMATCH,
	                                            ER_RULE_VALUE_NOT_INCREASING,
	                                            NULL,
	                                            ER_RULE_VALUE_NOT_INCREASING};
	er_sheet s0;
	CHECK(er_fixture_sheet(&D, &s0, "|1|2|1|3|1|5") == 0);
	s0.steth_used = 1; /* no stethoscope left: write the rolled 3 */
	er_turn t = {.card = 9, .dice = {1, 1, 3}, .chief = true, .chief_die = ER_NO_COLOUR};
	er_option opts[ER_MAX_OPTIONS];
	int n = er_move_options(&D, &t, &s0, false, opts, ER_MAX_OPTIONS);
	for (int w = 0; w < ER_WARDS; w++) {
		er_sheet s = s0;
		er_move m = {.die = ER_GREEN, STEPS(ADMIT(DIE, w + 1, 3))};
		er_result r = er_move_apply(&D, &t, &m, false, &s);
		CHECK_STR(r.rule, rules[w]);
		int listed = 0;
		for (int i = 0; i < n; i++)
			listed +=
			    opts[i].die == ER_GREEN && opts[i].ward == w && opts[i].value == 3;
		CHECK_EQ_INT(listed, rules[w] == NULL);
	}
}
static const er_option *find_opt(const er_option *o, int n, er_colour die, er_pt p, int w, int v)
{
	for (int i = 0; i < n; i++)
		if (o[i].die == die && o[i].patient == p && o[i].ward == w && o[i].value == v)
			return &o[i];
	return NULL;
}

/* Options: the chief's die only with a blood bag held before the turn; costs are minimal. */
static void test_options_chief_and_costs(void)
{
	er_sheet s;
	er_option o[ER_MAX_OPTIONS];
	CHECK(er_fixture_sheet(&D, &s, "") == 0);
	/* card 3: red blood_bag, yellow screen, green nurse; the chief took red */
	er_turn t = {.card = 3, .dice = {3, 4, 5}, .chief = false, .chief_die = ER_RED};
	int n = er_move_options(&D, &t, &s, false, o, ER_MAX_OPTIONS);
	for (int i = 0; i < n; i++)
		CHECK(o[i].die != ER_RED); /* its own blood bag cannot pay for it */
	s.blood_circled = 1;
	n = er_move_options(&D, &t, &s, false, o, ER_MAX_OPTIONS);
	const er_option *a = find_opt(o, n, ER_RED, ER_PT_DIE, 2, 3); /* W3 red bed */
	CHECK(a && a->blood_bags == 1 && a->recolour == ER_NO_COLOUR && a->stethoscopes == 0);
	/* W2's green bed: chief bag + the bag gained with the die pays the recolour */
	a = find_opt(o, n, ER_RED, ER_PT_DIE, 1, 3);
	CHECK(a && a->blood_bags == 2 && a->recolour == ER_GREEN);
	/* stethoscopes: 1 held; green 5 as 4 or 6 costs 1, as 3 is out of reach */
	a = find_opt(o, n, ER_GREEN, ER_PT_DIE, 0, 4);
	CHECK(a && a->stethoscopes == 1 && a->blood_bags == 0);
	CHECK(find_opt(o, n, ER_GREEN, ER_PT_DIE, 0, 3) == NULL);
	/* truncation at max */
	CHECK_EQ_INT(er_move_options(&D, &t, &s, false, o, 3), 3);
	/* an invalid turn gives no options */
	er_turn bad = t;
	bad.card = 0;
	CHECK_EQ_INT(er_move_options(&D, &bad, &s, false, o, ER_MAX_OPTIONS), 0);
}

/* Options: screen_first only for the screen die, only where the screen is needed. */
static void test_options_screen_first(void)
{
	er_sheet s;
	er_option o[ER_MAX_OPTIONS];
	CHECK(er_fixture_sheet(&D, &s, "||5") == 0);
	er_turn t = {.card = 9, .dice = {1, 1, 1}, .chief = true, .chief_die = ER_NO_COLOUR};
	int n = er_move_options(&D, &t, &s, false, o, ER_MAX_OPTIONS);
	const er_option *a = find_opt(o, n, ER_RED, ER_PT_DIE, 2, 1);
	CHECK(a && a->screen_first);
	a = find_opt(o, n, ER_RED, ER_PT_DIE, 0, 1);
	CHECK(a && !a->screen_first);
	CHECK(find_opt(o, n, ER_YELLOW, ER_PT_DIE, 2, 1) == NULL); /* nurse die: no screen */
	/* one option per (die, patient, ward, value, screen_first) */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			CHECK(!(o[i].die == o[j].die && o[i].patient == o[j].patient &&
			        o[i].ward == o[j].ward && o[i].value == o[j].value &&
			        o[i].screen_first == o[j].screen_first));
}

/* Options: the extra patient's values and colour. */
static void test_options_extra(void)
{
	er_sheet s;
	er_option o[ER_MAX_OPTIONS];
	CHECK(er_fixture_sheet(&D, &s, "") == 0);
	s.steth_used = 1;
	er_turn t = {.card = 1, .dice = {3, 4, 5}, .chief = true, .chief_die = ER_NO_COLOUR};
	int n = er_move_options(&D, &t, &s, false, o, ER_MAX_OPTIONS);
	for (int i = 0; i < n; i++) {
		if (o[i].patient != ER_PT_EXTRA)
			continue;
		CHECK(o[i].die == ER_YELLOW);
		CHECK(o[i].value == 1 || o[i].value == 2);
		CHECK(o[i].recolour == ER_NO_COLOUR); /* no blood bag */
	}
	CHECK(find_opt(o, n, ER_YELLOW, ER_PT_EXTRA, 2, 1) != NULL); /* W3 red bed */
	CHECK(find_opt(o, n, ER_YELLOW, ER_PT_EXTRA, 1, 1) == NULL); /* W2 green bed */
}

/* er_move_from_option: exactly the steps an option stands for (seed003 SCREEN "before or after";
 * EXTRA PATIENT "you must also admit" — here the other patient goes to the morgue). */
static bool moves_equal(const er_move *a, const er_move *b)
{
	if (a->die != b->die || a->nsteps != b->nsteps)
		return false;
	for (int i = 0; i < a->nsteps; i++) {
		const er_step *x = &a->steps[i], *y = &b->steps[i];
		if (x->kind != y->kind || x->ward != y->ward || x->recolour != y->recolour ||
		    (x->kind != ER_STEP_SCREEN && x->patient != y->patient) ||
		    (x->kind == ER_STEP_ADMIT && x->value != y->value))
			return false;
	}
	return true;
}

static void test_move_from_option(void)
{
	/* card 1: yellow bay = extra red 1/2 */
	er_turn t = {.card = 1, .dice = {3, 4, 5}, .chief = true, .chief_die = ER_NO_COLOUR};
	er_option extra = {.die = ER_YELLOW,
	                   .patient = ER_PT_EXTRA,
	                   .ward = 2,
	                   .value = 2,
	                   .recolour = ER_NO_COLOUR,
	                   .screen_first = true};
	er_move m, want = {.die = ER_YELLOW,
	                   .nsteps = 3,
	                   .steps = {SCREEN(3), ADMIT(ER_PT_EXTRA, 3, 2), MORGUE(ER_PT_DIE)}};
	er_move_from_option(&D, &t, &extra, &m);
	CHECK(moves_equal(&m, &want));
	/* card 1: red bay = critical, no extra: the admission alone, its recolour kept */
	er_option plain = {
	    .die = ER_RED, .patient = ER_PT_DIE, .ward = 1, .value = 4, .recolour = ER_GREEN};
	er_move want2 = {
	    .die = ER_RED, .nsteps = 1, .steps = {ADMIT_RC(ER_PT_DIE, 2, 4, ER_GREEN)}};
	er_move_from_option(&D, &t, &plain, &m);
	CHECK(moves_equal(&m, &want2));
}

/* ---- property test ---- */

static uint64_t rng_state;
static uint32_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return (uint32_t)(x >> 32);
}
static int rnd_below(int n)
{
	return (int)(rnd() % (uint32_t)n);
}

static void random_turn(er_turn *t)
{
	t->card = 1 + rnd_below(ER_CARDS);
	for (int i = 0; i < 3; i++)
		t->dice[i] = (int8_t)(1 + rnd_below(6));
	t->chief = rnd_below(2);
	t->chief_die = t->chief ? ER_NO_COLOUR : (er_colour)(rnd_below(4) - 1);
}

static long prop_positions, prop_moves, prop_accepted;

/* One admission variant (die, patient, ward, value, recolour, screen first or not): accepted
 * by apply exactly when an option covers it (same admission, no screen needed or screened),
 * and then at no lower cost than the option. */
static void check_variant(const er_sheet *s, const er_turn *t, bool alicat, const er_option *o,
                          int n, const er_option *want)
{
	er_move m;
	er_sheet c = *s;
	er_move_from_option(&D, t, want, &m);
	er_result r = er_move_apply(&D, t, &m, alicat, &c);
	prop_moves++;
	const er_option *cover = NULL;
	for (int i = 0; i < n; i++)
		if (o[i].die == want->die && o[i].patient == want->patient &&
		    o[i].ward == want->ward && o[i].value == want->value &&
		    (!o[i].screen_first || want->screen_first))
			cover = &o[i];
	if (r.rule) {
		if (cover && cover->recolour == want->recolour &&
		    cover->screen_first == want->screen_first) {
			printf("  listed but rejected: %s\n", r.detail);
			test_failed_now = 1;
		}
		return;
	}
	prop_accepted++;
	if (!cover) {
		printf("  accepted but not listed: die %d pt %d ward %d value %d rc %d scr %d\n",
		       want->die, want->patient, want->ward + 1, want->value, want->recolour,
		       want->screen_first);
		test_failed_now = 1;
		return;
	}
	CHECK(c.blood_used - s->blood_used >= cover->blood_bags);
	CHECK_EQ_INT(c.steth_used - s->steth_used, cover->stethoscopes);
}

/* Checks one position: every option is accepted with its cost; every admission variant not
 * covered by an option is rejected; none accepted costs less than its option. */
static void check_position(const er_sheet *s, const er_turn *t, bool alicat, unsigned mods)
{
	er_option o[ER_MAX_OPTIONS];
	int n = er_move_options(&D, t, s, alicat, o, ER_MAX_OPTIONS);
	CHECK(n < ER_MAX_OPTIONS);
	prop_positions++;
	for (int i = 0; i < n; i++) {
		er_move m;
		er_sheet c = *s;
		er_move_from_option(&D, t, &o[i], &m);
		er_result r = er_move_apply(&D, t, &m, alicat, &c);
		if (r.rule) {
			printf("  option rejected: die %d pt %d ward %d value %d sf %d: %s (%s)\n",
			       o[i].die, o[i].patient, o[i].ward + 1, o[i].value, o[i].screen_first,
			       r.rule, r.detail);
			test_failed_now = 1;
			continue;
		}
		CHECK_EQ_INT(c.steth_used - s->steth_used, o[i].stethoscopes);
		CHECK_EQ_INT(c.blood_used - s->blood_used, o[i].blood_bags);
		CHECK_EQ_INT(c.ward[o[i].ward][c.count[o[i].ward] - 1].value, o[i].value);
		CHECK_STR(er_sheet_validate(&D, &c, alicat, mods).rule, NULL);
	}
	const er_colour rcs[4] = {ER_NO_COLOUR, ER_RED, ER_YELLOW, ER_GREEN};
	for (int di = 0; di < ER_DICE; di++) {
		const er_bonus *b = &D.cards[t->card - 1].bay[di];
		int npt = b->kind == ER_BONUS_EXTRA ? 2 : 1;
		for (int p = 0; p < npt; p++)
			for (int w = 0; w < ER_WARDS; w++)
				for (int v = 1; v <= 6; v++)
					for (int k = 0; k < 8; k++) {
						bool scr = k & 1;
						if (scr && (b->kind != ER_BONUS_SCREEN ||
						            s->count[w] == 0))
							continue;
						er_option want = {.die = (er_colour)di,
						                  .patient = (er_pt)p,
						                  .ward = (int8_t)w,
						                  .value = (int8_t)v,
						                  .recolour = rcs[k >> 1],
						                  .screen_first = scr};
						check_variant(s, t, alicat, o, n, &want);
					}
	}
}

/* Plays random legal games from er_sheet_init: at each turn checks the position, then applies
 * a random option (or the morgue), sometimes with an extra screen. */
static void property_games(bool alicat)
{
	rng_state = alicat ? 0x9e3779b97f4a7c15ull : 0x2545f4914f6cdd1dull;
	long start_positions = prop_positions;
	for (int g = 0; g < 120; g++) {
		unsigned mods = alicat && rnd_below(2) ? ER_MOD_PREPARATION : 0;
		er_sheet s;
		er_sheet_init(&s, &D, alicat, mods);
		CHECK_STR(er_sheet_validate(&D, &s, alicat, mods).rule, NULL);
		for (int turn = 0; turn < 24; turn++) {
			er_turn t;
			random_turn(&t);
			check_position(&s, &t, alicat, mods);
			er_option o[ER_MAX_OPTIONS];
			int n = er_move_options(&D, &t, &s, alicat, o, ER_MAX_OPTIONS);
			er_move m;
			if (n > 0) {
				const er_option *pick = &o[rnd_below(n)];
				er_move_from_option(&D, &t, pick, &m);
				const er_bonus *b = &D.cards[t.card - 1].bay[pick->die];
				/* a screen after the admission, on a random non-empty ward */
				if (b->kind == ER_BONUS_SCREEN && !pick->screen_first &&
				    rnd_below(2)) {
					int w = rnd_below(ER_WARDS);
					if (s.count[w] > 0 || w == pick->ward)
						m.steps[m.nsteps++] = (er_step)SCREEN(w + 1);
				}
			} else {
				er_colour die = (er_colour)rnd_below(3);
				if (!t.chief && t.chief_die == die)
					die = (er_colour)((die + 1) % 3);
				m = (er_move){.die = die, STEPS(MORGUE(DIE))};
				if (D.cards[t.card - 1].bay[die].kind == ER_BONUS_EXTRA)
					m.steps[m.nsteps++] = (er_step)MORGUE(EXTRA);
			}
			er_result r = er_move_apply(&D, &t, &m, alicat, &s);
			CHECK_STR(r.rule, NULL);
			if (r.rule)
				printf("  %s\n", r.detail);
			er_result v = er_sheet_validate(&D, &s, alicat, mods);
			CHECK_STR(v.rule, NULL);
			if (v.rule)
				printf("  %s\n", v.detail);
			if (test_failed_now)
				return;
		}
	}
	CHECK(prop_positions - start_positions >= 2000);
}

static void test_property_human(void)
{
	property_games(false);
}
static void test_property_alicat(void)
{
	property_games(true);
}

int main(void)
{
	if (er_fixture_load(&D) != 0) {
		printf("FAIL er_fixture_load\n");
		return 1;
	}
	TEST("seed003 ADMIT PATIENT example: a green 3 fits only the beds marked with a tick",
	     test_green_3_example);
	TEST("seed003 USING BLOOD BAGS: options for the chief's die and minimal costs",
	     test_options_chief_and_costs);
	TEST("seed003 SCREEN: options with screen_first only where the screen is needed",
	     test_options_screen_first);
	TEST("seed003 EXTRA PATIENT: options for the extra patient", test_options_extra);
	TEST("er_move_from_option: screen first, the admission, the other patient to the morgue",
	     test_move_from_option);
	TEST("property: options and apply agree over 2880 random human positions",
	     test_property_human);
	TEST("property: options and apply agree over 2880 random ALICAT positions",
	     test_property_alicat);
	printf("  (%ld positions, %ld move variants, %ld accepted)\n", prop_positions, prop_moves,
	       prop_accepted);
	TEST_MAIN_END();
}
