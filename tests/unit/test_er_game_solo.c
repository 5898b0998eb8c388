/* The ER game state machine (er_game.c) in solo mode against the ER rulebook (seed 003, cited by
 * section heading): full solo games with ALICAT moving through er_game_alicat_next (random legal
 * moves for the human from a seeded PRNG, each game replayed from its log), undo and the bot
 * seat, ALICAT's Cardiologists, and the ranks at the end of the game. */
#include "er_game_fixture.h"

/* ---- tests ---- */

/* "SOLO MODE": ALICAT moves by its protocol, the lead alternates (GETTING READY step 4), the
 * chief's actions come first (HOW TO PLAY), the game runs 24 turns; replay is identical. */
static void t_solo_game(void)
{
	static event_log log;
	static er_game g, again;
	int alicat_cardio = 0;
	for (uint64_t seed = 11; seed <= 210; seed++) {
		log.n = 0;
		er_game_config cfg = make_cfg(2, true, seed);
		if (seed % 3 == 0)
			cfg.modifiers = ER_MOD_PREPARATION | ER_MOD_EQUIPMENT;
		if (seed % 3 == 1)
			cfg.modifiers = ER_MOD_CAPACITY;
		CHECK_STR(er_game_config_finish(&D, &cfg).rule, NULL);
		er_game_init(&g, &D, &cfg);
		CHECK_EQ_INT(g.sheets[1].nurse_track, 2); /* ALICAT's two nurses */
		CHECK_EQ_INT(g.sheets[0].nurse_track, 0);
		CHECK_EQ_INT(g.cardio_state[0], 5);
		uint64_t rng = seed * 31;
		er_event a;
		CHECK(!er_game_alicat_next(&g, &D, &a)); /* nothing revealed */
		while (!g.finished) {
			int turn = g.turn + 1;
			CHECK_EQ_INT(g.chief_seat, turn % 2 == 1 ? 1 : 2);
			er_event rv = reveal_event(&g, turn);
			CHECK_STR(apply_logged(&g, &log, &rv).rule, NULL);
			er_event h = random_move(&g, 1, &rng);
			h.alicat_discard = rng_below(&rng, 3) - 1;
			if (g.chief_seat == 1) {
				/* ALICAT waits for the human chief */
				CHECK(!er_game_alicat_next(&g, &D, &a));
				CHECK_STR(apply_logged(&g, &log, &h).rule, NULL);
				CHECK(er_game_alicat_next(&g, &D, &a));
				CHECK_EQ_INT(a.seat, 2);
				CHECK_EQ_INT(a.turn, turn);
				CHECK_STR(apply_logged(&g, &log, &a).rule, NULL);
			} else {
				/* ALICAT leads: the human waits */
				CHECK_STR(er_game_apply(&g, &D, &h).rule, ER_RULE_CHIEF_FIRST);
				CHECK(er_game_alicat_next(&g, &D, &a));
				CHECK_STR(apply_logged(&g, &log, &a).rule, NULL);
				CHECK(!er_game_alicat_next(&g, &D, &a));
				/* ALICAT's move is never undone by a player */
				er_event u = undo_event(2, turn);
				er_result r = er_game_apply(&g, &D, &u);
				CHECK_STR(r.rule, ER_RULE_BOT_SEAT);
				CHECK_EQ_INT(er_game_rule_status(r.rule), 403);
				h = random_move(&g, 1, &rng); /* knows ALICAT's die now */
				h.alicat_discard = rng_below(&rng, 3) - 1;
				CHECK_STR(apply_logged(&g, &log, &h).rule, NULL);
			}
			CHECK(!er_game_alicat_next(&g, &D, &a));
		}
		check_finished(&g, &log);
		/* "SOLO MODE / CARDIOLOGISTS": 5 per card in each box, or 0 */
		for (int k = 0; k < 2; k++) {
			CHECK(g.sheets[0].cardiologists[k] == 0 ||
			      g.sheets[0].cardiologists[k] == 5);
			CHECK(g.sheets[1].cardiologists[k] == 0 ||
			      g.sheets[1].cardiologists[k] == 5);
			CHECK(g.cardio_state[k] == 0 || g.cardio_state[k] == 5);
			alicat_cardio += g.sheets[1].cardiologists[k];
		}
		replay(&log, &cfg, &again);
		CHECK(memcmp(&g, &again, sizeof g) == 0);
	}
	CHECK(alicat_cardio > 0); /* ALICAT fills wards in random games */
}

