/* An owner's writes of one statement (roster.c): a guest removed, a season added. */
#ifndef LEAGUES_ROSTER_H
#define LEAGUES_ROSTER_H

#include "http/http.h"

int api_league_member_delete(const http_req *req, http_resp *resp);

int api_league_season_add(const http_req *req, http_resp *resp);

#endif
