/* Score pads for Dice Hospital and Clinic: a table to write on (blank) or as entered (filled). */
#include "pdf/draw.h"

#include <stdio.h>
#include <string.h>

static const float INK[3] = {0.10f, 0.12f, 0.16f};
static const float SHADE[3] = {0.92f, 0.94f, 0.97f};
static const float GROUP[3] = {0.86f, 0.91f, 0.97f};
static const float RULE[3] = {0.62f, 0.66f, 0.72f};

enum { HEAD_H = 30 };

typedef struct {
	float x0, right, group_w, label_w, col_w, top, rh;
} pad_grid;

static pad_grid layout(const pdf_doc *doc, const pdf_pad *pad, float top, float bottom)
{
	pad_grid g;
	float m = doc->p->margin;
	g.x0 = m;
	g.right = doc->pw - m;
	g.group_w = 58;
	float avail = g.right - g.x0 - g.group_w;
	g.col_w = (avail - 150) / (float)pad->ncols;
	if (g.col_w > 96)
		g.col_w = 96;
	g.label_w = avail - g.col_w * (float)pad->ncols;
	g.top = top;
	g.rh = (bottom - top - HEAD_H) / (float)pad->nrows;
	if (g.rh > 20)
		g.rh = 20;
	return g;
}

static float col_x(const pad_grid *g, int c)
{
	return g->x0 + g->group_w + g->label_w + g->col_w * (float)c;
}

static void header(pdf_doc *doc, HPDF_Page pg, const pdf_pad *pad, const pad_grid *g)
{
	float y = g->top;
	pdf_fill_rgb(pg, GROUP);
	pdf_rect(doc, pg, col_x(g, 0), y, g->col_w * (float)pad->ncols, HEAD_H);
	HPDF_Page_Fill(pg);
	for (int c = 0; c < pad->ncols; c++) {
		char lab[PDF_LABEL_MAX + 8];
		snprintf(lab, sizeof lab, "%s %d", pad->player ? pad->player : "", c + 1);
		float x = col_x(g, c);
		pdf_grey(pg, 0.35f, 0.35f);
		pdf_text_fit(doc, pg, PDF_REGULAR, 7, g->col_w - 6, x + 3, y + 9, AL_LEFT, lab);
		pdf_fill_rgb(pg, INK);
		if (pad->names[c] && pad->names[c][0])
			pdf_text_fit(doc, pg, PDF_BOLD, 10, g->col_w - 6, x + g->col_w / 2, y + 24,
			             AL_CENTRE, pad->names[c]);
	}
}

static void row_cells(pdf_doc *doc, HPDF_Page pg, const pdf_pad *pad, const pad_grid *g,
                      const pdf_pad_row *r, float y)
{
	float size = g->rh * 0.62f > 9.5f ? 9.5f : g->rh * 0.62f;
	float base = y + g->rh * 0.5f + size * 0.36f;
	pdf_fill_rgb(pg, INK);
	pdf_text_fit(doc, pg, r->strong ? PDF_BOLD : PDF_REGULAR, size, g->label_w - 8,
	             g->x0 + g->group_w + 4, base, AL_LEFT, r->label);
	for (int c = 0; c < pad->ncols; c++) {
		float x = col_x(g, c), cx = x + g->col_w / 2;
		const char *v = r->cells[c];
		bool has = v && v[0];
		if (r->tick) {
			float b = g->rh * 0.6f;
			pdf_stroke_rgb(pg, INK);
			HPDF_Page_SetLineWidth(pg, 0.7f);
			pdf_rect(doc, pg, cx - b / 2, y + (g->rh - b) / 2, b, b);
			HPDF_Page_Stroke(pg);
			if (has)
				pdf_cross(doc, pg, cx, y + g->rh / 2, b * 0.32f, 1.1f);
			continue;
		}
		if (has)
			pdf_text_fit(doc, pg, r->strong ? PDF_BOLD : PDF_REGULAR, size,
			             g->col_w - 6, cx, base, AL_CENTRE, v);
	}
}

