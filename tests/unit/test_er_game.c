/* The ER game state machine (er_game.c) against the ER rulebook (seed 003, cited by section
 * heading) and api.md "Games". Full games are played with random legal moves from a seeded
 * PRNG, so every run plays the same games. */
#include "er_fixture.h"
#include "rules/er_game.h"
#include "test.h"

static er_data D;
static int loaded = -1;

/* ---- helpers ---- */

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static int rng_below(uint64_t *s, int n)
{
	return (int)(rng_next(s) % (uint64_t)n);
}

static er_game_config make_cfg(int nseats, bool solo, uint64_t seed)
{
	er_game_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.nseats = nseats;
	cfg.solo = solo;
	cfg.app_deck = true;
	cfg.seed = seed;
	cfg.cardio[0] = ER_CARDIO_NURSES_3;
	cfg.cardio[1] = ER_CARDIO_ALL_WARDS;
	cfg.radiologist = ER_RADIO_HIGH_VALUES;
	cfg.epidemiologist = ER_EPI_LARGEST_GROUP;
	er_result r = er_game_config_finish(&D, &cfg);
	CHECK_STR(r.rule, NULL);
	return cfg;
}

/* A log of events, for replay. */
typedef struct {
	int n;
	er_event ev[512];
} event_log;

static er_result apply_logged(er_game *g, event_log *log, const er_event *ev)
{
	er_result r = er_game_apply(g, &D, ev);
	if (!r.rule && log && log->n < (int)(sizeof log->ev / sizeof log->ev[0]))
		log->ev[log->n++] = *ev;
	return r;
}

static er_event reveal_event(const er_game *g, int turn)
{
	er_event ev;
	memset(&ev, 0, sizeof ev);
	ev.kind = ER_EV_REVEAL;
	ev.seat = g->chief_seat;
	ev.turn = turn;
	er_game_app_reveal(&g->cfg, turn, &ev.card, ev.dice);
	return ev;
}

static er_event undo_event(int seat, int turn)
{
	er_event ev;
	memset(&ev, 0, sizeof ev);
	ev.kind = ER_EV_UNDO;
	ev.seat = seat;
	ev.turn = turn;
	return ev;
}

/* The simplest legal move: the die to the morgue (and its extra patient too). */
static er_event morgue_event(const er_game *g, int seat, er_colour die)
{
	er_event ev;
	memset(&ev, 0, sizeof ev);
	ev.kind = ER_EV_MOVE;
	ev.seat = seat;
	ev.turn = g->turn;
	ev.alicat_discard = -1;
	ev.move.die = die;
	ev.move.steps[ev.move.nsteps++] =
	    (er_step){.kind = ER_STEP_MORGUE, .patient = ER_PT_DIE, .recolour = ER_NO_COLOUR};
	if (g->card >= 1 && D.cards[g->card - 1].bay[die].kind == ER_BONUS_EXTRA)
		ev.move.steps[ev.move.nsteps++] = (er_step){
		    .kind = ER_STEP_MORGUE, .patient = ER_PT_EXTRA, .recolour = ER_NO_COLOUR};
	return ev;
}

/* A random legal move for seat (ER rulebook "ADMIT PATIENT"): one option of er_move_options,
 * the other patient of an extra bonus to the morgue, sometimes a screen after admitting. With no
 * option, a die the seat may take goes to the morgue ("MORGUE"). */
static er_event random_move(const er_game *g, int seat, uint64_t *rng)
{
	static er_option opts[ER_MAX_OPTIONS];
	er_turn t;
	er_game_turn_for(g, seat, &t);
	bool alicat = g->cfg.solo && seat == 2;
	int n = er_move_options(&D, &t, &g->sheets[seat - 1], alicat, opts, ER_MAX_OPTIONS);
	if (n == 0) {
		er_colour die = (er_colour)rng_below(rng, 3);
		if (!t.chief && die == t.chief_die)
			die = (er_colour)((die + 1) % 3);
		return morgue_event(g, seat, die);
	}
	const er_option *o = &opts[rng_below(rng, n)];
	er_event ev;
	memset(&ev, 0, sizeof ev);
	ev.kind = ER_EV_MOVE;
	ev.seat = seat;
	ev.turn = g->turn;
	ev.alicat_discard = -1;
	er_move *m = &ev.move;
	er_move_from_option(&D, &t, o, m);
	const er_bonus *b = &D.cards[g->card - 1].bay[o->die];
	if (b->kind == ER_BONUS_SCREEN && !o->screen_first && rng_below(rng, 2))
		m->steps[m->nsteps++] = (er_step){.kind = ER_STEP_SCREEN,
		                                  .ward = (int8_t)rng_below(rng, ER_WARDS),
		                                  .recolour = ER_NO_COLOUR};
	/* a screen on an empty ward is illegal: fall back to the admitted ward */
	if (m->steps[m->nsteps - 1].kind == ER_STEP_SCREEN && m->nsteps > 1 &&
	    m->steps[0].kind != ER_STEP_SCREEN) {
		er_step *sc = &m->steps[m->nsteps - 1];
		if (g->sheets[seat - 1].count[sc->ward] == 0)
			sc->ward = o->ward;
	}
	return ev;
}

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

