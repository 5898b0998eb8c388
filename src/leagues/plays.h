/* Plays by hand (plays.c): add, read, list, edit, delete, and the league's change log. */
#ifndef LEAGUES_PLAYS_H
#define LEAGUES_PLAYS_H

#include "http/http.h"

int api_league_play_add(const http_req *req, http_resp *resp);

int api_league_play_list(const http_req *req, http_resp *resp);

int api_league_play_get(const http_req *req, http_resp *resp);

int api_league_play_edit(const http_req *req, http_resp *resp);

int api_league_play_delete(const http_req *req, http_resp *resp);

int api_league_log(const http_req *req, http_resp *resp);

#endif
