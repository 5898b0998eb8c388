/* The league report: a standings table with ratings (μ − 3σ, provisional mark), then the
 * recent plays; rows continue on new pages when a page is full. */
#include "pdf/draw.h"

#include <stdio.h>
#include <string.h>

static const float INK[3] = {0.10f, 0.12f, 0.16f};
static const float SHADE[3] = {0.94f, 0.95f, 0.97f};
static const float HEAD[3] = {0.86f, 0.91f, 0.97f};

enum { NCOL = 9 };
static const float ROW_H = 17, HEAD_H = 18;

typedef struct {
	pdf_doc *doc;
	const pdf_league *l;
	HPDF_Page pg;
	float y, m, right, bottom;
} cursor;

static void new_page(cursor *c)
{
	c->pg = pdf_new_page(c->doc);
	c->y = c->m;
	if (c->pg == NULL)
		return;
	pdf_fill_rgb(c->pg, INK);
	pdf_text_fit(c->doc, c->pg, PDF_BOLD, 17, c->right - c->m, c->m, c->m + 16, AL_LEFT,
	             c->l->league ? c->l->league : "");
	pdf_text_fit(c->doc, c->pg, PDF_REGULAR, 9.5f, c->right - c->m, c->m, c->m + 32, AL_LEFT,
	             c->l->subtitle ? c->l->subtitle : c->l->labels[PLR_TITLE]);
	c->y = c->m + 52;
}

/* Room for h more points on this page, else a new one; false once libharu failed. */
static bool room(cursor *c, float h)
{
	if (c->pg && c->y + h <= c->bottom)
		return true;
	new_page(c);
	return c->pg != NULL;
}

static void heading(cursor *c, const char *text)
{
	if (!room(c, 28 + HEAD_H + ROW_H))
		return;
	pdf_fill_rgb(c->pg, INK);
	pdf_text(c->doc, c->pg, PDF_BOLD, 13, c->m, c->y + 16, AL_LEFT, text);
	c->y += 24;
}

/* A header or body row of cells at widths w[] (column 1 left-aligned, the others centred). */
static void cells(cursor *c, const float *w, int n, const char *const *text, bool head, bool shade)
{
	float h = head ? HEAD_H : ROW_H;
	if (head || shade) {
		pdf_fill_rgb(c->pg, head ? HEAD : SHADE);
		pdf_rect(c->doc, c->pg, c->m, c->y, c->right - c->m, h);
		HPDF_Page_Fill(c->pg);
	}
	pdf_fill_rgb(c->pg, INK);
	float x = c->m;
	for (int i = 0; i < n; i++) {
		bool left = n == 3 ? i == 2 : i == 1;
		pdf_text_fit(c->doc, c->pg, head ? PDF_BOLD : PDF_REGULAR, head ? 7.5f : 9,
		             w[i] - 6, left ? x + 3 : x + w[i] / 2, c->y + h * 0.5f + 3,
		             left ? AL_LEFT : AL_CENTRE, text[i]);
		x += w[i];
	}
	c->y += h;
}

static void standings(cursor *c)
{
	const pdf_league *l = c->l;
	static const pdf_league_label heads[NCOL] = {PLR_RANK,     PLR_PLAYER,   PLR_GAMES,
	                                             PLR_WINS,     PLR_WIN_RATE, PLR_AVG_SCORE,
	                                             PLR_AVG_RANK, PLR_RATING,   PLR_MU_SIGMA};
	float w[NCOL] = {22, 0, 40, 40, 46, 52, 50, 62, 72};
	float fixed = 0;
	for (int i = 0; i < NCOL; i++)
		fixed += w[i];
	w[1] = c->right - c->m - fixed;
	const char *ht[NCOL];
	for (int i = 0; i < NCOL; i++)
		ht[i] = l->labels[heads[i]];
	heading(c, l->labels[PLR_STANDINGS]);
	if (c->pg == NULL)
		return;
	cells(c, w, NCOL, ht, true, false);
	bool any_prov = false;
	for (int r = 0; r < l->nrows; r++) {
		if (c->y + ROW_H > c->bottom) {
			if (!room(c, HEAD_H + ROW_H))
				return;
			cells(c, w, NCOL, ht, true, false);
		}
		const pdf_league_row *x = &l->rows[r];
		char v[NCOL][PDF_NAME_MAX];
		snprintf(v[0], sizeof v[0], "%d", r + 1);
		snprintf(v[1], sizeof v[1], "%s", x->name ? x->name : "");
		snprintf(v[2], sizeof v[2], "%d", x->games);
		snprintf(v[3], sizeof v[3], "%d", x->wins);
		snprintf(v[4], sizeof v[4], "%.0f %%", x->win_rate * 100);
		if (x->has_avg_score)
			snprintf(v[5], sizeof v[5], "%.1f", x->avg_score);
		else
			snprintf(v[5], sizeof v[5], "–");
		snprintf(v[6], sizeof v[6], "%.2f", x->avg_rank);
		snprintf(v[7], sizeof v[7], "%.2f%s", x->ordinal, x->provisional ? " †" : "");
		snprintf(v[8], sizeof v[8], "%.1f / %.2f", x->mu, x->sigma);
		any_prov = any_prov || x->provisional;
		const char *t[NCOL];
		for (int i = 0; i < NCOL; i++)
			t[i] = v[i];
		cells(c, w, NCOL, t, false, r % 2 == 1);
	}
	if (any_prov && room(c, 14)) {
		pdf_fill_rgb(c->pg, INK);
		pdf_text_fit(c->doc, c->pg, PDF_REGULAR, 7.5f, c->right - c->m, c->m, c->y + 11,
		             AL_LEFT, l->labels[PLR_PROVISIONAL]);
		c->y += 14;
	}
	c->y += 14;
}

static void plays(cursor *c)
{
	const pdf_league *l = c->l;
	float w[3] = {66, 110, 0};
	w[2] = c->right - c->m - w[0] - w[1];
	const char *ht[3] = {l->labels[PLR_DATE], l->labels[PLR_GAME], l->labels[PLR_RESULTS]};
	heading(c, l->labels[PLR_PLAYS]);
	if (c->pg == NULL)
		return;
	if (l->nplays == 0) {
		pdf_fill_rgb(c->pg, INK);
		pdf_text(c->doc, c->pg, PDF_REGULAR, 9, c->m, c->y + 10, AL_LEFT,
		         l->labels[PLR_NONE]);
		return;
	}
	cells(c, w, 3, ht, true, false);
	for (int r = 0; r < l->nplays; r++) {
		if (c->y + ROW_H > c->bottom) {
			if (!room(c, HEAD_H + ROW_H))
				return;
			cells(c, w, 3, ht, true, false);
		}
		const pdf_league_play *p = &l->plays[r];
		char date[16];
		snprintf(date, sizeof date, "%.10s", p->date ? p->date : "");
		const char *t[3] = {date, p->game ? p->game : "", p->results ? p->results : ""};
		cells(c, w, 3, t, false, r % 2 == 1);
	}
}

void pdf_league_pages(pdf_doc *doc, const pdf_league *l)
{
	cursor c = {.doc = doc, .l = l, .m = doc->p->margin};
	c.right = doc->pw - c.m;
	c.bottom = doc->ph - c.m;
	new_page(&c);
	if (c.pg == NULL)
		return;
	standings(&c);
	plays(&c);
}
