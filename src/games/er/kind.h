/* ER games at the table (api.md "Games"): the ER kind of the table engine, and the handlers of
 * its own mutations (create, read, log, events and join are the engine's: engine/table.h). */
#ifndef ER_GAMES_H
#define ER_GAMES_H

#include "http/http.h"
#include "engine/table.h"

extern const table_kind er_table_kind;

int api_er_turn_reveal(const http_req *req, http_resp *resp);
int api_er_move(const http_req *req, http_resp *resp);
int api_er_undo(const http_req *req, http_resp *resp);

#endif
