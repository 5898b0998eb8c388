/* Printable PDFs and QR codes over HTTP (pdf.c): start/stop hooks and the handlers. The
 * renderers themselves are pure (src/pdf/pdf.h); this layer parses queries and streams bytes. */
#ifndef PDF_API_H
#define PDF_API_H

#include "http/http.h"
#include "pdf/pdf.h"

/* Loads templates/er/print.json and writes the slim font copy into a private temporary
 * directory (removed by pdf_api_shutdown). Returns 0, or -1 after logging why. */
int pdf_api_init(const char *templates_dir);
void pdf_api_shutdown(void);
/* The loaded print layout (read-only after pdf_api_init). */
const pdf_print *pdf_api_print(void);

/* ?paper=a4|letter&lang=en|fr (defaults a4, en): 0, or -1 with a 400 problem in resp. */
int pdf_api_paper_lang(const http_req *req, http_resp *resp, pdf_paper *paper, pdf_lang *lang);
/* A 200 application/pdf reply taking ownership of bytes (malloc'ed). */
int pdf_api_reply(http_resp *resp, unsigned char *bytes, size_t len, const char *filename);

/* Handlers */
int api_er_sheets_pdf(const http_req *req, http_resp *resp); /* GET /api/v1/er/sheets.pdf */
int api_qr_svg(const http_req *req, http_resp *resp);        /* GET /api/v1/qr.svg */
/* GET /api/v1/er/games/{id}/seats/{seat}/sheet.pdf, GET /api/v1/er/games/{id}/sheets.pdf */
int api_er_seat_sheet_pdf(const http_req *req, http_resp *resp);
int api_er_game_sheets_pdf(const http_req *req, http_resp *resp);

#endif
