/* The ER game state machine (er_game.c), its set-up and whole games, against the ER rulebook
 * (seed 003, cited by section heading): the configuration, the specialists drawn from the seed,
 * the app's deck and dice, and full games of 1 to 6 players with random legal moves from a
 * seeded PRNG (every run plays the same games), each replayed from its log. */
#include "er_game_fixture.h"

/* Plays a whole game from g's state with random legal moves, sometimes undoing and replaying a
 * non-chief move. Solo: ALICAT moves through er_game_alicat_next(). Returns the number of
 * failed applies (0 expected). */
static int play_out(er_game *g, event_log *log, uint64_t *rng)
{
	int failures = 0;
	int n = g->cfg.nseats;
	while (!g->finished) {
		int turn = g->turn + 1;
		int chief = g->chief_seat;
		er_event ev = reveal_event(g, turn);
		er_result r = apply_logged(g, log, &ev);
		if (r.rule) {
			printf("  turn %d reveal: %s (%s)\n", turn, r.rule, r.detail);
			return failures + 1;
		}
		/* the order of the others' moves: clockwise from the chief, rotated randomly */
		int order[ER_MAX_SEATS], k = 0;
		order[k++] = chief;
		int start = rng_below(rng, n > 1 ? n - 1 : 1);
		for (int i = 0; i < n - 1; i++)
			order[k++] = (chief - 1 + 1 + (start + i) % (n - 1)) % n + 1;
		for (int i = 0; i < n; i++) {
			int seat = order[i];
			if (g->cfg.solo && seat == 2) {
				er_event a;
				if (!er_game_alicat_next(g, &D, &a)) {
					printf("  turn %d: ALICAT has no move\n", turn);
					return failures + 1;
				}
				r = apply_logged(g, log, &a);
			} else {
				ev = random_move(g, seat, rng);
				if (g->cfg.solo)
					ev.alicat_discard = rng_below(rng, 3) - 1;
				r = apply_logged(g, log, &ev);
				/* sometimes a non-chief takes its move back and moves again (not
				 * the last mover: the turn would have closed) */
				if (!r.rule && seat != chief && i < n - 1 &&
				    rng_below(rng, 4) == 0) {
					er_event u = undo_event(seat, turn);
					r = apply_logged(g, log, &u);
					if (!r.rule) {
						ev = random_move(g, seat, rng);
						r = apply_logged(g, log, &ev);
					}
				}
			}
			if (r.rule) {
				printf("  turn %d seat %d: %s (%s)\n", turn, seat, r.rule,
				       r.detail);
				failures++;
			}
		}
	}
	return failures;
}

/* ---- tests ---- */

/* Box "1-6 PLAYERS"; "GETTING READY" step 4; "HOW TO PLAY" (24 turns, 25 with 5 players);
 * "SOLO MODE / GETTING READY" step 1; "ADJUSTING THE DIFFICULTY". */
