/* Score pads of Dice Hospital and Clinic over HTTP (pads.c, issue 9): start/stop hooks and the
 * handlers. The pages are drawn by src/pdf/pad.c; the rows come from the kinds' own encoders of
 * a round and a finish entry (dh_pad_round_entry, clinic_pad_round_entry), the texts from
 * templates/pads.json. */
#ifndef PADS_API_H
#define PADS_API_H

#include "http/http.h"

/* Loads templates/pads.json and checks it labels every field of both kinds' entries in every
 * language. After pdf_api_init. Returns 0, or -1 after logging why. */
int pads_api_init(const char *templates_dir);
void pads_api_shutdown(void);

/* GET /api/v1/{dh,clinic}/pads.pdf?paper=&lang=&players=1..4 (blank, ETag) */
int api_dh_pads_pdf(const http_req *req, http_resp *resp);
int api_clinic_pads_pdf(const http_req *req, http_resp *resp);
/* GET /api/v1/{dh,clinic}/games/{id}/pad.pdf?paper=&lang= (any token of the game) */
int api_dh_game_pad_pdf(const http_req *req, http_resp *resp);
int api_clinic_game_pad_pdf(const http_req *req, http_resp *resp);

#endif
