/* Property test of the ER rules engine (engineering.md "Testing"): thousands of seeded random
 * games, 2–6 players and solo (seed 003, GETTING READY / HOW TO PLAY / SOLO MODE), played
 * through er_move_apply(). For every move it checks that
 *   - a move built from any listed option is accepted (options ⊆ apply),
 *   - a random plain admission is accepted exactly when options list it without a recolour
 *     (apply ⊆ options),
 *   - a rejected move leaves the sheet untouched, every reached sheet validates,
 *   - ALICAT's move is accepted by apply with ALICAT's rules,
 * and at the end of each game that every sheet scores, the breakdown adds up to the total and
 * the Cardiologist race never pays a seat twice for one card.
 * PROPERTY_GAMES (env) overrides the number of games (default 10000). */
#include "er_fixture.h"
#include "rules/er.h"
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int rnd_below(int n)
{
	return (int)(rnd() % (uint64_t)n);
}

static er_data D;
static er_option opts[ER_MAX_OPTIONS];
static long n_moves, n_alicat, n_rejected_ok, n_scored;

static bool sheets_equal(const er_sheet *a, const er_sheet *b)
{
	return memcmp(a, b, sizeof *a) == 0;
}

static bool option_lists(int nopts, er_colour die, int ward, int value)
{
	for (int i = 0; i < nopts; i++)
		if (opts[i].die == die && opts[i].patient == ER_PT_DIE && opts[i].ward == ward &&
		    opts[i].value == value && !opts[i].screen_first &&
		    opts[i].recolour == ER_NO_COLOUR)
			return true;
	return false;
}

/* apply ⊆ options: one random plain admission of the die patient. */
static void check_random_admission(const er_turn *t, const er_sheet *s, bool alicat, int nopts)
{
	er_colour die = (er_colour)rnd_below(ER_DICE);
	int ward = rnd_below(ER_WARDS), value = 1 + rnd_below(6);
	er_move m = {.die = die, .nsteps = 1};
	m.steps[0] = (er_step){ER_STEP_ADMIT, ER_PT_DIE, (int8_t)ward, (int8_t)value, ER_NO_COLOUR};
	if (D.cards[t->card - 1].bay[die].kind == ER_BONUS_EXTRA)
		m.steps[m.nsteps++] = (er_step){ER_STEP_MORGUE, ER_PT_EXTRA, 0, 0, ER_NO_COLOUR};
	er_sheet copy = *s;
	er_result r = er_move_apply(&D, t, &m, alicat, &copy);
	bool listed = option_lists(nopts, die, ward, value);
	if ((r.rule == NULL) != listed) {
		printf("  options/apply disagree: die %d ward %d value %d: apply %s, listed %d\n",
		       die, ward + 1, value, r.rule ? r.rule : "ok", listed);
		test_failed_now = 1;
	}
	if (r.rule) {
		CHECK(sheets_equal(&copy, s));
		n_rejected_ok++;
	}
}

/* One player's move: a random listed option (sometimes the morgue), checked both ways. */
static er_colour play_seat(const er_turn *t, er_sheet *s, bool alicat)
{
	int nopts = er_move_options(&D, t, s, alicat, opts, ER_MAX_OPTIONS);
	check_random_admission(t, s, alicat, nopts);
	er_move m;
	if (nopts > 0 && rnd_below(20) != 0) {
		er_move_from_option(&D, t, &opts[rnd_below(nopts)], &m);
	} else {
		/* nothing fits, or a deliberate morgue: a die the seat may take */
		er_colour die;
		do
			die = (er_colour)rnd_below(ER_DICE);
		while (!t->chief && die == t->chief_die);
		memset(&m, 0, sizeof m);
		m.die = die;
		m.steps[m.nsteps++] = (er_step){ER_STEP_MORGUE, ER_PT_DIE, 0, 0, ER_NO_COLOUR};
		if (D.cards[t->card - 1].bay[die].kind == ER_BONUS_EXTRA)
			m.steps[m.nsteps++] =
			    (er_step){ER_STEP_MORGUE, ER_PT_EXTRA, 0, 0, ER_NO_COLOUR};
	}
	er_result r = er_move_apply(&D, t, &m, alicat, s);
	if (r.rule) {
		printf("  a move built from an option was rejected: %s (%s)\n", r.rule, r.detail);
		test_failed_now = 1;
	}
	n_moves++;
	return m.die;
}

static void check_sheet_scores(const er_sheet *s, bool alicat, unsigned mods)
{
	static const er_spec_id radios[] = {ER_RADIO_CRITICAL_HALF, ER_RADIO_EXTREME_TOTAL,
	                                    ER_RADIO_HIGH_VALUES, ER_RADIO_OPPOSITE_PAIRS,
	                                    ER_RADIO_MATCHING_SET};
	static const er_spec_id epis[] = {ER_EPI_SEQUENCE_1_6, ER_EPI_LINE_OF_3,
	                                  ER_EPI_LARGEST_GROUP, ER_EPI_MOST_LEAST_COMMON,
	                                  ER_EPI_ODD_EVEN_TRIANGLES};
	er_breakdown b;
	er_details det;
	er_result r =
	    er_score(&D, s, radios[rnd_below(5)], epis[rnd_below(5)], alicat, mods, &b, &det);
	if (r.rule) {
		printf("  a reachable sheet does not score: %s (%s)\n", r.rule, r.detail);
		test_failed_now = 1;
		return;
	}
	CHECK_EQ_INT(b.filled_wards + b.critical + b.nurses + b.cardiologists + b.radiologist +
	                 b.epidemiologist + b.morgue + b.modifiers,
	             b.total);
	CHECK(b.morgue <= 0 && b.morgue >= -4);
	n_scored++;
}