static void t_config(void)
{
	er_game_config cfg;
	for (int n = 1; n <= 6; n++) {
		cfg = make_cfg(n, false, 1);
		CHECK_EQ_INT(cfg.nturns, n == 5 ? 25 : 24);
	}
	cfg = make_cfg(2, true, 1);
	CHECK_EQ_INT(cfg.nturns, 24);

	static const struct {
		int nseats;
		bool solo;
		unsigned mods;
		er_spec_id c0, c1, radio, epi;
		const char *rule;
	} cases[] = {
	    {0, false, 0, ER_CARDIO_NURSES_3, ER_CARDIO_ALL_WARDS, ER_RADIO_HIGH_VALUES,
	     ER_EPI_LINE_OF_3, "players-out-of-range"},
	    {7, false, 0, ER_CARDIO_NURSES_3, ER_CARDIO_ALL_WARDS, ER_RADIO_HIGH_VALUES,
	     ER_EPI_LINE_OF_3, "players-out-of-range"},
	    {1, true, 0, ER_CARDIO_NURSES_3, ER_CARDIO_ALL_WARDS, ER_RADIO_HIGH_VALUES,
	     ER_EPI_LINE_OF_3, "players-out-of-range"},
	    {3, true, 0, ER_CARDIO_NURSES_3, ER_CARDIO_ALL_WARDS, ER_RADIO_HIGH_VALUES,
	     ER_EPI_LINE_OF_3, "players-out-of-range"},
	    {3, false, 0, ER_CARDIO_NURSES_3, ER_CARDIO_NURSES_3, ER_RADIO_HIGH_VALUES,
	     ER_EPI_LINE_OF_3, "cardiologists-same"},
	    {3, false, 0, ER_CARDIO_NURSES_3, ER_RADIO_HIGH_VALUES, ER_RADIO_HIGH_VALUES,
	     ER_EPI_LINE_OF_3, "specialist-invalid"},
	    {3, false, 0, ER_CARDIO_NURSES_3, ER_CARDIO_ALL_WARDS, ER_EPI_LINE_OF_3,
	     ER_EPI_LINE_OF_3, "specialist-invalid"},
	    {3, false, 0, ER_CARDIO_NURSES_3, ER_CARDIO_ALL_WARDS, ER_RADIO_HIGH_VALUES,
	     ER_RADIO_HIGH_VALUES, "specialist-invalid"},
	    {3, false, 0, ER_SPEC_NONE, ER_CARDIO_ALL_WARDS, ER_RADIO_HIGH_VALUES, ER_EPI_LINE_OF_3,
	     "specialist-invalid"},
	    {3, false, 0, ER_CARDIO_NURSES_3, ER_CARDIO_ALL_WARDS, (er_spec_id)99, ER_EPI_LINE_OF_3,
	     "specialist-invalid"},
	    {3, false, ER_MOD_EQUIPMENT, ER_CARDIO_NURSES_3, ER_CARDIO_ALL_WARDS,
	     ER_RADIO_HIGH_VALUES, ER_EPI_LINE_OF_3, "modifiers-invalid"},
	    {2, true, 1u << 7, ER_CARDIO_NURSES_3, ER_CARDIO_ALL_WARDS, ER_RADIO_HIGH_VALUES,
	     ER_EPI_LINE_OF_3, "modifiers-invalid"},
	    {2, true, ER_MOD_EQUIPMENT | ER_MOD_ISOLATION | ER_MOD_CAPACITY, ER_CARDIO_NURSES_3,
	     ER_CARDIO_ALL_WARDS, ER_RADIO_HIGH_VALUES, ER_EPI_LINE_OF_3, "modifiers-invalid"},
	    {2, true, ER_MOD_EQUIPMENT | ER_MOD_PREPARATION, ER_CARDIO_NURSES_3,
	     ER_CARDIO_ALL_WARDS, ER_RADIO_HIGH_VALUES, ER_EPI_LINE_OF_3, NULL},
	    {6, false, 0, ER_CARDIO_FILL_2_WARDS, ER_CARDIO_STETHOSCOPES_8, ER_RADIO_MATCHING_SET,
	     ER_EPI_ODD_EVEN_TRIANGLES, NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&cfg, 0, sizeof cfg);
		cfg.nseats = cases[i].nseats;
		cfg.solo = cases[i].solo;
		cfg.modifiers = cases[i].mods;
		cfg.cardio[0] = cases[i].c0;
		cfg.cardio[1] = cases[i].c1;
		cfg.radiologist = cases[i].radio;
		cfg.epidemiologist = cases[i].epi;
		er_result r = er_game_config_finish(&D, &cfg);
		if ((r.rule == NULL) != (cases[i].rule == NULL) ||
		    (r.rule && strcmp(r.rule, cases[i].rule) != 0))
			printf("  case %zu: %s (%s)\n", i, r.rule ? r.rule : "ok", r.detail);
		CHECK_STR(r.rule, cases[i].rule);
		if (r.rule)
			CHECK_EQ_INT(er_game_rule_status(r.rule), 422);
	}
}

/* "GETTING READY" step 4: "Randomly choose 2 Cardiologists, 1 Radiologist and 1
 * Epidemiologist". */
static void t_draw_specialists(void)
{
	int seen[ER_SPECIALISTS] = {0};
	for (uint64_t seed = 0; seed < 600; seed++) {
		er_game_config a, b;
		memset(&a, 0, sizeof a);
		memset(&b, 0, sizeof b);
		a.nseats = b.nseats = 4;
		er_game_draw_specialists(&D, seed, &a);
		er_game_draw_specialists(&D, seed, &b);
		CHECK(a.cardio[0] == b.cardio[0] && a.cardio[1] == b.cardio[1]);
		CHECK(a.radiologist == b.radiologist && a.epidemiologist == b.epidemiologist);
		CHECK_STR(er_game_config_finish(&D, &a).rule, NULL);
		CHECK(a.cardio[0] != a.cardio[1]);
		seen[a.cardio[0]]++;
		seen[a.cardio[1]]++;
		seen[a.radiologist]++;
		seen[a.epidemiologist]++;
	}
	for (int i = 0; i < ER_SPECIALISTS; i++)
		CHECK(seen[i] > 40); /* every card turns up (expected 120-200 each) */
}

/* "GETTING READY" step 2: shuffle, return 3 cards unseen (5 players: 2), deck of 24 (25);
 * "FLIP & ROLL". Reproducible from the seed. */
