/* Clinic games at the table: the "clinic" kind of the table engine, the handlers of its own
 * mutations, and the stateless Business helper (create, read, log, events and join are the
 * engine's: engine/table.h). */
#ifndef CLINIC_GAMES_H
#define CLINIC_GAMES_H

#include "engine/table.h"
#include "http/http.h"
#include "rules/clinic.h"

extern const table_kind clinic_table_kind;

int api_clinic_round(const http_req *req, http_resp *resp);    /* PUT …/rounds/{n} */
int api_clinic_finish(const http_req *req, http_resp *resp);   /* POST …/finish */
int api_clinic_business(const http_req *req, http_resp *resp); /* POST /api/v1/clinic/business */

/* ---- score pads (issue 9, pads.c): as dh_pad_round_entry (dh_games.h) ---- */
struct json_object *clinic_pad_round_entry(const clinic_game *g, int round, int seat);
struct json_object *clinic_pad_finish_entry(const clinic_game *g, int seat);

#endif
