/* Clinic's score pad: its pad_kind (games/rounds/pads.h) and the two pad routes. */
#include "games/clinic/pad.h"

#include "games/clinic/kind.h"

static const char *const cl_ties[] = {"turn-order", NULL};

const pad_kind clinic_pad_kind = {"clinic", &clinic_round_kind, cl_ties};

int api_clinic_pads_pdf(const http_req *req, http_resp *resp)
{
	return pads_blank_pdf(req, resp, &clinic_pad_kind);
}

int api_clinic_game_pad_pdf(const http_req *req, http_resp *resp)
{
	return pads_game_pdf(req, resp, &clinic_pad_kind);
}
