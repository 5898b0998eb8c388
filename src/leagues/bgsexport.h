/* The BG Stats export: the league's files with its changes (bgsexport.c). */
#ifndef LEAGUES_BGSEXPORT_H
#define LEAGUES_BGSEXPORT_H

#include "http/http.h"

int api_league_export_json(const http_req *req, http_resp *resp);

#endif
