/* Clinic's score pad: its pad_kind (games/rounds/pads.h) and the two pad routes. */
#include "games/clinic/pad.h"

#include "base/oom.h"
#include "games/clinic/kind.h"

#include <stdio.h>
#include <stdlib.h>

static json_object *cl_round(const void *g, int round, int seat)
{
	return clinic_pad_round_entry(g, round, seat);
}

static json_object *cl_finish(const void *g, int seat)
{
	return clinic_pad_finish_entry(g, seat);
}

static bool cl_round_entered(const void *g, int round, int seat)
{
	return ((const clinic_game *)g)->rounds[round - 1][seat - 1].entered;
}

static bool cl_finish_entered(const void *g, int seat)
{
	return ((const clinic_game *)g)->finish[seat - 1].entered;
}

static void cl_scores_of(const void *state, pad_scores *out)
{
	const clinic_game *g = state;
	clinic_scores *sc = xmalloc(sizeof *sc);
	clinic_score(g, sc);
	out->nseats = sc->nseats;
	out->finished = sc->finished;
	snprintf(out->profile, sizeof out->profile, "%s", g->cfg.profile.name);
	for (int s = 0; s < sc->nseats && s < PDF_PAD_COLS; s++) {
		const clinic_seat_score *ss = &sc->seat[s];
		out->total[s] = ss->total;
		out->rank[s] = ss->rank;
		out->verified[s] = ss->all_verified;
		out->tie[s] = ss->tie_turn_order ? "turn-order" : NULL;
		for (int r = 0; r <= CL_ROUNDS; r++)
			out->round_points[s][r] = ss->round_points[r];
	}
	free(sc);
}

static const char *const cl_ties[] = {"turn-order", NULL};

const pad_kind clinic_pad_kind = {"clinic",          CL_ROUNDS,    &clinic_table_kind,
                                  cl_round,          cl_finish,    cl_round_entered,
                                  cl_finish_entered, cl_scores_of, cl_ties};

int api_clinic_pads_pdf(const http_req *req, http_resp *resp)
{
	return pads_blank_pdf(req, resp, &clinic_pad_kind);
}

int api_clinic_game_pad_pdf(const http_req *req, http_resp *resp)
{
	return pads_game_pdf(req, resp, &clinic_pad_kind);
}
