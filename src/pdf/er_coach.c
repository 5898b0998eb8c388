/* The coach's page: a seat's finished sheet beside the best sheet the search found, each the
 * whole printed sheet (er_sheet.c's drawing) scaled into half the page, then the totals, what the
 * search is (the best found, not a proven optimum; how far a search cut short got) and the
 * turns that cost the most as a table. Every text comes from print.json's labels. */
#include "pdf/draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const float INK[3] = {0.12f, 0.12f, 0.16f};
static const float MUTED[3] = {0.35f, 0.35f, 0.40f};

/* label with its "{name}" replaced by the number v, into out. */
static void fill_number(const char *label, const char *name, int v, char *out, size_t cap)
{
	char key[32];
	snprintf(key, sizeof key, "{%s}", name);
	const char *at = strstr(label, key);
	if (at == NULL)
		snprintf(out, cap, "%s", label);
	else
		snprintf(out, cap, "%.*s%d%s", (int)(at - label), label, v, at + strlen(key));
}

/* The sheet of f drawn as its page would be, scaled by s with its top-left corner at (x, y). */
static float scaled_sheet(pdf_doc *doc, HPDF_Page pg, const pdf_er_filled *f, float x, float y,
                          float s)
{
	HPDF_Page_GSave(pg);
	/* page point (px, py) in PDF space lands at (x + s px, ph - y - s (ph - py)) */
	HPDF_Page_Concat(pg, s, 0, 0, s, x, doc->ph - y - s * doc->ph);
	float bottom = pdf_er_sheet_draw(doc, pg, f);
	HPDF_Page_GRestore(pg);
	return y + s * bottom;
}

static const char *colour_word(const pdf_doc *doc, er_colour c)
{
	return pdf_label_text(doc, c == ER_YELLOW ? PL_YELLOW : c == ER_GREEN ? PL_GREEN : PL_RED);
}

/* The table of the costliest turns from y; returns the y under it. */
static float costliest(pdf_doc *doc, HPDF_Page pg, const pdf_er_coach *c, float y)
{
	float m = doc->p->margin, right = doc->pw - m;
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_BOLD, 12, m, y, AL_LEFT, pdf_label_text(doc, PL_COACH_COSTLIEST));
	y += 18;
	if (c->nturns == 0) { /* no choice cost anything, or the search weighed none */
		bool none = !c->complete && c->searched == 0;
		pdf_text_fit(doc, pg, PDF_REGULAR, 10, right - m, m, y, AL_LEFT,
		             pdf_label_text(doc, none ? PL_COACH_PARTIAL_NONE : PL_COACH_NONE));
		return y + 12;
	}
	enum { NCOL = 4 };
	static const pdf_label heads[NCOL] = {PL_COACH_TURN, PL_COACH_COST, PL_COACH_MOVE,
	                                      PL_COACH_MISSED};
	float w[NCOL] = {44, 64, 0, 0};
	w[2] = w[3] = (right - m - w[0] - w[1]) / 2;
	float x = m;
	for (int k = 0; k < NCOL; k++) {
		pdf_text_fit(doc, pg, PDF_BOLD, 9, w[k] - 6, x + 2, y, AL_LEFT,
		             pdf_label_text(doc, heads[k]));
		x += w[k];
	}
	pdf_stroke_rgb(pg, INK);
	HPDF_Page_SetLineWidth(pg, 1.0f);
	pdf_line(doc, pg, m, y + 4, right, y + 4);
	HPDF_Page_Stroke(pg);
	for (int i = 0; i < c->nturns; i++) {
		const pdf_er_coach_turn *t = &c->top[i];
		y += 20;
		if (i % 2 == 0) {
			pdf_fill_rgb(pg, (const float[3]){0.94f, 0.95f, 0.97f});
			pdf_rect(doc, pg, m, y - 14, right - m, 20);
			HPDF_Page_Fill(pg);
		}
		char cells[NCOL][PDF_LABEL_MAX * 2];
		snprintf(cells[0], sizeof cells[0], "%d", t->turn);
		snprintf(cells[1], sizeof cells[1], "%d", t->cost);
		if (t->ward > 0 && t->value != t->rolled) /* the value written, when it differs */
			snprintf(cells[2], sizeof cells[2], "%s %d → %s %d (%d)",
			         colour_word(doc, t->die), t->rolled, pdf_label_text(doc, PL_WARD),
			         t->ward, t->value);
		else if (t->ward > 0)
			snprintf(cells[2], sizeof cells[2], "%s %d → %s %d",
			         colour_word(doc, t->die), t->rolled, pdf_label_text(doc, PL_WARD),
			         t->ward);
		else
			snprintf(cells[2], sizeof cells[2], "%s %d → %s", colour_word(doc, t->die),
			         t->rolled, pdf_label_text(doc, PL_MORGUE));
		if (t->missed_label >= 0) /* the best line's points there less the player's */
			snprintf(cells[3], sizeof cells[3], "%s %s%d",
			         pdf_label_text(doc, (pdf_label)t->missed_label),
			         t->missed_points < 0 ? "−" : "+", abs(t->missed_points));
		else
			snprintf(cells[3], sizeof cells[3], "—");
		x = m;
		pdf_fill_rgb(pg, INK);
		for (int k = 0; k < NCOL; k++) {
			pdf_text_fit(doc, pg, k < 2 ? PDF_BOLD : PDF_REGULAR, 10, w[k] - 6, x + 2,
			             y, AL_LEFT, cells[k]);
			x += w[k];
		}
	}
	return y + 12;
}

