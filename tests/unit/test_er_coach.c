/* The ER coach (src/rules/er_coach.h): the beam search over a finished game's turns on the rules
 * engine (ER rulebook "HOW TO PLAY", "END OF THE GAME", "CARDIOLOGISTS", "SOLO MODE /
 * CARDIOLOGISTS"). Every claim of the coach is checked on seeded games played through
 * er_game_apply: best ≥ the player's and the greedy line, monotone in the width, every best
 * move legal by er_move_apply, the score reproduced by er_score, per-turn costs ≥ 0 summing to
 * best − player, determinism, the deadline. COACH_GAMES (env) sets the number of games. */
#include "coach_fixture.h"
#include "test.h"

#include <stdlib.h>

static er_data D;
static int ngames = 24;

static er_coach_result *res_a, *res_b;

static void game_of(int i, coach_fixture_game *fg, er_coach_game *cg)
{
	bool solo = i % 3 == 0;
	int nseats = 2 + i % 3;
	if (coach_fixture_play(&D, fg, nseats, solo, 1000 + (uint64_t)i) != 0) {
		printf("  game %d could not be played\n", i);
		test_failed_now = 1;
	}
	int done = er_coach_game_from_log(&D, &fg->cfg, fg->ev, fg->n, 1, cg);
	CHECK_EQ_INT(done, fg->cfg.nturns);
}

/* Replays a line through er_move_apply with the race, as the coach's reader would. */
static int replay_total(const er_coach_game *g, const er_coach_line *l, bool *legal)
{
	er_sheet s;
	er_sheet_init(&s, &D, false, 0);
	*legal = true;
	for (int t = 0; t < g->nturns; t++) {
		if (er_move_apply(&D, &g->turns[t], &l->moves[t], false, &s).rule) {
			*legal = false;
			return -1000;
		}
		/* the race's points of this turn, as the coach reports them per step */
		s.cardiologists[0] = l->sheets[t].cardiologists[0];
		s.cardiologists[1] = l->sheets[t].cardiologists[1];
		if (!er_coach_sheet_eq(&s, &l->sheets[t]))
			*legal = false;
	}
	er_breakdown b;
	if (er_score(&D, &s, g->radiologist, g->epidemiologist, false, 0, &b, NULL).rule)
		return -1000;
	return b.total;
}

/* "CARDIOLOGISTS", "SOLO MODE / CARDIOLOGISTS": the race re-run from the log gives the
 * player's real sheet, Cardiologist points included. */
static void test_log_reconstructs_real_sheet(void)
{
	static coach_fixture_game fg;
	static er_coach_game cg;
	for (int i = 0; i < 12; i++) {
		game_of(i, &fg, &cg);
		er_coach_opts o = {.width = 1};
		er_result r = er_coach_analyse(&D, &cg, &o, res_a);
		CHECK_STR(r.rule, NULL);
		if (!er_coach_sheet_eq(&res_a->player.sheets[cg.nturns - 1], &fg.g.sheets[0])) {
			printf("  game %d: cardiologists %d/%d, real %d/%d\n", i,
			       res_a->player.sheets[cg.nturns - 1].cardiologists[0],
			       res_a->player.sheets[cg.nturns - 1].cardiologists[1],
			       fg.g.sheets[0].cardiologists[0], fg.g.sheets[0].cardiologists[1]);
			test_failed_now = 1;
		}
		er_breakdown sc[ER_MAX_SEATS];
		er_game_scores(&fg.g, &D, sc, NULL);
		CHECK_EQ_INT(res_a->player.score.total, sc[0].total);
	}
}

/* Every whole move listed is legal (er_move_apply) and gives a distinct sheet; every
 * admission of er_move_options is among them ("ADMIT PATIENT", "MORGUE"). */
static void test_moves_all(void)
{
	static coach_fixture_game fg;
	static er_move mv[ER_COACH_MAX_MOVES];
	static er_sheet sh[ER_COACH_MAX_MOVES];
	static er_option opts[ER_MAX_OPTIONS];
	static er_coach_game cg;
	long listed = 0;
	for (int i = 0; i < 6; i++) {
		game_of(i, &fg, &cg);
		er_sheet s;
		er_sheet_init(&s, &D, false, 0);
		for (int t = 0; t < cg.nturns; t++) {
			int n = er_moves_all(&D, &cg.turns[t], &s, mv, sh, ER_COACH_MAX_MOVES);
			CHECK(n > 0 && n < ER_COACH_MAX_MOVES);
			listed += n;
			for (int j = 0; j < n; j++) {
				er_sheet c = s;
				CHECK_STR(er_move_apply(&D, &cg.turns[t], &mv[j], false, &c).rule,
				          NULL);
				CHECK(er_coach_sheet_eq(&c, &sh[j]));
				for (int k = 0; k < j; k++)
					CHECK(!er_coach_sheet_eq(&sh[k], &sh[j]));
			}
			int no = er_move_options(&D, &cg.turns[t], &s, false, opts, ER_MAX_OPTIONS);
			for (int k = 0; k < no; k++) {
				er_move m;
				er_move_from_option(&D, &cg.turns[t], &opts[k], &m);
				er_sheet c = s;
				if (er_move_apply(&D, &cg.turns[t], &m, false, &c).rule)
					continue;
				bool found = false;
				for (int j = 0; j < n && !found; j++)
					found = er_coach_sheet_eq(&c, &sh[j]);
				CHECK(found);
			}
			CHECK_STR(er_move_apply(&D, &cg.turns[t], &cg.moves[t], false, &s).rule,
			          NULL);
		}
	}
	CHECK(listed > 0);
}

