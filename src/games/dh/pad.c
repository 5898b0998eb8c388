/* Dice Hospital's score pad: its pad_kind (games/rounds/pads.h) and the two pad routes. */
#include "games/dh/pad.h"

#include "base/oom.h"
#include "games/dh/kind.h"

#include <stdio.h>
#include <stdlib.h>

static json_object *dh_round(const void *g, int round, int seat)
{
	return dh_pad_round_entry(g, round, seat);
}

static json_object *dh_finish(const void *g, int seat)
{
	return dh_pad_finish_entry(g, seat);
}

static bool dh_round_entered(const void *g, int round, int seat)
{
	return ((const dh_game *)g)->rounds[round - 1][seat - 1].entered;
}

static bool dh_finish_entered(const void *g, int seat)
{
	return ((const dh_game *)g)->finish[seat - 1].entered;
}

static void dh_scores_of(const void *state, pad_scores *out)
{
	const dh_game *g = state;
	dh_scores *sc = xmalloc(sizeof *sc);
	dh_score(g, sc);
	out->nseats = sc->nseats;
	out->finished = sc->finished;
	snprintf(out->profile, sizeof out->profile, "%s", g->cfg.profile.name);
	for (int s = 0; s < sc->nseats && s < PDF_PAD_COLS; s++) {
		const dh_seat_score *ss = &sc->seat[s];
		out->total[s] = ss->total;
		out->rank[s] = ss->rank;
		out->verified[s] = ss->all_verified;
		out->tie[s] = dh_tie_id(ss->tie);
		for (int r = 0; r <= DH_ROUNDS; r++)
			out->round_points[s][r] = ss->round_points[r];
	}
	free(sc);
}

static const char *const dh_ties[] = {"fewest-patients-left", "highest-pips", "shared", NULL};

const pad_kind dh_pad_kind = {"dh",      DH_ROUNDS,        &dh_table_kind,    dh_round,
                              dh_finish, dh_round_entered, dh_finish_entered, dh_scores_of,
                              dh_ties};

int api_dh_pads_pdf(const http_req *req, http_resp *resp)
{
	return pads_blank_pdf(req, resp, &dh_pad_kind);
}

int api_dh_game_pad_pdf(const http_req *req, http_resp *resp)
{
	return pads_game_pdf(req, resp, &dh_pad_kind);
}