static void t_app_reveal(void)
{
	for (int players = 2; players <= 6; players++) {
		for (uint64_t seed = 0; seed < 50; seed++) {
			er_game_config cfg = make_cfg(players, false, seed * 7919 + 3);
			bool seen[ER_CARDS + 1] = {false};
			int distinct = 0;
			for (int t = 1; t <= cfg.nturns; t++) {
				int card, card2;
				int8_t dice[3], dice2[3];
				er_game_app_reveal(&cfg, t, &card, dice);
				er_game_app_reveal(&cfg, t, &card2, dice2);
				CHECK_EQ_INT(card, card2);
				CHECK(memcmp(dice, dice2, 3) == 0);
				CHECK(card >= 1 && card <= ER_CARDS);
				if (card >= 1 && card <= ER_CARDS && !seen[card]) {
					seen[card] = true;
					distinct++;
				}
				for (int c = 0; c < 3; c++)
					CHECK(dice[c] >= 1 && dice[c] <= 6);
			}
			CHECK_EQ_INT(distinct, players == 5 ? 25 : 24);
			int card;
			int8_t dice[3];
			er_game_app_reveal(&cfg, 0, &card, dice);
			CHECK_EQ_INT(card, 0);
			er_game_app_reveal(&cfg, cfg.nturns + 1, &card, dice);
			CHECK_EQ_INT(card, 0);
		}
	}
	/* the dice are fair-looking and seeds differ */
	er_game_config a = make_cfg(3, false, 1), b = make_cfg(3, false, 2);
	int counts[7] = {0}, same_cards = 0;
	for (int t = 1; t <= 24; t++) {
		int ca, cb;
		int8_t da[3], db[3];
		er_game_app_reveal(&a, t, &ca, da);
		er_game_app_reveal(&b, t, &cb, db);
		same_cards += ca == cb;
	}
	CHECK(same_cards < 8);
	for (uint64_t seed = 0; seed < 400; seed++) {
		er_game_config c = make_cfg(4, false, seed);
		for (int t = 1; t <= 24; t++) {
			int card;
			int8_t d[3];
			er_game_app_reveal(&c, t, &card, d);
			for (int k = 0; k < 3; k++)
				counts[d[k]]++;
		}
	}
	for (int v = 1; v <= 6; v++) /* 28800 rolls: 4800 expected per face */
		CHECK(counts[v] > 4500 && counts[v] < 5100);
}

static int cardio_points; /* over all full games: the races did run */

/* A full game of n players ("HOW TO PLAY" to "END OF THE GAME"), then replay of the log. */
static void full_game(int nseats, uint64_t seed)
{
	static event_log log;
	static er_game g, again;
	log.n = 0;
	er_game_config cfg = make_cfg(nseats, false, seed);
	er_game_init(&g, &D, &cfg);
	CHECK_EQ_INT(g.chief_seat, 1);
	uint64_t rng = seed;
	CHECK_EQ_INT(play_out(&g, &log, &rng), 0);
	check_finished(&g, &log);
	/* the games are real: patients admitted, undos and Cardiologists happened */
	int undos = 0;
	for (int i = 0; i < log.n; i++)
		undos += log.ev[i].kind == ER_EV_UNDO;
	if (nseats > 2)
		CHECK(undos > 0);
	for (int i = 0; i < nseats; i++) {
		CHECK(er_patients(&g.sheets[i]) >= 12);
		cardio_points += g.sheets[i].cardiologists[0] + g.sheets[i].cardiologists[1];
	}
	/* "END OF TURN": the chief passed clockwise once per turn */
	CHECK_EQ_INT(g.chief_seat, cfg.nturns % nseats + 1);
	/* the state is the replay of the log */
	replay(&log, &cfg, &again);
	CHECK(memcmp(&g, &again, sizeof g) == 0);
}

static void t_full_3(void)
{
	for (uint64_t s = 1; s <= 200; s++)
		full_game(3, s);
}

static void t_full_5(void)
{
	for (uint64_t s = 100; s <= 200; s++)
		full_game(5, s);
}

static void t_full_other_sizes(void)
{
	full_game(1, 7);
	full_game(2, 8);
	full_game(4, 9);
	full_game(6, 10);
	CHECK(cardio_points > 0);
}

int main(void)
{
	if (er_fixture_load(&D) != 0) {
		printf("FAIL er_game_full: cannot load templates/er\n");
		return 1;
	}
	TEST("seed003 box / GETTING READY / HOW TO PLAY / ADJUSTING: game configuration", t_config);
	TEST("seed003 GETTING READY 4: specialists drawn from the seed", t_draw_specialists);
	TEST("seed003 GETTING READY 2 / FLIP & ROLL: app deck 24 (25) distinct cards, fair dice, "
	     "reproducible",
	     t_app_reveal);
	TEST(
	    "seed003 HOW TO PLAY..END OF THE GAME: full 3-player games, random legal moves, replay",
	    t_full_3);
	TEST("seed003 HOW TO PLAY (5 players: 25 turns): full 5-player games, replay", t_full_5);
	TEST("seed003 HOW TO PLAY: full 1-, 2-, 4-, 6-player games", t_full_other_sizes);
	TEST_MAIN_END();
}
