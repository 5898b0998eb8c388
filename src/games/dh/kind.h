/* Dice Hospital games at the table: the "dh" kind of the table engine and the handlers of its
 * own mutations (create, read, log, events and join are the engine's: engine/table.h). */
#ifndef DH_GAMES_H
#define DH_GAMES_H

#include "engine/table.h"
#include "http/http.h"
#include "rules/dh.h"

extern const table_kind dh_table_kind;

int api_dh_round(const http_req *req, http_resp *resp);  /* PUT …/dh/games/{id}/rounds/{n} */
int api_dh_finish(const http_req *req, http_resp *resp); /* POST …/dh/games/{id}/finish */

/* ---- score pads (issue 9, pads.c) ----
 * One seat's entry exactly as PUT …/rounds/{n} ("entries" item) and POST …/finish carry it,
 * without "seat": the encoder of the stored events, so a pad has the rows the digital entry
 * asks. g NULL: every value zero (the shape of a blank pad). Caller owns the object. */
struct json_object *dh_pad_round_entry(const dh_game *g, int round, int seat);
struct json_object *dh_pad_finish_entry(const dh_game *g, int seat);

#endif