/* ev with the same values as src but garbage in its padding bytes: the game's bytes must not
 * depend on them (memcmp-equal replays). */
static void dirty_copy(er_event *ev, const er_event *src)
{
	memset(ev, 0xA5, sizeof *ev);
	ev->kind = src->kind;
	ev->seat = src->seat;
	ev->turn = src->turn;
	ev->card = src->card;
	for (int c = 0; c < ER_DICE; c++)
		ev->dice[c] = src->dice[c];
	ev->move.die = src->move.die;
	ev->move.nsteps = src->move.nsteps;
	for (int i = 0; i < ER_MAX_STEPS; i++) {
		ev->move.steps[i].kind = src->move.steps[i].kind;
		ev->move.steps[i].patient = src->move.steps[i].patient;
		ev->move.steps[i].ward = src->move.steps[i].ward;
		ev->move.steps[i].value = src->move.steps[i].value;
		ev->move.steps[i].recolour = src->move.steps[i].recolour;
	}
	ev->alicat_discard = src->alicat_discard;
}

static void replay(const event_log *log, const er_game_config *cfg, er_game *out)
{
	er_game_init(out, &D, cfg);
	for (int i = 0; i < log->n; i++) {
		er_event ev;
		dirty_copy(&ev, &log->ev[i]);
		er_result r = er_game_apply(out, &D, &ev);
		if (r.rule) {
			printf("  replay event %d: %s (%s)\n", i, r.rule, r.detail);
			CHECK(0);
		}
	}
}

/* Common checks on a finished game: finished after nturns, every sheet scores, ranks are
 * consistent with totals ("END OF THE GAME": "The player with the most points wins"). */
static void check_finished(const er_game *g, const event_log *log)
{
	CHECK(g->finished);
	CHECK_EQ_INT(g->turn, g->cfg.nturns);
	CHECK_EQ_INT(g->version, log->n);
	er_breakdown sc[ER_MAX_SEATS];
	int rank[ER_MAX_SEATS];
	er_game_scores(g, &D, sc, rank);
	bool have_first = false;
	for (int i = 0; i < g->cfg.nseats; i++) {
		bool alicat = g->cfg.solo && i == 1;
		er_result r =
		    er_sheet_validate(&D, &g->sheets[i], alicat, alicat ? g->cfg.modifiers : 0);
		CHECK_STR(r.rule, NULL);
		CHECK(rank[i] >= 1 && rank[i] <= g->cfg.nseats);
		have_first |= rank[i] == 1;
		for (int j = 0; j < g->cfg.nseats; j++) {
			if (sc[i].total > sc[j].total)
				CHECK(rank[i] < rank[j]);
			if (sc[i].total == sc[j].total && !g->cfg.solo)
				CHECK_EQ_INT(rank[i], rank[j]);
		}
		CHECK_EQ_INT(sc[i].cardiologists,
		             g->sheets[i].cardiologists[0] + g->sheets[i].cardiologists[1]);
	}
	CHECK(have_first);
	/* every card of the deck was flipped once */
	int used = 0;
	for (int c = 1; c <= ER_CARDS; c++)
		used += g->card_used[c];
	CHECK_EQ_INT(used, g->cfg.nturns);
	/* "END OF THE GAME": nothing more is accepted */
	er_event ev = reveal_event(g, g->turn + 1);
	ev.card = 1;
	ev.dice[0] = ev.dice[1] = ev.dice[2] = 1;
	er_game copy = *g;
	CHECK_STR(er_game_apply(&copy, &D, &ev).rule, ER_RULE_GAME_FINISHED);
	CHECK(memcmp(&copy, g, sizeof copy) == 0);
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
	er_data *d = &D;
	loaded = er_fixture_load(d);
	if (loaded != 0) {
		printf("FAIL er_game: cannot load templates/er\n");
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
	TEST("seed003 FLIP & ROLL / GETTING READY 2: reveal by the chief, each card once",
	     t_reveal_rules);
	TEST("seed003 CHOOSE PATIENT / api.md: chief first, one move per seat, stale turns",
	     t_move_flow);
	TEST("api.md undo: sheet restored exactly, chief blocked after others", t_undo);
	TEST("seed003 CARDIOLOGISTS: simultaneous 8, then 5, then nobody", t_cardio_ties);
	TEST("seed003 CARDIOLOGISTS: 2 players 5 then discard", t_cardio_two_players);
	TEST("seed003 SOLO MODE: full solo games, ALICAT via alicat_next, lead alternates, replay",
	     t_solo_game);
	TEST("seed003 SOLO MODE: undo and the bot seat", t_solo_undo);
	TEST("seed003 SOLO MODE / CARDIOLOGISTS: ALICAT's ward, the human's discard, combined goal",
	     t_solo_cardio);
	TEST("seed003 END OF THE GAME / SOLO MODE: ranks, ties shared, solo tie to ALICAT",
	     t_ranks);
	TEST("api.md Conventions: rule → HTTP status", t_status);
	TEST_MAIN_END();
}
