/* ER games at the table (api.md "Games"). Handlers for the route table. */
#ifndef ER_GAMES_H
#define ER_GAMES_H

#include "http/http.h"

/* Start/stop of the games resource (the /join rate limiter). */
int er_games_init(void);
void er_games_shutdown(void);

int api_er_game_create(const http_req *req, http_resp *resp);
int api_join(const http_req *req, http_resp *resp);
int api_er_game_get(const http_req *req, http_resp *resp);
int api_er_game_log(const http_req *req, http_resp *resp);
int api_er_game_events(const http_req *req, http_resp *resp);
int api_er_turn_reveal(const http_req *req, http_resp *resp);
int api_er_move(const http_req *req, http_resp *resp);
int api_er_undo(const http_req *req, http_resp *resp);

#endif
