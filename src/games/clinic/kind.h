/* Clinic games at the table: the "clinic" kind of the table engine, the handlers of its own
 * mutations, and the stateless Business helper (create, read, log, events and join are the
 * engine's: engine/table.h). */
#ifndef CLINIC_GAMES_H
#define CLINIC_GAMES_H

#include "engine/table.h"
#include "games/rounds/kind.h"
#include "http/http.h"
#include "rules/clinic.h"

extern const table_kind clinic_table_kind;
extern const round_kind clinic_round_kind; /* its fields and rules, for games/rounds */

int api_clinic_round(const http_req *req, http_resp *resp);    /* PUT …/rounds/{n} */
int api_clinic_finish(const http_req *req, http_resp *resp);   /* POST …/finish */
int api_clinic_business(const http_req *req, http_resp *resp); /* POST /api/v1/clinic/business */

#endif
