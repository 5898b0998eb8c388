/* Serving PDFs over HTTP, shared by every printable document (ER sheets, score pads, the league
 * report): the print layout and font loaded at start, query parsing, ETags, the reply, the link
 * printed as a QR code. The renderers themselves are pure (pdf.h). */
#ifndef PDF_SERVE_H
#define PDF_SERVE_H

#include "http/http.h"
#include "pdf/pdf.h"

#include <time.h>

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
/* Finishes doc (pdf_doc_finish; NULL: the renderer did not start) and replies with it as
 * filename, or a 500 problem. private_doc: a game's or a league's, never kept by a cache. */
int pdf_api_finish(http_resp *resp, pdf_doc *doc, bool private_doc, const char *filename);

/* Sets ETag (from key and the start time) and Cache-Control; true with a 304 filled in when the
 * request's If-None-Match already names it. */
bool pdf_api_not_modified(const http_req *req, http_resp *resp, const char *key);
/* The creation date of stateless PDFs (the start time: same bytes until a restart). */
time_t pdf_api_started(void);
/* The front end's link to fragment (e.g. "game=ID"): PUBLIC_URL, else the request's scheme
 * (http_req_tls) and Host, then "/#". */
void pdf_api_link(const http_req *req, const char *fragment, char *out, size_t cap);

#endif