/* "SOLO MODE / HOW TO PLAY": the human chief's move stands once ALICAT has acted on it; ALICAT's
 * moves are never undone by a player. */
static void t_solo_undo(void)
{
	er_game_config cfg = make_cfg(2, true, 1234);
	er_game g;
	er_game_init(&g, &D, &cfg);
	er_event rv = reveal_event(&g, 1);
	CHECK_STR(er_game_apply(&g, &D, &rv).rule, NULL);
	uint64_t rng = 5;
	er_event a, h = random_move(&g, 1, &rng);
	CHECK_STR(er_game_apply(&g, &D, &h).rule, NULL);
	er_event u = undo_event(1, 1);
	/* before ALICAT moved: the human chief may take the move back */
	er_game g2 = g;
	CHECK_STR(er_game_apply(&g2, &D, &u).rule, NULL);
	CHECK(memcmp(&g2.sheets[0], &g2.before[0], sizeof(er_sheet)) == 0);
	CHECK(!er_game_alicat_next(&g2, &D, &a)); /* ALICAT waits again */
	/* after ALICAT moved (which closes the solo turn): refused, the same rule as for a
	 * multiplayer chief */
	CHECK(er_game_alicat_next(&g, &D, &a));
	CHECK_STR(er_game_apply(&g, &D, &a).rule, NULL);
	CHECK_EQ_INT(g.chief_seat, 2);
	CHECK_STR(er_game_apply(&g, &D, &u).rule, ER_RULE_UNDO_AFTER_OTHERS);
	CHECK_STR(er_game_apply(&g, &D, &(er_event){.kind = ER_EV_UNDO, .seat = 2, .turn = 1}).rule,
	          ER_RULE_BOT_SEAT);
	/* turn 2: ALICAT leads; the human may flip and roll for it ("SOLO MODE / HOW TO PLAY":
	 * "When you take ALICAT's actions") */
	rv = reveal_event(&g, 2);
	CHECK_EQ_INT(rv.seat, 2);
	rv.seat = 3;
	CHECK_STR(er_game_apply(&g, &D, &rv).rule, ER_RULE_NO_SUCH_SEAT);
	rv.seat = 1;
	CHECK_STR(er_game_apply(&g, &D, &rv).rule, NULL);
	CHECK_EQ_INT(g.chief_seat, 2);
	CHECK(er_game_alicat_next(&g, &D, &a));
	CHECK_STR(er_game_apply(&g, &D, &a).rule, NULL);
	CHECK_STR(er_game_apply(&g, &D, &(er_event){.kind = ER_EV_UNDO, .seat = 2, .turn = 2}).rule,
	          ER_RULE_BOT_SEAT);
	CHECK_STR(er_game_apply(&g, &D, &(er_event){.kind = ER_EV_UNDO, .seat = 1, .turn = 2}).rule,
	          ER_RULE_NOTHING_TO_UNDO);
	h = random_move(&g, 1, &rng);
	CHECK_STR(er_game_apply(&g, &D, &h).rule, NULL);
	/* the human (not chief) was the last mover: the turn closed */
	CHECK_STR(er_game_apply(&g, &D, &(er_event){.kind = ER_EV_UNDO, .seat = 1, .turn = 2}).rule,
	          ER_RULE_TURN_STALE);
}

/* "SOLO MODE / CARDIOLOGISTS": "If ALICAT fills a ward and at least one Cardiologist remains,
 * ALICAT scores 5 points. You choose which Cardiologist to discard." "If you score both on the
 * same turn that ALICAT fills a ward, you score 10 points and ALICAT scores 5 points." */