/* The left column: one cell per run of rows with the same group. */
static void groups(pdf_doc *doc, HPDF_Page pg, const pdf_pad *pad, const pad_grid *g)
{
	float y0 = g->top + HEAD_H;
	int start = 0;
	for (int i = 1; i <= pad->nrows; i++) {
		const char *a = pad->rows[start].group ? pad->rows[start].group : "";
		if (i < pad->nrows) {
			const char *b = pad->rows[i].group ? pad->rows[i].group : "";
			if (strcmp(a, b) == 0)
				continue;
		}
		float ya = y0 + g->rh * (float)start, h = g->rh * (float)(i - start);
		pdf_fill_rgb(pg, GROUP);
		pdf_rect(doc, pg, g->x0, ya, g->group_w, h);
		HPDF_Page_Fill(pg);
		pdf_fill_rgb(pg, INK);
		pdf_text_fit(doc, pg, PDF_BOLD, 9, g->group_w - 6, g->x0 + g->group_w / 2,
		             ya + h / 2 + 3, AL_CENTRE, a);
		pdf_stroke_rgb(pg, INK);
		HPDF_Page_SetLineWidth(pg, 1.1f);
		pdf_line(doc, pg, g->x0, ya, g->right, ya);
		HPDF_Page_Stroke(pg);
		start = i;
	}
}

static void table(pdf_doc *doc, HPDF_Page pg, const pdf_pad *pad, const pad_grid *g)
{
	float y0 = g->top + HEAD_H, bottom = y0 + g->rh * (float)pad->nrows;
	for (int i = 0; i < pad->nrows; i++) {
		float y = y0 + g->rh * (float)i;
		if (pad->rows[i].strong) {
			pdf_fill_rgb(pg, SHADE);
			pdf_rect(doc, pg, g->x0 + g->group_w, y, g->right - g->x0 - g->group_w,
			         g->rh);
			HPDF_Page_Fill(pg);
		}
		pdf_stroke_rgb(pg, RULE);
		HPDF_Page_SetLineWidth(pg, 0.4f);
		pdf_line(doc, pg, g->x0 + g->group_w, y + g->rh, g->right, y + g->rh);
		HPDF_Page_Stroke(pg);
		row_cells(doc, pg, pad, g, &pad->rows[i], y);
	}
	groups(doc, pg, pad, g);
	pdf_stroke_rgb(pg, RULE);
	HPDF_Page_SetLineWidth(pg, 0.5f);
	for (int c = 0; c <= pad->ncols; c++)
		pdf_line(doc, pg, col_x(g, c), g->top, col_x(g, c), bottom);
	pdf_line(doc, pg, g->x0 + g->group_w, y0, g->x0 + g->group_w, bottom);
	HPDF_Page_Stroke(pg);
	pdf_stroke_rgb(pg, INK);
	HPDF_Page_SetLineWidth(pg, 1.2f);
	pdf_rect(doc, pg, g->x0, y0, g->right - g->x0, bottom - y0);
	pdf_rect(doc, pg, col_x(g, 0), g->top, g->right - col_x(g, 0), HEAD_H);
	HPDF_Page_Stroke(pg);
}

void pdf_pad_page(pdf_doc *doc, const pdf_pad *pad)
{
	if (pad->ncols < 1 || pad->ncols > PDF_PAD_COLS || pad->nrows < 1 ||
	    pad->nrows > PDF_PAD_ROWS)
		return;
	HPDF_Page pg = pdf_new_page(doc);
	if (pg == NULL)
		return;
	float m = doc->p->margin, qs = pad->link ? 64 : 0;
	float textw = doc->pw - 2 * m - (qs > 0 ? qs + 12 : 0);
	pdf_fill_rgb(pg, INK);
	pdf_text_fit(doc, pg, PDF_BOLD, 17, textw, m, m + 16, AL_LEFT, pad->title);
	if (pad->subtitle)
		pdf_text_fit(doc, pg, PDF_REGULAR, 9.5f, textw, m, m + 34, AL_LEFT, pad->subtitle);
	if (pad->link) {
		pdf_qr_draw(doc, pg, doc->pw - m - qs, m - 6, qs, pad->link);
		pdf_fill_rgb(pg, INK);
		if (pad->scan)
			pdf_text_fit(doc, pg, PDF_REGULAR, 6, qs + 24, doc->pw - m - qs / 2,
			             m + qs + 2, AL_CENTRE, pad->scan);
	}
	float top = m + (qs > 0 ? qs + 12 : 48), bottom = doc->ph - m - (pad->note ? 16 : 0);
	pad_grid g = layout(doc, pad, top, bottom);
	header(doc, pg, pad, &g);
	table(doc, pg, pad, &g);
	if (pad->note) {
		pdf_fill_rgb(pg, INK);
		pdf_text_fit(doc, pg, PDF_REGULAR, 7.5f, doc->pw - 2 * m, m, doc->ph - m - 2,
		             AL_LEFT, pad->note);
	}
}
