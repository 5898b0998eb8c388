/* Rules benchmark (make bench, not a test): worst-case scoring time of each specialist and of a
 * whole er_score(), over adversarial and random full sheets, and simulated solo games per
 * second (ALICAT against a random legal player, through er_game). Prints a Markdown table. */
#include "er_fixture.h"
#include "rules/er.h"
#include "rules/er_game.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static er_data D;
static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* A full sheet whose values come from pick(bed). Not necessarily legal: specialists score any
 * arrangement (er_score_specialist does not validate). */
static void full_sheet(er_sheet *s, int (*pick)(int bed))
{
	memset(s, 0, sizeof *s);
	for (int w = 0; w < ER_WARDS; w++) {
		s->count[w] = (int8_t)D.wards[w].nbeds;
		for (int p = 0; p < D.wards[w].nbeds; p++) {
			int b = D.wards[w].first_bed + p;
			s->ward[w][p] = (er_patient){(int8_t)pick(b), (rnd() & 3) == 0, false};
		}
	}
}

static int pick_random(int bed)
{
	(void)bed;
	return 1 + (int)(rnd() % 6);
}
static int pick_one(int bed)
{
	(void)bed;
	return 1;
}
static int pick_parity(int bed)
{
	return 1 + (int)(rnd() % 3) * 2 + (D.beds[bed].hex / 100) % 2;
}
/* Values rising along rows and columns: many adjacent k, k+1 pairs (1-6 paths). */
static int pick_ramp(int bed)
{
	int row = D.beds[bed].hex / 100, col = D.beds[bed].hex % 100;
	return 1 + (row + col) % 6;
}
static int pick_ramp2(int bed)
{
	int row = D.beds[bed].hex / 100, col = D.beds[bed].hex % 100;
	return 1 + (row * 2 + col) % 6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

enum { SAMPLES = 20000, REPEAT = 5 };
static double times[SAMPLES];

static void bench_specialist(er_spec_id id)
{
	int (*picks[])(int) = {pick_one, pick_parity, pick_ramp, pick_ramp2, pick_random};
	double worst = 0;
	int worst_points = 0;
	for (int i = 0; i < SAMPLES; i++) {
		er_sheet s;
		full_sheet(&s, picks[i < 4 * 64 ? i / 64 : 4]);
		double best = 1e18;
		int pts = 0;
		for (int r = 0; r < REPEAT; r++) { /* the minimum of a few runs: less noise */
			double t0 = now_ns();
			pts = er_score_specialist(&D, &s, id, NULL);
			double dt = now_ns() - t0;
			if (dt < best)
				best = dt;
		}
		times[i] = best;
		if (best > worst) {
			worst = best;
			worst_points = pts;
		}
	}
	qsort(times, SAMPLES, sizeof times[0], cmp_double);
	printf("| %-20s | %8.2f | %8.2f | %8.2f | %6d |\n", D.specialists[id].code,
	       times[SAMPLES / 2] / 1e3, times[SAMPLES * 99 / 100] / 1e3, worst / 1e3,
	       worst_points);
}

static void bench_full_score(void)
{
	double worst = 0;
	for (int i = 0; i < SAMPLES; i++) {
		er_sheet s;
		er_breakdown b;
		er_details det;
		full_sheet(&s, pick_random);
		/* make it legal: screen every patient so any order is allowed */
		for (int w = 0; w < ER_WARDS; w++)
			for (int p = 0; p < s.count[w]; p++)
				s.ward[w][p].screen = true;
		s.steth_circled = 1;
		double best = 1e18;
		for (int r = 0; r < REPEAT; r++) {
			double t0 = now_ns();
			er_score(&D, &s, ER_RADIO_MATCHING_SET, ER_EPI_SEQUENCE_1_6, false, 0, &b,
			         &det);
			double dt = now_ns() - t0;
			if (dt < best)
				best = dt;
		}
		times[i] = best;
		if (best > worst)
			worst = best;
	}
	qsort(times, SAMPLES, sizeof times[0], cmp_double);
	printf("| %-20s | %8.2f | %8.2f | %8.2f | %6s |\n", "whole er_score()",
	       times[SAMPLES / 2] / 1e3, times[SAMPLES * 99 / 100] / 1e3, worst / 1e3, "-");
}

/* One solo game: the human takes a random listed option (other patient to the morgue). */
static int play_solo(uint64_t seed)
{
	static er_option opts[ER_MAX_OPTIONS];
	er_game_config cfg = {.nseats = 2, .solo = true, .app_deck = true, .seed = seed};
	er_game_draw_specialists(&D, seed, &cfg);
	if (er_game_config_finish(&D, &cfg).rule)
		return -1;
	er_game g;
	er_game_init(&g, &D, &cfg);
	while (!g.finished) {
		er_event ev = {.kind = ER_EV_REVEAL,
		               .seat = g.chief_seat,
		               .turn = g.turn + 1,
		               .alicat_discard = -1};
		er_game_app_reveal(&cfg, ev.turn, &ev.card, ev.dice);
		if (er_game_apply(&g, &D, &ev).rule)
			return -1;
		for (int k = 0; k < 2 && !g.finished && g.revealed; k++) {
			er_event bot;
			if (er_game_alicat_next(&g, &D, &bot)) {
				if (er_game_apply(&g, &D, &bot).rule)
					return -1;
				continue;
			}
			if (g.moved[0])
				continue;
			er_turn t;
			er_game_turn_for(&g, 1, &t);
			int n = er_move_options(&D, &t, &g.sheets[0], false, opts, ER_MAX_OPTIONS);
			er_event mv = {
			    .kind = ER_EV_MOVE, .seat = 1, .turn = g.turn, .alicat_discard = -1};
			if (n > 0) {
				er_move_from_option(&D, &t, &opts[rnd() % (uint64_t)n], &mv.move);
			} else { /* nothing fits: a die the human may take, to the morgue */
				er_colour die =
				    t.chief ? ER_RED : (er_colour)((t.chief_die + 1) % 3);
				mv.move = (er_move){.die = die, .nsteps = 1};
				mv.move.steps[0] = (er_step){.kind = ER_STEP_MORGUE,
				                             .patient = ER_PT_DIE,
				                             .recolour = ER_NO_COLOUR};
				if (D.cards[t.card - 1].bay[die].kind == ER_BONUS_EXTRA)
					mv.move.steps[mv.move.nsteps++] =
					    (er_step){.kind = ER_STEP_MORGUE,
					              .patient = ER_PT_EXTRA,
					              .recolour = ER_NO_COLOUR};
			}
			if (er_game_apply(&g, &D, &mv).rule)
				return -1;
		}
		/* when ALICAT is not chief it moves after the human: loop again */
		er_event bot;
		while (!g.finished && er_game_alicat_next(&g, &D, &bot))
			if (er_game_apply(&g, &D, &bot).rule)
				return -1;
	}
	return 0;
}

static void bench_solo_games(void)
{
	int games = 0, failed = 0;
	double t0 = now_ns();
	while (now_ns() - t0 < 3e9) {
		if (play_solo((uint64_t)games + 1) != 0)
			failed++;
		games++;
	}
	double secs = (now_ns() - t0) / 1e9;
	printf("\nsolo games (ALICAT vs a random legal player, er_game): %d games in %.2f s = "
	       "%.0f games/s (%d failed)\n",
	       games, secs, games / secs, failed);
}

int main(void)
{
	if (er_fixture_load(&D) != 0)
		return 1;
	printf("Worst-case scoring time per sheet (µs; %d full sheets: adversarial patterns and "
	       "random; min of %d runs each)\n\n",
	       SAMPLES, REPEAT);
	printf("| %-20s | %8s | %8s | %8s | %6s |\n", "specialist", "median", "p99", "worst",
	       "points");
	printf("|----------------------|----------|----------|----------|--------|\n");
	for (int id = ER_RADIO_CRITICAL_HALF; id <= ER_EPI_ODD_EVEN_TRIANGLES; id++)
		bench_specialist((er_spec_id)id);
	bench_full_score();
	bench_solo_games();
	return 0;
}
