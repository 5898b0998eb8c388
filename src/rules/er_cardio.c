/* The Cardiologist race: who scores each Cardiologist card at the end of a turn.
 *
 * ER rulebook "CARDIOLOGISTS" (multiplayer) and "SOLO MODE / CARDIOLOGISTS" (against ALICAT).
 * Pure: the caller says who meets which goal (er_cardio_goal_met) and records the awards in each
 * sheet's cardiologists[k] box.
 *
 * Readings of the rulebook (see also the comments at each function):
 * - Both races are one simultaneous check per turn: whatever is on offer when the check starts is
 *   what every achiever of this turn scores; the card flips or is discarded afterwards.
 * - Solo, while both cards remain, the human's goal is the combined one, even in a turn in which
 *   ALICAT takes one of the cards: the single remaining card can be scored on its own from the
 *   next check on.
 * - Solo, each ward ALICAT fills in one turn takes one remaining card (a turn in which it fills
 *   two wards while both cards remain takes both, 5 each): "ALICAT may score it by filling a
 *   second ward". */
#include <string.h>

#include "rules/er.h"

enum { SOLO_POINTS = 5 };

void er_cardio_race_init(er_cardio_race *r, int nplayers)
{
	/* "Place the Cardiologists with the '8/5' side face up. (2 players: … the '5' side …)"
	 * (ER rulebook "GETTING READY" step 4). Solo is set up as a 2-player game, but its race is
	 * er_solo_race. */
	int8_t first = nplayers == 2 ? 5 : 8;
	r->offer[0] = first;
	r->offer[1] = first;
}

void er_cardio_race_turn(er_cardio_race *r, int nseats, const bool (*met)[2],
                         const int16_t (*already)[2], int16_t (*award)[2])
{
	for (int i = 0; i < nseats; i++)
		award[i][0] = award[i][1] = 0;
	for (int k = 0; k < 2; k++) {
		if (r->offer[k] <= 0)
			continue;
		bool any = false;
		/* "If two [or] more players achieve the goal in the same turn, all these players
		 * receive the full points currently available." A seat that already holds points
		 * for this card does not score it again. */
		for (int i = 0; i < nseats; i++) {
			if (met[i][k] && already[i][k] == 0) {
				award[i][k] = r->offer[k];
				any = true;
			}
		}
		/* "The first time … 8 points and flips the card over. The second time … 5 points
		 * and then discards the card." 2 players: 5, then discard. */
		if (any)
			r->offer[k] = r->offer[k] == 8 ? 5 : 0;
	}
}

void er_solo_race_init(er_solo_race *r)
{
	r->remaining[0] = r->remaining[1] = true;
}

void er_solo_race_turn(er_solo_race *r, const bool human_met[2], int alicat_wards_filled,
                       int discard_choice, int16_t human_award[2], int16_t alicat_award[2])
{
	human_award[0] = human_award[1] = 0;
	alicat_award[0] = alicat_award[1] = 0;
	int first = discard_choice == 1 ? 1 : 0;
	int fills = alicat_wards_filled > 0 ? alicat_wards_filled : 0;

	if (r->remaining[0] && r->remaining[1]) {
		/* "While both Cardiologists remain available, you must treat them as a single
		 * combined goal and can only score them if you achieve both goals. … score 10
		 * points and discard both goals." Recorded as 5 in each card's box. */
		bool human = human_met[0] && human_met[1];
		if (human) {
			human_award[0] = human_award[1] = SOLO_POINTS;
		}
		/* "If ALICAT fills a ward and at least one Cardiologist remains, ALICAT scores 5
		 * points. You choose which Cardiologist to discard." "If you score both on the
		 * same turn that ALICAT fills a ward, you score 10 points and ALICAT scores 5
		 * points." A second ward filled this same turn takes the other card too. */
		if (fills >= 1)
			alicat_award[first] = SOLO_POINTS;
		if (fills >= 2)
			alicat_award[1 - first] = SOLO_POINTS;
		if (human) {
			r->remaining[0] = r->remaining[1] = false;
		} else {
			if (fills >= 1)
				r->remaining[first] = false;
			if (fills >= 2)
				r->remaining[1 - first] = false;
		}
		return;
	}

	for (int k = 0; k < 2; k++) {
		if (!r->remaining[k])
			continue;
		/* "If only one Cardiologist remains, you may score it individually by achieving
		 * the goal, and ALICAT may score it by filling a second ward. In either case,
		 * discard the card. If you achieve the goal on the same turn ALICAT fills a second
		 * ward, you both score 5 points." */
		if (human_met[k])
			human_award[k] = SOLO_POINTS;
		if (fills >= 1)
			alicat_award[k] = SOLO_POINTS;
		if (human_met[k] || fills >= 1)
			r->remaining[k] = false;
	}
}
