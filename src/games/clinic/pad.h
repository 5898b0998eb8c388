/* Clinic's score pad (pad.c): the pad_kind that games/rounds/pads.c draws, and its routes. */
#ifndef GAMES_CLINIC_PAD_H
#define GAMES_CLINIC_PAD_H

#include "games/rounds/pads.h"
#include "http/http.h"

extern const pad_kind clinic_pad_kind;

/* GET /api/v1/clinic/pads.pdf?paper=&lang=&players=1..4 (blank, ETag) */
int api_clinic_pads_pdf(const http_req *req, http_resp *resp);
/* GET /api/v1/clinic/games/{id}/pad.pdf?paper=&lang= (any token of the game) */
int api_clinic_game_pad_pdf(const http_req *req, http_resp *resp);

#endif
