/* Dice Hospital's score pad: its pad_kind (games/rounds/pads.h) and the two pad routes. */
#include "games/dh/pad.h"

#include "games/dh/kind.h"

static const char *const dh_ties[] = {"fewest-patients-left", "highest-pips", "shared", NULL};

const pad_kind dh_pad_kind = {"dh", &dh_round_kind, dh_ties};

int api_dh_pads_pdf(const http_req *req, http_resp *resp)
{
	return pads_blank_pdf(req, resp, &dh_pad_kind);
}

int api_dh_game_pad_pdf(const http_req *req, http_resp *resp)
{
	return pads_game_pdf(req, resp, &dh_pad_kind);
}
