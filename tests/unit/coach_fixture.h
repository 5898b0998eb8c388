/* Seeded ER games for the coach's tests and benchmark: a whole game through er_game_apply (app
 * deck, ER rulebook "GETTING READY", "HOW TO PLAY", "SOLO MODE") with a scripted player per
 * human seat — a random listed option, the cheapest in stethoscopes first half the time, the
 * morgue when nothing fits — and ALICAT by its protocol; the log is kept for
 * er_coach_game_from_log. */
#ifndef COACH_FIXTURE_H
#define COACH_FIXTURE_H

#include "er_fixture.h"
#include "rules/er_coach.h"
#include "rules/er_game.h"

typedef struct {
	er_game_config cfg;
	er_game g;
	int n;
	er_event ev[400];
} coach_fixture_game;

static uint64_t coach_fixture_rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static er_move coach_fixture_move(const er_data *d, const er_turn *t, const er_sheet *sh,
                                  uint64_t *rs)
{
	static er_option opts[ER_MAX_OPTIONS];
	int n = er_move_options(d, t, sh, false, opts, ER_MAX_OPTIONS);
	er_move m;
	for (int tries = 0; n > 0 && tries < 4; tries++) {
		const er_option *o = &opts[coach_fixture_rnd(rs) % (uint64_t)n];
		er_move_from_option(d, t, o, &m);
		er_sheet c = *sh;
		if (!er_move_apply(d, t, &m, false, &c).rule)
			return m;
	}
	memset(&m, 0, sizeof m);
	for (int die = 0; die < ER_DICE; die++) {
		m.die = (er_colour)die;
		m.nsteps = 0;
		m.steps[m.nsteps++] = (er_step){ER_STEP_MORGUE, ER_PT_DIE, 0, 0, ER_NO_COLOUR};
		if (d->cards[t->card - 1].bay[die].kind == ER_BONUS_EXTRA)
			m.steps[m.nsteps++] =
			    (er_step){ER_STEP_MORGUE, ER_PT_EXTRA, 0, 0, ER_NO_COLOUR};
		er_sheet c = *sh;
		if (!er_move_apply(d, t, &m, false, &c).rule)
			return m;
	}
	return m;
}

/* Plays a whole game; nseats 1..6 or solo. Returns 0, or -1 if an event was refused. */
static int coach_fixture_play(const er_data *d, coach_fixture_game *fg, int nseats, bool solo,
                              uint64_t seed)
{
	memset(fg, 0, sizeof *fg);
	fg->cfg.nseats = solo ? 2 : nseats;
	fg->cfg.solo = solo;
	fg->cfg.app_deck = true;
	fg->cfg.seed = seed;
	er_game_draw_specialists(d, seed, &fg->cfg);
	if (er_game_config_finish(d, &fg->cfg).rule)
		return -1;
	er_game_init(&fg->g, d, &fg->cfg);
	uint64_t rs = seed * 2654435761u + 1;
	er_game *g = &fg->g;
	while (!g->finished) {
		er_event ev;
		memset(&ev, 0, sizeof ev);
		ev.kind = ER_EV_REVEAL;
		ev.seat = solo ? 1 : g->chief_seat;
		ev.turn = g->turn + 1;
		er_game_app_reveal(&g->cfg, ev.turn, &ev.card, ev.dice);
		if (er_game_apply(g, d, &ev).rule)
			return -1;
		fg->ev[fg->n++] = ev;
		int n = g->cfg.nseats;
		for (int k = 0; k < n && !g->finished; k++) {
			int seat = (g->chief_seat - 1 + k) % n + 1;
			if (solo && seat == 2) {
				if (!er_game_alicat_next(g, d, &ev))
					return -1;
			} else {
				er_turn t;
				er_game_turn_for(g, seat, &t);
				memset(&ev, 0, sizeof ev);
				ev.kind = ER_EV_MOVE;
				ev.seat = seat;
				ev.turn = g->turn;
				ev.alicat_discard =
				    solo ? (int)(coach_fixture_rnd(&rs) % 3) - 1 : -1;
				ev.move = coach_fixture_move(d, &t, &g->sheets[seat - 1], &rs);
			}
			if (er_game_apply(g, d, &ev).rule)
				return -1;
			fg->ev[fg->n++] = ev;
		}
		/* solo with ALICAT as chief: the human moves after ALICAT above */
	}
	return 0;
}

#endif
