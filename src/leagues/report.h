/* The league report PDF (leagues/report.c). */
#ifndef LEAGUE_PDF_H
#define LEAGUE_PDF_H

#include "http/http.h"

/* Loads templates/league-report.json (every label in en and fr). 0, or -1 after logging. */
int report_init(const char *templates_dir);
void report_shutdown(void);

/* GET /api/v1/leagues/{id}/standings.pdf?season=&game=&paper=&lang= */
int api_league_standings_pdf(const http_req *req, http_resp *resp);

/* GET /api/v1/leagues/{id}/seasons/{season}/recap.pdf?paper=&lang= */
int api_league_recap_pdf(const http_req *req, http_resp *resp);

#endif
