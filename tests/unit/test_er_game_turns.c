/* The ER game state machine (er_game.c), turn by turn, against the ER rulebook (seed 003, cited
 * by section heading) and api.md "Games": reveals by the chief, the order of moves, undo, the
 * Cardiologists' race in multiplayer games, and the HTTP status of each rule. */
#include "er_game_fixture.h"

/* ---- tests ---- */

/* "FLIP & ROLL" by the Chief Physician; "GETTING READY" step 2 (each card once). */
static void t_reveal_rules(void)
{
	er_game_config cfg = make_cfg(3, false, 42);
	cfg.app_deck = false;
	er_game g;
	er_game_init(&g, &D, &cfg);
	er_event ev;
	memset(&ev, 0, sizeof ev);
	ev.kind = ER_EV_REVEAL;
	ev.seat = 1;
	ev.turn = 1;
	ev.card = 5;
	ev.dice[0] = 1;
	ev.dice[1] = 6;
	ev.dice[2] = 3;
	er_game before = g;

	er_event bad = ev;
	bad.turn = 2;
	CHECK_STR(er_game_apply(&g, &D, &bad).rule, ER_RULE_TURN_STALE);
	bad = ev;
	bad.turn = 0;
	CHECK_STR(er_game_apply(&g, &D, &bad).rule, ER_RULE_TURN_STALE);
	bad = ev;
	bad.seat = 2;
	CHECK_STR(er_game_apply(&g, &D, &bad).rule, ER_RULE_NOT_CHIEF);
	bad = ev;
	bad.seat = 4;
	CHECK_STR(er_game_apply(&g, &D, &bad).rule, ER_RULE_NO_SUCH_SEAT);
	bad = ev;
	bad.card = 0;
	CHECK_STR(er_game_apply(&g, &D, &bad).rule, ER_RULE_UNKNOWN_CARD);
	bad.card = 28;
	CHECK_STR(er_game_apply(&g, &D, &bad).rule, ER_RULE_UNKNOWN_CARD);
	bad = ev;
	bad.dice[1] = 7;
	CHECK_STR(er_game_apply(&g, &D, &bad).rule, ER_RULE_DIE_OUT_OF_RANGE);
	bad.dice[1] = 0;
	CHECK_STR(er_game_apply(&g, &D, &bad).rule, ER_RULE_DIE_OUT_OF_RANGE);
	CHECK(memcmp(&g, &before, sizeof g) == 0); /* rejected events change nothing */

	CHECK_STR(er_game_apply(&g, &D, &ev).rule, NULL);
	CHECK_EQ_INT(g.version, 1);
	CHECK_EQ_INT(g.turn, 1);
	CHECK(g.revealed);
	CHECK_EQ_INT(g.card, 5);
	er_turn t;
	er_game_turn_for(&g, 1, &t);
	CHECK(t.chief);
	CHECK_EQ_INT(t.card, 5);
	CHECK_EQ_INT(t.dice[1], 6);
	CHECK_EQ_INT(t.chief_die, ER_NO_COLOUR);
	/* the same turn again, or the next turn before this one is played */
	CHECK_STR(er_game_apply(&g, &D, &ev).rule, ER_RULE_TURN_ALREADY_REVEALED);
	bad = ev;
	bad.turn = 2;
	bad.card = 6;
	CHECK_STR(er_game_apply(&g, &D, &bad).rule, ER_RULE_TURN_ALREADY_REVEALED);

	/* play turn 1 out, then try to flip card 5 again */
	for (int seat = 1; seat <= 3; seat++) {
		er_event m = morgue_event(&g, seat, seat == 1 ? ER_RED : ER_GREEN);
		CHECK_STR(er_game_apply(&g, &D, &m).rule, NULL);
	}
	CHECK_EQ_INT(g.chief_seat, 2);
	bad = ev;
	bad.turn = 2;
	bad.seat = 2;
	CHECK_STR(er_game_apply(&g, &D, &bad).rule, ER_RULE_CARD_USED);
	CHECK_EQ_INT(er_game_rule_status(ER_RULE_CARD_USED), 409);
	bad.seat = 1; /* the old chief */
	bad.card = 6;
	CHECK_STR(er_game_apply(&g, &D, &bad).rule, ER_RULE_NOT_CHIEF);
	bad.seat = 2;
	CHECK_STR(er_game_apply(&g, &D, &bad).rule, NULL);
	CHECK_EQ_INT(g.turn, 2);
	for (int i = 0; i < 3; i++)
		CHECK(!g.moved[i]);
	/* a stale reveal of turn 1 */
	CHECK_STR(er_game_apply(&g, &D, &ev).rule, ER_RULE_TURN_STALE);
}