static void check_result(const er_coach_game *cg, const er_coach_result *r)
{
	bool legal;
	int best = r->best.score.total;
	CHECK(r->complete);
	CHECK(best >= r->player.score.total);
	CHECK(best >= r->greedy.score.total);
	CHECK_EQ_INT(replay_total(cg, &r->best, &legal), best);
	CHECK(legal);
	CHECK_EQ_INT(replay_total(cg, &r->greedy, &legal), r->greedy.score.total);
	CHECK(legal);
	if (r->searched_turns == cg->nturns) {
		int sum = 0;
		for (int t = 0; t < cg->nturns; t++) {
			CHECK(r->has_cost[t]);
			CHECK(r->cost[t] >= 0);
			sum += r->cost[t];
		}
		CHECK_EQ_INT(sum, best - r->player.score.total);
	}
}

/* best ≥ player, ≥ greedy; replayed and rescored; costs ≥ 0 summing to best − player. */
static void test_best_claims(void)
{
	static coach_fixture_game fg;
	static er_coach_game cg;
	for (int i = 0; i < ngames; i++) {
		game_of(i, &fg, &cg);
		er_coach_opts o = {.width = 4, .costs = true};
		er_result r = er_coach_analyse(&D, &cg, &o, res_a);
		CHECK_STR(r.rule, NULL);
		CHECK_EQ_INT(res_a->searched_turns, cg.nturns);
		check_result(&cg, res_a);
	}
}

/* Widths 1, 8, 64 (and 256 on two games): the best never decreases, with the per-turn costs as
 * the API asks for them (their C(0) can raise a width's best) and without. */
static void test_monotone_in_width(void)
{
	static coach_fixture_game fg;
	static er_coach_game cg;
	/* with costs: four games and game 33, where a width's best with costs once fell below the
	 * narrower width's */
	for (int costs = 0; costs < 2; costs++)
		for (int k = 0, n = costs ? 4 : ngames / 2; k <= n; k++) {
			int i = k < n ? k : 33;
			game_of(i, &fg, &cg);
			int prev = -1000;
			static const int widths[] = {1, 8, 64, 256};
			for (int w = 0; w < (i < 2 && !costs ? 4 : 3); w++) {
				er_coach_opts o = {.width = widths[w], .costs = costs};
				CHECK_STR(er_coach_analyse(&D, &cg, &o, res_a).rule, NULL);
				check_result(&cg, res_a);
				if (res_a->best.score.total < prev)
					printf("  game %d, costs %d: width %d's best %d < the "
					       "narrower's %d\n",
					       i, costs, widths[w], res_a->best.score.total, prev);
				CHECK(res_a->best.score.total >= prev);
				prev = res_a->best.score.total;
			}
		}
}

/* Equal input, equal result. */
static void test_deterministic(void)
{
	static coach_fixture_game fg;
	static er_coach_game cg;
	game_of(4, &fg, &cg);
	er_coach_opts o = {.width = 8, .costs = true};
	er_coach_analyse(&D, &cg, &o, res_a);
	er_coach_analyse(&D, &cg, &o, res_b);
	for (int t = 0; t < cg.nturns; t++)
		CHECK(er_coach_sheet_eq(&res_a->best.sheets[t], &res_b->best.sheets[t]));
	CHECK(memcmp(res_a->cost, res_b->cost, sizeof res_a->cost) == 0);
	CHECK_EQ_INT(res_a->nodes, res_b->nodes);
}

/* A node budget stops the search: incomplete, still best ≥ player, costs of the turns reached. */
static void test_budget_stops(void)
{
	static coach_fixture_game fg;
	static er_coach_game cg;
	game_of(5, &fg, &cg);
	er_coach_opts full = {.width = 8, .costs = true};
	er_coach_analyse(&D, &cg, &full, res_b);
	for (long budget = 10; budget < res_b->nodes; budget *= 4) {
		er_coach_opts o = {.width = 8, .costs = true, .node_budget = budget};
		CHECK_STR(er_coach_analyse(&D, &cg, &o, res_a).rule, NULL);
		CHECK(!res_a->complete);
		CHECK(res_a->best.score.total >= res_a->player.score.total);
		CHECK(res_a->best.score.total >= res_a->greedy.score.total);
		bool legal;
		CHECK_EQ_INT(replay_total(&cg, &res_a->best, &legal), res_a->best.score.total);
		CHECK(legal);
		CHECK(res_a->searched_turns < cg.nturns);
		for (int t = 0; t < cg.nturns; t++)
			CHECK(res_a->has_cost[t] == (t >= cg.nturns - res_a->searched_turns));
	}
}

