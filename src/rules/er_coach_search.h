/* The coach's beam search over turns (er_coach_search.c), used by er_coach.c only. */
#ifndef ER_COACH_SEARCH_H
#define ER_COACH_SEARCH_H

#include "rules/er_coach.h"

enum { COACH_MAX_FORCED = 4 };

/* The race's state between turns: the multiplayer offers, the solo cards remaining, and which
 * of the other seats' goals (er_coach_game.others) have scored. */
typedef struct {
	er_cardio_race race;
	er_solo_race solo;
	uint16_t others_scored;
} coach_race;

typedef struct coach_search coach_search;

/* Working memory for searches of widths up to `width`; NULL when out of memory. */
coach_search *coach_search_new(const er_data *d, const er_coach_game *g, const er_coach_opts *o,
                               int width);
void coach_search_free(coach_search *s);
long coach_search_nodes(const coach_search *s);
bool coach_search_stopped(const coach_search *s);

void coach_race_init(const er_coach_game *g, coach_race *r);
/* The end-of-turn race of turn t (0-based) for sheet s: adds its awards to s->cardiologists. */
void coach_race_turn(const er_data *d, const er_coach_game *g, int t, coach_race *r, er_sheet *s);

/* Beam search from `start` (the sheet after t0 turns, race state rs) to the end of the game.
 * greedy: rank by the score now only (width 1 gives the greedy line). forced: up to
 * COACH_MAX_FORCED full-game move arrays whose turns t0.. are kept in the beam. On success
 * writes the best line's moves of turns t0.. into moves[t0..] and returns true; false when the
 * deadline stopped it. */
bool coach_search_run(coach_search *s, int t0, const er_sheet *start, const coach_race *rs,
                      int width, bool greedy, const er_move *const *forced, int nforced,
                      er_move *moves);

#endif