/* "CHOOSE PATIENT": the chief first (api.md "the chief's move comes first"); one move per seat
 * per turn. */
static void t_move_flow(void)
{
	er_game_config cfg = make_cfg(3, false, 5);
	er_game g;
	er_game_init(&g, &D, &cfg);
	er_event m = morgue_event(&g, 1, ER_RED);
	m.turn = 0;
	CHECK_STR(er_game_apply(&g, &D, &m).rule, ER_RULE_TURN_NOT_REVEALED);
	er_event rv = reveal_event(&g, 1);
	CHECK_STR(er_game_apply(&g, &D, &rv).rule, NULL);

	m = morgue_event(&g, 2, ER_YELLOW);
	CHECK_STR(er_game_apply(&g, &D, &m).rule, ER_RULE_CHIEF_FIRST);
	m.seat = 0;
	CHECK_STR(er_game_apply(&g, &D, &m).rule, ER_RULE_NO_SUCH_SEAT);
	m.seat = 4;
	CHECK_STR(er_game_apply(&g, &D, &m).rule, ER_RULE_NO_SUCH_SEAT);
	m = morgue_event(&g, 1, ER_RED);
	m.turn = 2;
	CHECK_STR(er_game_apply(&g, &D, &m).rule, ER_RULE_TURN_STALE);
	m.turn = 0;
	CHECK_STR(er_game_apply(&g, &D, &m).rule, ER_RULE_TURN_STALE);
	/* a broken move names the move rule (422) */
	m = morgue_event(&g, 1, ER_RED);
	m.move.nsteps = 0;
	er_result r = er_game_apply(&g, &D, &m);
	CHECK_STR(r.rule, ER_RULE_UNRESOLVED_PATIENT);
	CHECK_EQ_INT(er_game_rule_status(r.rule), 422);
	CHECK_EQ_INT(g.version, 1);

	m = morgue_event(&g, 1, ER_RED);
	CHECK_STR(er_game_apply(&g, &D, &m).rule, NULL);
	CHECK_EQ_INT(g.chief_die, ER_RED);
	CHECK_STR(er_game_apply(&g, &D, &m).rule, ER_RULE_ALREADY_MOVED);
	er_turn t;
	er_game_turn_for(&g, 2, &t);
	CHECK(!t.chief);
	CHECK_EQ_INT(t.chief_die, ER_RED);
	/* "CHOOSE PATIENT": the others take one of the other two dice — the chief's die needs a
	 * blood bag ("USING BLOOD BAGS"), which nobody holds yet */
	m = morgue_event(&g, 2, ER_RED);
	CHECK_STR(er_game_apply(&g, &D, &m).rule, ER_RULE_CHIEF_DIE);
	m = morgue_event(&g, 3, ER_GREEN);
	CHECK_STR(er_game_apply(&g, &D, &m).rule, NULL);
	CHECK_STR(er_game_apply(&g, &D, &m).rule, ER_RULE_ALREADY_MOVED);
	CHECK_EQ_INT(g.chief_seat, 1); /* the turn is open until seat 2 moves */
	m = morgue_event(&g, 2, ER_YELLOW);
	CHECK_STR(er_game_apply(&g, &D, &m).rule, NULL);
	/* "END OF TURN": the turn closed, the chief passed clockwise */
	CHECK_EQ_INT(g.chief_seat, 2);
	CHECK_EQ_INT(g.version, 4);
	CHECK_STR(er_game_apply(&g, &D, &m).rule, ER_RULE_ALREADY_MOVED);
	er_event u = undo_event(2, 1);
	CHECK_STR(er_game_apply(&g, &D, &u).rule, ER_RULE_TURN_STALE);
	/* turn 2: seat 2 is chief, seat 1 must wait */
	rv = reveal_event(&g, 2);
	CHECK_EQ_INT(rv.seat, 2);
	CHECK_STR(er_game_apply(&g, &D, &rv).rule, NULL);
	m = morgue_event(&g, 1, ER_RED);
	CHECK_STR(er_game_apply(&g, &D, &m).rule, ER_RULE_CHIEF_FIRST);
	CHECK_EQ_INT(er_game_rule_status(ER_RULE_CHIEF_FIRST), 409);
}