static void fill_ward_7(er_sheet *s)
{
	while (s->count[6] < D.wards[6].nbeds) {
		s->ward[6][s->count[6]] = (er_patient){.value = 6};
		s->count[6]++;
	}
}

static void t_solo_cardio(void)
{
	er_game_config cfg = make_cfg(2, true, 77); /* nurses-3 and all-wards */
	er_game g;
	uint64_t rng = 3;
	er_event a, h;
	for (int choice = -1; choice <= 1; choice++) {
		er_game_init(&g, &D, &cfg);
		/* turn 1: the human leads, ALICAT's move closes the turn */
		er_event rv = reveal_event(&g, 1);
		CHECK_STR(er_game_apply(&g, &D, &rv).rule, NULL);
		h = random_move(&g, 1, &rng);
		CHECK_STR(er_game_apply(&g, &D, &h).rule, NULL);
		CHECK(er_game_alicat_next(&g, &D, &a));
		CHECK_STR(er_game_apply(&g, &D, &a).rule, NULL);
		/* turn 2: ALICAT leads; it "fills" ward 7 this turn, then the human moves with
		 * its discard choice, which closes the turn */
		rv = reveal_event(&g, 2);
		CHECK_STR(er_game_apply(&g, &D, &rv).rule, NULL);
		CHECK(er_game_alicat_next(&g, &D, &a));
		CHECK_STR(er_game_apply(&g, &D, &a).rule, NULL);
		if (er_ward_full(&D, &g.before[1], 6))
			continue; /* cannot happen after 1 turn: ward 7 has 3 beds */
		fill_ward_7(&g.sheets[1]);
		h = random_move(&g, 1, &rng);
		h.alicat_discard = choice;
		CHECK_STR(er_game_apply(&g, &D, &h).rule, NULL);
		int k = choice == 1 ? 1 : 0; /* no preference: card 1 (index 0) */
		CHECK_EQ_INT(g.sheets[1].cardiologists[k], 5);
		CHECK_EQ_INT(g.sheets[1].cardiologists[1 - k], 0);
		CHECK_EQ_INT(g.cardio_state[k], 0);
		CHECK_EQ_INT(g.cardio_state[1 - k], 5);
	}

	/* the combined goal: the human meets both in the turn ALICAT fills a ward (turn 2,
	 * ALICAT leads; the human's goals and ALICAT's ward are set before the human's move) */
	for (int alicat_fills = 0; alicat_fills <= 1; alicat_fills++) {
		er_game_init(&g, &D, &cfg);
		for (int turn = 1; turn <= 2; turn++) {
			er_event rv = reveal_event(&g, turn);
			CHECK_STR(er_game_apply(&g, &D, &rv).rule, NULL);
			if (turn == 1) {
				h = random_move(&g, 1, &rng);
				CHECK_STR(er_game_apply(&g, &D, &h).rule, NULL);
			}
			CHECK(er_game_alicat_next(&g, &D, &a));
			CHECK_STR(er_game_apply(&g, &D, &a).rule, NULL);
		}
		CHECK_EQ_INT(g.sheets[1].cardiologists[0] + g.sheets[1].cardiologists[1], 0);
		er_sheet *hs = &g.sheets[0];
		for (int w = 0; w < ER_WARDS; w++)
			if (hs->count[w] == 0)
				hs->ward[w][hs->count[w]++] = (er_patient){.value = 1};
		for (int w = 0; w < 3; w++)
			hs->nurse_crossed[w] = true;
		hs->nurse_track = 3;
		if (alicat_fills)
			fill_ward_7(&g.sheets[1]);
		h = random_move(&g, 1, &rng);
		h.alicat_discard = 1;
		CHECK_STR(er_game_apply(&g, &D, &h).rule, NULL);
		CHECK_EQ_INT(g.sheets[0].cardiologists[0], 5); /* 10 points: 5 in each box */
		CHECK_EQ_INT(g.sheets[0].cardiologists[1], 5);
		CHECK_EQ_INT(g.sheets[1].cardiologists[0], 0);
		CHECK_EQ_INT(g.sheets[1].cardiologists[1], alicat_fills ? 5 : 0);
		CHECK_EQ_INT(g.cardio_state[0], 0); /* both discarded */
		CHECK_EQ_INT(g.cardio_state[1], 0);
	}
}

