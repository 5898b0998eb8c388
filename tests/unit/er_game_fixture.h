/* Shared helpers for the ER game state machine tests (test_er_game_full.c, test_er_game_turns.c,
 * test_er_game_solo.c): the game data D, a seeded PRNG, a game configuration, events (reveal,
 * undo, morgue, a random legal move), a log of events and its replay, and the checks on a
 * finished game. Each test binary includes it once and loads D in main with er_fixture_load. */
#ifndef ER_GAME_FIXTURE_H
#define ER_GAME_FIXTURE_H

#include "er_fixture.h"
#include "rules/er_game.h"
#include "test.h"

#define ER_GAME_FIXTURE_UNUSED __attribute__((unused))

/* templates/er/, loaded by main */
static er_data D;

ER_GAME_FIXTURE_UNUSED static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

ER_GAME_FIXTURE_UNUSED static int rng_below(uint64_t *s, int n)
{
	return (int)(rng_next(s) % (uint64_t)n);
}

ER_GAME_FIXTURE_UNUSED static er_game_config make_cfg(int nseats, bool solo, uint64_t seed)
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

ER_GAME_FIXTURE_UNUSED static er_result apply_logged(er_game *g, event_log *log, const er_event *ev)
{
	er_result r = er_game_apply(g, &D, ev);
	if (!r.rule && log && log->n < (int)(sizeof log->ev / sizeof log->ev[0]))
		log->ev[log->n++] = *ev;
	return r;
}

ER_GAME_FIXTURE_UNUSED static er_event reveal_event(const er_game *g, int turn)
{
	er_event ev;
	memset(&ev, 0, sizeof ev);
	ev.kind = ER_EV_REVEAL;
	ev.seat = g->chief_seat;
	ev.turn = turn;
	er_game_app_reveal(&g->cfg, turn, &ev.card, ev.dice);
	return ev;
}

ER_GAME_FIXTURE_UNUSED static er_event undo_event(int seat, int turn)
{
	er_event ev;
	memset(&ev, 0, sizeof ev);
	ev.kind = ER_EV_UNDO;
	ev.seat = seat;
	ev.turn = turn;
	return ev;
}

/* An empty move of seat on the game's turn, no Cardiologist discard chosen. */
ER_GAME_FIXTURE_UNUSED static er_event move_event(const er_game *g, int seat)
{
	er_event ev;
	memset(&ev, 0, sizeof ev);
	ev.kind = ER_EV_MOVE;
	ev.seat = seat;
	ev.turn = g->turn;
	ev.alicat_discard = -1;
	return ev;
}

/* The simplest legal move: the die to the morgue (and its extra patient too). */
ER_GAME_FIXTURE_UNUSED static er_event morgue_event(const er_game *g, int seat, er_colour die)
{
	er_event ev = move_event(g, seat);
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
ER_GAME_FIXTURE_UNUSED static er_event random_move(const er_game *g, int seat, uint64_t *rng)
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
	er_event ev = move_event(g, seat);
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

/* ev with the same values as src but garbage in its padding bytes: the game's bytes must not
 * depend on them (memcmp-equal replays). */
ER_GAME_FIXTURE_UNUSED static void dirty_copy(er_event *ev, const er_event *src)
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

ER_GAME_FIXTURE_UNUSED static void replay(const event_log *log, const er_game_config *cfg,
                                          er_game *out)
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
ER_GAME_FIXTURE_UNUSED static void check_finished(const er_game *g, const event_log *log)
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

#endif