/* api.md: "undo while the turn is still open"; the chief's choice stands once others chose. */
static void t_undo(void)
{
	er_game_config cfg = make_cfg(4, false, 77);
	er_game g;
	er_game_init(&g, &D, &cfg);
	uint64_t rng = 99;
	/* play a few turns so the sheets are not empty */
	for (int turn = 1; turn <= 5; turn++) {
		er_event rv = reveal_event(&g, turn);
		CHECK_STR(er_game_apply(&g, &D, &rv).rule, NULL);
		for (int i = 0; i < 4; i++) {
			er_event m = random_move(&g, (g.chief_seat - 1 + i) % 4 + 1, &rng);
			CHECK_STR(er_game_apply(&g, &D, &m).rule, NULL);
		}
	}
	er_event rv = reveal_event(&g, 6);
	CHECK_STR(er_game_apply(&g, &D, &rv).rule, NULL);
	int chief = g.chief_seat, s2 = chief % 4 + 1, s3 = s2 % 4 + 1;
	CHECK_STR(
	    er_game_apply(&g, &D, &(er_event){.kind = ER_EV_UNDO, .seat = chief, .turn = 6}).rule,
	    ER_RULE_NOTHING_TO_UNDO);

	/* the chief moves and takes it back while nobody else has moved */
	er_game at_reveal = g;
	er_event cm = random_move(&g, chief, &rng);
	CHECK_STR(er_game_apply(&g, &D, &cm).rule, NULL);
	CHECK_EQ_INT(g.chief_die, cm.move.die);
	er_event u = undo_event(chief, 6);
	CHECK_STR(er_game_apply(&g, &D, &u).rule, NULL);
	CHECK(memcmp(&g.sheets[chief - 1], &at_reveal.sheets[chief - 1], sizeof(er_sheet)) == 0);
	CHECK_EQ_INT(g.chief_die, ER_NO_COLOUR);
	CHECK(!g.moved[chief - 1]);
	CHECK_EQ_INT(g.version, at_reveal.version + 2);

	/* again, then another seat moves: the chief can no longer undo */
	CHECK_STR(er_game_apply(&g, &D, &cm).rule, NULL);
	er_event m2 = random_move(&g, s2, &rng);
	CHECK_STR(er_game_apply(&g, &D, &m2).rule, NULL);
	er_game before = g;
	CHECK_STR(er_game_apply(&g, &D, &u).rule, ER_RULE_UNDO_AFTER_OTHERS);
	CHECK(memcmp(&g, &before, sizeof g) == 0);
	CHECK_EQ_INT(er_game_rule_status(ER_RULE_UNDO_AFTER_OTHERS), 409);

	/* a non-chief undoes: its sheet is exactly the start-of-turn sheet */
	er_event u2 = undo_event(s2, 6);
	u2.turn = 5;
	CHECK_STR(er_game_apply(&g, &D, &u2).rule, ER_RULE_TURN_STALE);
	u2.turn = 6;
	CHECK_STR(er_game_apply(&g, &D, &u2).rule, NULL);
	CHECK(memcmp(&g.sheets[s2 - 1], &at_reveal.sheets[s2 - 1], sizeof(er_sheet)) == 0);
	CHECK(!g.moved[s2 - 1]);
	CHECK_STR(er_game_apply(&g, &D, &u2).rule, ER_RULE_NOTHING_TO_UNDO);
	er_event u3 = undo_event(s3, 6);
	CHECK_STR(er_game_apply(&g, &D, &u3).rule, ER_RULE_NOTHING_TO_UNDO);
	/* the chief still cannot undo? nobody else has a move standing now: it can */
	er_game g2 = g;
	CHECK_STR(er_game_apply(&g2, &D, &u).rule, NULL);
	/* seat 2 moves differently; the turn completes normally */
	m2 = random_move(&g, s2, &rng);
	CHECK_STR(er_game_apply(&g, &D, &m2).rule, NULL);
	for (int s = 1; s <= 4; s++)
		if (!g.moved[s - 1]) {
			er_event m = random_move(&g, s, &rng);
			CHECK_STR(er_game_apply(&g, &D, &m).rule, NULL);
		}
	CHECK_EQ_INT(g.chief_seat, chief % 4 + 1);
	/* the turn is closed: no undo, even for the last mover; the chief of the closed turn
	 * still hears that others have chosen */
	for (int s = 1; s <= 4; s++)
		CHECK_STR(
		    er_game_apply(&g, &D, &(er_event){.kind = ER_EV_UNDO, .seat = s, .turn = 6})
		        .rule,
		    s == chief ? ER_RULE_UNDO_AFTER_OTHERS : ER_RULE_TURN_STALE);
}

