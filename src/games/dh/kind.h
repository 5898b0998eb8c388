/* Dice Hospital games at the table: the "dh" kind of the table engine and the handlers of its
 * own mutations (create, read, log, events and join are the engine's: engine/table.h). */
#ifndef DH_GAMES_H
#define DH_GAMES_H

#include "engine/table.h"
#include "games/rounds/kind.h"
#include "http/http.h"
#include "rules/dh.h"

extern const table_kind dh_table_kind;
extern const round_kind dh_round_kind; /* its fields and rules, for games/rounds */

int api_dh_round(const http_req *req, http_resp *resp);  /* PUT …/dh/games/{id}/rounds/{n} */
int api_dh_finish(const http_req *req, http_resp *resp); /* POST …/dh/games/{id}/finish */

#endif
