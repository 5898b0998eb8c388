/* ER sheets as PDFs over HTTP (pdf.c): blank sheets to print, a seat's sheet as written, a
 * whole game. Served through pdf/serve.h; drawn by src/pdf/er_sheet.c. */
#ifndef GAMES_ER_PDF_H
#define GAMES_ER_PDF_H

#include "http/http.h"

int api_er_sheets_pdf(const http_req *req, http_resp *resp); /* GET /api/v1/er/sheets.pdf */
/* GET /api/v1/er/games/{id}/seats/{seat}/sheet.pdf, GET /api/v1/er/games/{id}/sheets.pdf */
int api_er_seat_sheet_pdf(const http_req *req, http_resp *resp);
int api_er_game_sheets_pdf(const http_req *req, http_resp *resp);

#endif
