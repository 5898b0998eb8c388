/* Score pads of the games scored round by round (pads.c): a kind describes its pad with a
 * pad_kind; this layer draws a blank pad or a game as a filled pad. The pages are drawn by
 * src/pdf/pad.c; the rows come from the kind's own encoders of a round and a finish entry (so a
 * new field of the digital entry is a new row of the pad), the texts from templates/pads.json. */
#ifndef GAMES_ROUNDS_PADS_H
#define GAMES_ROUNDS_PADS_H

#include "engine/table.h"
#include "http/http.h"
#include "pdf/pdf.h"
#include "rules/tabletop.h"

#include <json-c/json.h>
#include <stdbool.h>

enum { PAD_MAX_ROUNDS = 8 };

/* What the pad of one seat's game says; filled from the kind's scorer. */
typedef struct {
	int nseats;
	bool finished;
	int total[PDF_PAD_COLS], rank[PDF_PAD_COLS];
	int round_points[PDF_PAD_COLS][PAD_MAX_ROUNDS + 1]; /* [0] = end of the game */
	bool verified[PDF_PAD_COLS];
	const char *tie[PDF_PAD_COLS]; /* pads.json "ties" key (static), NULL: none */
	char profile[TT_NAME_LEN];
} pad_scores;

/* A kind of game with a pad. State pointers are the kind's state (dh_game, clinic_game). */
typedef struct {
	const char *key; /* pads.json member, path segment, file name */
	int rounds;
	const table_kind *tk;
	json_object *(*round_entry)(const void *g, int round, int seat); /* g NULL: zeros */
	json_object *(*finish_entry)(const void *g, int seat);
	bool (*round_entered)(const void *g, int round, int seat);
	bool (*finish_entered)(const void *g, int seat);
	void (*scores)(const void *g, pad_scores *out);
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
