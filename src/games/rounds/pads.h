/* Score pads of the games scored round by round (pads.c): a kind describes its pad with a
 * pad_kind; this layer draws a blank pad or a game as a filled pad. The pages are drawn by
 * src/pdf/pad.c; the rows come from the kind's own encoders of a round and a finish entry (so a
 * new field of the digital entry is a new row of the pad), the texts from templates/pads.json. */
#ifndef GAMES_ROUNDS_PADS_H
#define GAMES_ROUNDS_PADS_H

#include "engine/table.h"
#include "games/rounds/kind.h"
#include "http/http.h"
#include "pdf/pdf.h"
#include "rules/tabletop.h"

#include <json-c/json.h>
#include <stdbool.h>

/* A kind of game with a pad: its rows are its round_kind's entries, its numbers its scorer's. */
typedef struct {
	const char *key; /* pads.json member, path segment, file name */
	const round_kind *rk;
	const char *const *ties; /* every tie id the scorer can name, NULL-terminated */
} pad_kind;

/* Loads templates/pads.json and checks that it labels every field of each kind's entries in
 * every language. After pdf_api_init. Returns 0, or -1 after logging why. */
int pads_api_init(const char *templates_dir, const pad_kind *const *kinds, int nkinds);
void pads_api_shutdown(void);

/* GET …/pads.pdf?paper=&lang=&players=1..4: a blank pad (ETag). */
int pads_blank_pdf(const http_req *req, http_resp *resp, const pad_kind *k);
/* GET …/games/{id}/pad.pdf?paper=&lang=: the game as a filled pad (any token of the game). */
int pads_game_pdf(const http_req *req, http_resp *resp, const pad_kind *k);

#endif