static void cardio_check(er_cardio_race *race, const er_spec_id cardio[2], er_sheet *sheets,
                         int nseats)
{
	bool met[6][2];
	int16_t already[6][2], award[6][2];
	for (int i = 0; i < nseats; i++)
		for (int k = 0; k < 2; k++) {
			met[i][k] = er_cardio_goal_met(&D, &sheets[i], cardio[k]);
			already[i][k] = sheets[i].cardiologists[k];
		}
	er_cardio_race_turn(race, nseats, met, already, award);
	for (int i = 0; i < nseats; i++)
		for (int k = 0; k < 2; k++) {
			CHECK(award[i][k] == 0 || already[i][k] == 0); /* never twice */
			sheets[i].cardiologists[k] += award[i][k];
		}
}

static void play_game(int nplayers, bool solo)
{
	int nseats = solo ? 2 : nplayers;
	unsigned mods = solo ? (unsigned)rnd_below(16) : 0;
	er_sheet sheets[6];
	int deck[ER_CARDS];
	for (int i = 0; i < ER_CARDS; i++)
		deck[i] = i + 1;
	for (int i = ER_CARDS - 1; i > 0; i--) { /* GETTING READY 2: shuffle */
		int j = rnd_below(i + 1), tmp = deck[i];
		deck[i] = deck[j];
		deck[j] = tmp;
	}
	int nturns = nplayers == 5 ? D.turns_five_players : D.turns_default;
	for (int i = 0; i < nseats; i++)
		er_sheet_init(&sheets[i], &D, solo && i == 1, mods);
	er_cardio_race race;
	er_cardio_race_init(&race, nseats);
	er_spec_id cardio[2] = {(er_spec_id)rnd_below(6), ER_SPEC_NONE};
	do
		cardio[1] = (er_spec_id)rnd_below(6);
	while (cardio[1] == cardio[0]);
	for (int turn = 0; turn < nturns; turn++) {
		int chief = turn % nseats;
		er_turn t = {.card = deck[turn], .chief = true, .chief_die = ER_NO_COLOUR};
		for (int c = 0; c < ER_DICE; c++)
			t.dice[c] = (int8_t)(1 + rnd_below(6));
		er_colour chief_die = ER_NO_COLOUR;
		for (int k = 0; k < nseats; k++) {
			int seat = (chief + k) % nseats; /* the chief first, then clockwise */
			er_turn ts = t;
			ts.chief = seat == chief;
			ts.chief_die = ts.chief ? ER_NO_COLOUR : chief_die;
			er_colour die;
			if (solo && seat == 1) {
				er_move m;
				er_result r =
				    er_alicat_move(&D, &sheets[1], &ts, turn == nturns - 1, &m);
				if (r.rule == NULL)
					r = er_move_apply(&D, &ts, &m, true, &sheets[1]);
				if (r.rule) {
					printf("  ALICAT's move is illegal: %s (%s)\n", r.rule,
					       r.detail);
					test_failed_now = 1;
					return;
				}
				die = m.die;
				n_alicat++;
			} else {
				die = play_seat(&ts, &sheets[seat], false);
			}
			if (seat == chief)
				chief_die = die;
			er_result v = er_sheet_validate(&D, &sheets[seat], solo && seat == 1, mods);
			if (v.rule) {
				printf("  a reached sheet is invalid: %s (%s)\n", v.rule, v.detail);
				test_failed_now = 1;
				return;
			}
		}
		if (!solo)
			cardio_check(&race, cardio, sheets, nseats);
		if (test_failed_now)
			return;
	}
	for (int i = 0; i < nseats; i++)
		check_sheet_scores(&sheets[i], solo && i == 1, mods);
}

static int n_games = 10000;

static void test_random_games(void)
{
	for (int g = 0; g < n_games && !test_failed_now; g++) {
		rng_state = 0x9E3779B97F4A7C15ull ^ (uint64_t)(g + 1) * 0xD1B54A32D192ED03ull;
		int kind = g % 6; /* 0: solo, 1..5: 2..6 players */
		play_game(kind == 0 ? 1 : kind + 1, kind == 0);
		if (test_failed_now)
			printf("  game %d failed\n", g);
	}
	printf("  %d games, %ld moves, %ld ALICAT moves, %ld rejected admissions left the "
	       "sheet intact, %ld sheets scored\n",
	       n_games, n_moves, n_alicat, n_rejected_ok, n_scored);
	CHECK(n_moves > (long)n_games * 24);
}

int main(void)
{
	if (er_fixture_load(&D) != 0)
		return 1;
	const char *env = getenv("PROPERTY_GAMES");
	if (env && atoi(env) > 0)
		n_games = atoi(env);
	TEST("seed003 property: random 2-6 player and solo games agree with options, validate and "
	     "score",
	     test_random_games);
	TEST_MAIN_END();
}