/* "SOLO MODE / END OF THE GAME": "If there is a tie, ALICAT wins." "END OF THE GAME": equal
 * totals share a rank in multiplayer. */
/* Sets up g (solo) so that the human's total minus ALICAT's equals diff: the human gets n nurses
 * (n wards with a patient and a crossed nurse), both sheets some morgue boxes. */
static bool solo_totals(er_game *g, const er_game_config *cfg, int diff, er_breakdown *sc,
                        int *rank)
{
	for (int hm = 0; hm <= 4; hm++)
		for (int am = 0; am <= 4; am++)
			for (int nurses = 0; nurses <= 7; nurses++) {
				er_game_init(g, &D, cfg);
				er_sheet *hs = &g->sheets[0];
				for (int w = 0; w < nurses; w++) {
					hs->ward[w][hs->count[w]++] = (er_patient){.value = 1};
					hs->nurse_crossed[w] = true;
				}
				hs->nurse_track = (int8_t)nurses;
				hs->morgue = (int8_t)hm;
				g->sheets[1].morgue = (int8_t)am;
				er_game_scores(g, &D, sc, rank);
				if (sc[0].total - sc[1].total == diff)
					return true;
			}
	return false;
}

static void t_ranks(void)
{
	er_game_config cfg = make_cfg(2, true, 9);
	er_game g;
	er_breakdown sc[2];
	int rank[2];
	/* a tie: ALICAT wins */
	CHECK(solo_totals(&g, &cfg, 0, sc, rank));
	CHECK_EQ_INT(sc[0].total, sc[1].total);
	CHECK(sc[0].total > 0);
	CHECK_EQ_INT(rank[1], 1);
	CHECK_EQ_INT(rank[0], 2);
	/* one point more: the human wins */
	CHECK(solo_totals(&g, &cfg, 1, sc, rank));
	CHECK_EQ_INT(rank[0], 1);
	CHECK_EQ_INT(rank[1], 2);
	/* one point less: ALICAT wins */
	CHECK(solo_totals(&g, &cfg, -1, sc, rank));
	CHECK_EQ_INT(rank[0], 2);
	CHECK_EQ_INT(rank[1], 1);

	/* multiplayer: 1, 1, 3 */
	cfg = make_cfg(3, false, 9);
	er_game_init(&g, &D, &cfg);
	g.sheets[2].morgue = 2;
	er_breakdown s3[3];
	int r3[3];
	er_game_scores(&g, &D, s3, r3);
	CHECK_EQ_INT(s3[0].total, s3[1].total);
	CHECK(s3[2].total < s3[0].total);
	CHECK_EQ_INT(r3[0], 1);
	CHECK_EQ_INT(r3[1], 1);
	CHECK_EQ_INT(r3[2], 3);
}

int main(void)
{
	if (er_fixture_load(&D) != 0) {
		printf("FAIL er_game_solo: cannot load templates/er\n");
		return 1;
	}
	TEST("seed003 SOLO MODE: full solo games, ALICAT via alicat_next, lead alternates, replay",
	     t_solo_game);
	TEST("seed003 SOLO MODE: undo and the bot seat", t_solo_undo);
	TEST("seed003 SOLO MODE / CARDIOLOGISTS: ALICAT's ward, the human's discard, combined goal",
	     t_solo_cardio);
	TEST("seed003 END OF THE GAME / SOLO MODE: ranks, ties shared, solo tie to ALICAT",
	     t_ranks);
	TEST_MAIN_END();
}
