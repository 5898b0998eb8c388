/* The CSV export: one row per player per play (csv.c). */
#ifndef LEAGUES_CSV_H
#define LEAGUES_CSV_H

#include "http/http.h"

int api_league_export_csv(const http_req *req, http_resp *resp);

#endif
