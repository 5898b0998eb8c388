/* A seat's game for the coach, from the event log (er_coach.h). Pure: no I/O, no allocation.
 *
 * The log is replayed as the engine replays it (er_game_init, er_game_apply). The seat's turn
 * is taken as er_game_turn_for gives it when its move is accepted (the chief's die is known by
 * then: "CHOOSE PATIENT"); an undone move is replaced by the next one. When a turn closes
 * ("END OF TURN"), the other seats' sheets are checked against both Cardiologist goals
 * ("CARDIOLOGISTS") and, solo, ALICAT's newly filled wards and the human's choice of the card
 * to discard are kept ("SOLO MODE / CARDIOLOGISTS"). */
#include <string.h>

#include "rules/er_coach.h"

static bool all_moved(const er_game *g)
{
	for (int i = 0; i < g->cfg.nseats; i++)
		if (!g->moved[i])
			return false;
	return true;
}

/* The end of turn t (1-based) just closed: what the race needs from the other seats. */
static void turn_closed(const er_data *d, const er_game *g, int seat, int t, int8_t met[][2],
                        er_coach_game *out)
{
	if (g->cfg.solo) {
		int fills = 0;
		for (int w = 0; w < ER_WARDS; w++)
			if (er_ward_full(d, &g->sheets[1], w) && !er_ward_full(d, &g->before[1], w))
				fills++;
		out->alicat_fills[t - 1] = (int8_t)fills;
		out->alicat_discard[t - 1] = (int8_t)(g->alicat_discard == 1 ? 1 : 0);
		return;
	}
	for (int i = 0; i < g->cfg.nseats; i++) {
		if (i == seat - 1)
			continue;
		for (int k = 0; k < 2; k++)
			if (!met[i][k] && er_cardio_goal_met(d, &g->sheets[i], g->cfg.cardio[k]))
				met[i][k] = (int8_t)t;
	}
}

int er_coach_game_from_log(const er_data *d, const er_game_config *cfg, const er_event *events,
                           int nevents, int seat, er_coach_game *out)
{
	static _Thread_local er_game g;
	memset(out, 0, sizeof *out);
	er_game_init(&g, d, cfg);
	out->nturns = cfg->nturns < ER_COACH_MAX_TURNS ? cfg->nturns : ER_COACH_MAX_TURNS;
	out->cardio[0] = cfg->cardio[0];
	out->cardio[1] = cfg->cardio[1];
	out->radiologist = cfg->radiologist;
	out->epidemiologist = cfg->epidemiologist;
	out->nplayers = cfg->nseats;
	out->solo = cfg->solo;
	int8_t met[ER_MAX_SEATS][2];
	memset(met, 0, sizeof met);
	int done = 0;
	for (int e = 0; e < nevents; e++) {
		const er_event *ev = &events[e];
		er_turn seen; /* before the event: a closing move passes the chief on */
		er_game_turn_for(&g, seat, &seen);
		if (er_game_apply(&g, d, ev).rule)
			return -1;
		if (ev->kind != ER_EV_MOVE)
			continue;
		int t = ev->turn;
		if (t < 1 || t > out->nturns)
			continue;
		if (ev->seat == seat) {
			out->turns[t - 1] = seen;
			out->moves[t - 1] = ev->move;
			done = t;
		}
		if (all_moved(&g))
			turn_closed(d, &g, seat, t, met, out);
	}
	if (!cfg->solo)
		for (int i = 0; i < cfg->nseats; i++)
			for (int k = 0; k < 2; k++)
				if (i != seat - 1 && met[i][k] &&
				    out->nothers < ER_COACH_MAX_OTHERS)
					out->others[out->nothers++] =
					    (er_coach_other){(int8_t)k, met[i][k]};
	return done;
}
