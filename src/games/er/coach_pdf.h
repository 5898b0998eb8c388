/* The coach's PDF (coach_pdf.c): the analysis document of GET …/seats/{seat}/analysis read
 * into the page's data, drawn by src/pdf/er_coach.c, served as …/analysis.pdf. */
#ifndef GAMES_ER_COACH_PDF_H
#define GAMES_ER_COACH_PDF_H

#include "http/http.h"
#include "pdf/pdf.h"

#include <stddef.h>

struct json_object;

/* The page's data with the sheets and scores it points to (out->c points into out). */
typedef struct {
	er_sheet mine, best;
	er_breakdown mine_score, best_score;
	pdf_er_coach c;
} er_coach_print;

/* Reads the analysis document a (borrowed) into out: both sheets and their scores, the search's
 * width and reach, the three costliest turns. The player's name, game, date and link are left
 * to the caller. 0, or -1 with a message in err when a is not such a document. */
int er_coach_print_parse(const er_data *d, struct json_object *a, er_coach_print *out, char *err,
                         size_t errlen);

/* GET /api/v1/er/games/{id}/seats/{seat}/analysis.pdf (a heavy route). */
int api_er_analysis_pdf(const http_req *req, http_resp *resp);

#endif