/* "CARDIOLOGISTS": first achievers 8 (all simultaneous achievers), the card flips; second
 * time 5, then discarded; then nobody. Seats reach "Gain 3 nurses" by setting their sheets. */
static void give_nurses(er_sheet *s)
{
	/* 3 nurses crossed in wards that hold a patient (a valid sheet) */
	for (int w = 0; w < 3; w++) {
		if (s->count[w] == 0)
			s->ward[w][s->count[w]++] = (er_patient){.value = 1};
		s->nurse_crossed[w] = true;
	}
	s->nurse_track = 3;
}

static void play_morgue_turn(er_game *g)
{
	er_event rv = reveal_event(g, g->turn + 1);
	CHECK_STR(er_game_apply(g, &D, &rv).rule, NULL);
	int n = g->cfg.nseats, chief = g->chief_seat;
	for (int i = 0; i < n; i++) {
		int seat = (chief - 1 + i) % n + 1;
		er_event m = morgue_event(g, seat, i == 0 ? ER_RED : ER_YELLOW);
		CHECK_STR(er_game_apply(g, &D, &m).rule, NULL);
	}
}

static void t_cardio_ties(void)
{
	er_game_config cfg = make_cfg(4, false, 3);
	cfg.cardio[0] = ER_CARDIO_NURSES_3;
	cfg.cardio[1] = ER_CARDIO_FILL_2_WARDS; /* out of reach in 3 morgue turns */
	er_game g;
	er_game_init(&g, &D, &cfg);
	CHECK_EQ_INT(g.cardio_state[0], 8);
	CHECK_EQ_INT(g.cardio_state[1], 8);
	give_nurses(&g.sheets[0]);
	give_nurses(&g.sheets[1]);
	play_morgue_turn(&g);
	CHECK_EQ_INT(g.sheets[0].cardiologists[0], 8);
	CHECK_EQ_INT(g.sheets[1].cardiologists[0], 8);
	CHECK_EQ_INT(g.sheets[2].cardiologists[0], 0);
	CHECK_EQ_INT(g.sheets[3].cardiologists[0], 0);
	CHECK_EQ_INT(g.cardio_state[0], 5); /* flipped */
	CHECK_EQ_INT(g.cardio_state[1], 8);

	give_nurses(&g.sheets[2]);
	play_morgue_turn(&g);
	CHECK_EQ_INT(g.sheets[0].cardiologists[0], 8); /* not scored twice */
	CHECK_EQ_INT(g.sheets[1].cardiologists[0], 8);
	CHECK_EQ_INT(g.sheets[2].cardiologists[0], 5);
	CHECK_EQ_INT(g.cardio_state[0], 0); /* discarded */

	give_nurses(&g.sheets[3]);
	play_morgue_turn(&g);
	CHECK_EQ_INT(g.sheets[3].cardiologists[0], 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ_INT(g.sheets[i].cardiologists[1], 0);
	CHECK_EQ_INT(g.cardio_state[1], 8);
	/* the scores carry them ("END OF THE GAME / Cardiologists") */
	er_breakdown sc[4];
	int rank[4];
	er_game_scores(&g, &D, sc, rank);
	CHECK_EQ_INT(sc[0].cardiologists, 8);
	CHECK_EQ_INT(sc[2].cardiologists, 5);
	CHECK_EQ_INT(sc[3].cardiologists, 0);
}

/* "CARDIOLOGISTS": "In a 2-player game, the first time a goal is achieved the player earns 5
 * points and then discards the card. Players can still achieve the goal in the same turn". */
static void t_cardio_two_players(void)
{
	er_game_config cfg = make_cfg(2, false, 4);
	cfg.cardio[0] = ER_CARDIO_FILL_2_WARDS;
	cfg.cardio[1] = ER_CARDIO_NURSES_3;
	er_game g;
	er_game_init(&g, &D, &cfg);
	CHECK_EQ_INT(g.cardio_state[0], 5);
	CHECK_EQ_INT(g.cardio_state[1], 5);
	give_nurses(&g.sheets[0]);
	give_nurses(&g.sheets[1]);
	play_morgue_turn(&g);
	CHECK_EQ_INT(g.sheets[0].cardiologists[1], 5);
	CHECK_EQ_INT(g.sheets[1].cardiologists[1], 5);
	CHECK_EQ_INT(g.cardio_state[1], 0);
	CHECK_EQ_INT(g.cardio_state[0], 5);

	/* one seat alone: 5, discarded */
	er_game_init(&g, &D, &cfg);
	give_nurses(&g.sheets[1]);
	play_morgue_turn(&g);
	CHECK_EQ_INT(g.sheets[0].cardiologists[1], 0);
	CHECK_EQ_INT(g.sheets[1].cardiologists[1], 5);
	CHECK_EQ_INT(g.cardio_state[1], 0);
	give_nurses(&g.sheets[0]);
	play_morgue_turn(&g);
	CHECK_EQ_INT(g.sheets[0].cardiologists[1], 0);
}

/* api.md "Conventions": 409 state conflicts, 403 not yours, 404 unknown, 422 illegal moves. */
static void t_status(void)
{
	static const struct {
		const char *rule;
		int status;
	} cases[] = {
	    {ER_RULE_GAME_FINISHED, 409},
	    {ER_RULE_TURN_STALE, 409},
	    {ER_RULE_TURN_NOT_REVEALED, 409},
	    {ER_RULE_TURN_ALREADY_REVEALED, 409},
	    {ER_RULE_CARD_USED, 409},
	    {ER_RULE_NOT_CHIEF, 409},
	    {ER_RULE_CHIEF_FIRST, 409},
	    {ER_RULE_ALREADY_MOVED, 409},
	    {ER_RULE_NOTHING_TO_UNDO, 409},
	    {ER_RULE_UNDO_AFTER_OTHERS, 409},
	    {ER_RULE_BOT_SEAT, 403},
	    {ER_RULE_NO_SUCH_SEAT, 404},
	    {ER_RULE_VALUE_NOT_INCREASING, 422},
	    {ER_RULE_CHIEF_DIE, 422},
	    {ER_RULE_UNKNOWN_CARD, 422},
	    {ER_RULE_DIE_OUT_OF_RANGE, 422},
	    {"players-out-of-range", 422},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CHECK_EQ_INT(er_game_rule_status(cases[i].rule), cases[i].status);
}

int main(void)
{
	if (er_fixture_load(&D) != 0) {
		printf("FAIL er_game_turns: cannot load templates/er\n");
		return 1;
	}
	TEST("seed003 FLIP & ROLL / GETTING READY 2: reveal by the chief, each card once",
	     t_reveal_rules);
	TEST("seed003 CHOOSE PATIENT / api.md: chief first, one move per seat, stale turns",
	     t_move_flow);
	TEST("api.md undo: sheet restored exactly, chief blocked after others", t_undo);
	TEST("seed003 CARDIOLOGISTS: simultaneous 8, then 5, then nobody", t_cardio_ties);
	TEST("seed003 CARDIOLOGISTS: 2 players 5 then discard", t_cardio_two_players);
	TEST("api.md Conventions: rule → HTTP status", t_status);
	TEST_MAIN_END();
}