/* A real move that breaks a rule is named with its turn ("ADMIT PATIENT / Bed space"). */
static void test_illegal_move(void)
{
	static coach_fixture_game fg;
	static er_coach_game cg;
	game_of(1, &fg, &cg);
	cg.moves[3].steps[0] = (er_step){ER_STEP_ADMIT, ER_PT_DIE, 9, 3, ER_NO_COLOUR};
	er_coach_opts o = {.width = 1};
	er_result r = er_coach_analyse(&D, &cg, &o, res_a);
	CHECK(r.rule != NULL);
	CHECK_EQ_INT(res_a->bad_turn, 4);
}

/* api.md "undo while the turn is still open": the seat's last standing move is the one
 * analysed. Turn 3 of a 3-seat game is led by seat 3; seat 1 moves second: it first sends the
 * same die to the morgue ("MORGUE"), takes that back, then makes its real move. */
static void test_log_takes_the_move_after_an_undo(void)
{
	static coach_fixture_game fg, edited;
	static er_coach_game cg;
	static er_game g;
	CHECK_EQ_INT(coach_fixture_play(&D, &fg, 3, false, 4242), 0);
	edited = fg;
	edited.n = 0;
	int card3 = 0;
	for (int e = 0; e < fg.n; e++) {
		const er_event *ev = &fg.ev[e];
		if (ev->kind == ER_EV_REVEAL && ev->turn == 3)
			card3 = ev->card;
		if (ev->kind == ER_EV_MOVE && ev->turn == 3 && ev->seat == 1) {
			er_event first = *ev;
			memset(&first.move, 0, sizeof first.move);
			first.move.die = ev->move.die;
			first.move.steps[first.move.nsteps++] =
			    (er_step){ER_STEP_MORGUE, ER_PT_DIE, 0, 0, ER_NO_COLOUR};
			if (D.cards[card3 - 1].bay[ev->move.die].kind == ER_BONUS_EXTRA)
				first.move.steps[first.move.nsteps++] =
				    (er_step){ER_STEP_MORGUE, ER_PT_EXTRA, 0, 0, ER_NO_COLOUR};
			er_event undo = {
			    .kind = ER_EV_UNDO, .seat = 1, .turn = 3, .alicat_discard = -1};
			edited.ev[edited.n++] = first;
			edited.ev[edited.n++] = undo;
		}
		edited.ev[edited.n++] = *ev;
	}
	CHECK_EQ_INT(edited.n, fg.n + 2);
	er_game_init(&g, &D, &fg.cfg);
	for (int e = 0; e < edited.n; e++)
		CHECK_STR(er_game_apply(&g, &D, &edited.ev[e]).rule, NULL);
	CHECK(g.finished);
	CHECK_EQ_INT(er_coach_game_from_log(&D, &fg.cfg, edited.ev, edited.n, 1, &cg), 24);
	const er_move *real = NULL;
	for (int e = 0; e < fg.n; e++)
		if (fg.ev[e].kind == ER_EV_MOVE && fg.ev[e].turn == 3 && fg.ev[e].seat == 1)
			real = &fg.ev[e].move;
	CHECK(real != NULL && real->die == cg.moves[2].die && real->nsteps == cg.moves[2].nsteps);
	for (int i = 0; real && i < real->nsteps; i++)
		CHECK(real->steps[i].kind == cg.moves[2].steps[i].kind &&
		      real->steps[i].ward == cg.moves[2].steps[i].ward &&
		      real->steps[i].value == cg.moves[2].steps[i].value);
	er_coach_opts o = {.width = 1};
	CHECK_STR(er_coach_analyse(&D, &cg, &o, res_a).rule, NULL);
	CHECK(er_coach_sheet_eq(&res_a->player.sheets[cg.nturns - 1], &g.sheets[0]));
	CHECK(er_coach_sheet_eq(&res_a->player.sheets[cg.nturns - 1], &fg.g.sheets[0]));
}

int main(void)
{
	if (er_fixture_load(&D) != 0)
		return 1;
	const char *n = getenv("COACH_GAMES");
	if (n && atoi(n) > 0)
		ngames = atoi(n);
	res_a = malloc(sizeof *res_a);
	res_b = malloc(sizeof *res_b);
	TEST("coach: the log's race reproduces the real sheet (CARDIOLOGISTS, SOLO MODE)",
	     test_log_reconstructs_real_sheet);
	TEST("coach: whole moves legal, distinct, cover every option (ADMIT PATIENT, MORGUE)",
	     test_moves_all);
	TEST("coach: best >= player and greedy, replayed and rescored, costs sum (END OF THE GAME)",
	     test_best_claims);
	TEST("coach: best monotone in width 1, 8, 64, 256, with costs and without",
	     test_monotone_in_width);
	TEST("coach: deterministic", test_deterministic);
	TEST("coach: the node budget stops it, incomplete", test_budget_stops);
	TEST("coach: an illegal real move names its turn (ADMIT PATIENT)", test_illegal_move);
	TEST("coach: the move after an undo is the one analysed (api.md undo)",
	     test_log_takes_the_move_after_an_undo);
	free(res_a);
	free(res_b);
	TEST_MAIN_END();
}