void pdf_er_coach_page(pdf_doc *doc, const pdf_er_coach *c)
{
	HPDF_Page pg = pdf_new_page(doc);
	if (pg == NULL)
		return;
	float m = doc->p->margin, right = doc->pw - m, gap = 14;
	char line[PDF_NAME_MAX + PDF_LABEL_MAX];
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_BOLD, 15, m, m + 14, AL_LEFT, pdf_label_text(doc, PL_TITLE));
	pdf_text(doc, pg, PDF_BOLD, 20, m, m + 44, AL_LEFT, pdf_label_text(doc, PL_COACH_TITLE));
	snprintf(line, sizeof line, "%s (%s %d) · %s %s · %s", c->player ? c->player : "",
	         pdf_label_text(doc, PL_SEAT), c->seat, pdf_label_text(doc, PL_GAME),
	         c->game ? c->game : "", c->date ? c->date : "");
	pdf_text_fit(doc, pg, PDF_REGULAR, 10, right - m, m, m + 62, AL_LEFT, line);

	/* the two sheets, each a whole page scaled into half the width */
	float half = (right - m - gap) / 2, s = half / doc->pw, top = m + 78;
	pdf_er_filled mine = {.sheet = c->mine,
	                      .player = c->player,
	                      .date = c->date,
	                      .cardiologists = {ER_SPEC_NONE, ER_SPEC_NONE},
	                      .radiologist = ER_SPEC_NONE,
	                      .epidemiologist = ER_SPEC_NONE,
	                      .score = c->mine_score,
	                      .seat = c->seat};
	pdf_er_filled best = mine;
	best.sheet = c->best;
	best.player = pdf_label_text(doc, PL_COACH_BEST);
	best.score = c->best_score;
	best.seat = 0;
	float y1 = scaled_sheet(doc, pg, &mine, m, top, s);
	float y2 = scaled_sheet(doc, pg, &best, m + half + gap, top, s);
	pdf_stroke_rgb(pg, MUTED);
	HPDF_Page_SetLineWidth(pg, 0.6f);
	pdf_rect(doc, pg, m - 2, top - 2, half + 4, y1 - top + 6);
	pdf_rect(doc, pg, m + half + gap - 2, top - 2, half + 4, y2 - top + 6);
	HPDF_Page_Stroke(pg);

	/* the totals, then what the best sheet is */
	float y = (y1 > y2 ? y1 : y2) + 30;
	pdf_fill_rgb(pg, INK);
	snprintf(line, sizeof line, "%s: %s %d · %s %d (%+d)", pdf_label_text(doc, PL_TOTAL),
	         c->player ? c->player : "", c->mine_score->total,
	         pdf_label_text(doc, PL_COACH_BEST), c->best_score->total,
	         c->best_score->total - c->mine_score->total);
	pdf_text_fit(doc, pg, PDF_BOLD, 13, right - m, m, y, AL_LEFT, line);
	y += 18;
	pdf_fill_rgb(pg, MUTED);
	fill_number(pdf_label_text(doc, PL_COACH_NOTE), "width", c->width, line, sizeof line);
	pdf_text_fit(doc, pg, PDF_REGULAR, 9.5f, right - m, m, y, AL_LEFT, line);
	if (!c->complete) { /* how far the search got, when it weighed any turn */
		char part[PDF_LABEL_MAX * 2];
		fill_number(
		    pdf_label_text(doc, c->searched > 0 ? PL_COACH_PARTIAL : PL_COACH_PARTIAL_NONE),
		    "n", c->searched, part, sizeof part);
		fill_number(part, "total", c->turns, line, sizeof line);
		y += 13;
		pdf_text_fit(doc, pg, PDF_REGULAR, 9.5f, right - m, m, y, AL_LEFT, line);
	}
	costliest(doc, pg, c, y + 30);
}
