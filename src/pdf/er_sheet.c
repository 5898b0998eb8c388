/* The ER hospital sheet as on paper (blank, or written on) and the ranking page.
 *
 * Geometry: game-data.md §1.2 — pointy-top hexes, hex = row*100+col, even rows shifted half a
 * hex right; neighbour i (clockwise from the upper-left) shares the edge between vertices
 * (i+5)%6 and i, vertex k being at -90° + 60°k. Beds, wards, labs and ledger values come from
 * er_data; positions of clipboards and lobby, sizes, colours and labels from pdf_print. */
#include "pdf/draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	float x0, y0; /* sheet coordinates of the centre of hex (0, 0) */
	float r, w;   /* hex radius, hex width (sqrt 3 r) */
	float bottom; /* lowest drawn y of the grid */
} grid;

static const float INK[3] = {0.12f, 0.12f, 0.16f};    /* printed lines and text */
static const float PENCIL[3] = {0.10f, 0.10f, 0.35f}; /* what a player writes */
static const float WHITE[3] = {1, 1, 1};

static bool row_even(int row)
{
	return ((row % 2) + 2) % 2 == 0;
}

static void hex_xy(const grid *g, int row, int col, float *x, float *y)
{
	*x = g->x0 + (float)col * g->w + (row_even(row) ? g->w / 2 : 0);
	*y = g->y0 + (float)row * 1.5f * g->r;
}

static void hex_id_xy(const grid *g, int hex, float *x, float *y)
{
	hex_xy(g, hex / 100, hex % 100, x, y);
}

/* Every position drawn on the grid, for its bounding box. */
static void grid_positions(const pdf_doc *doc, pdf_pos *out, int *n)
{
	const er_data *d = doc->d;
	*n = 0;
	for (int b = 0; b < ER_BEDS; b++)
		out[(*n)++] = (pdf_pos){d->beds[b].hex / 100, d->beds[b].hex % 100};
	for (int l = 0; l < ER_LABS; l++)
		out[(*n)++] = (pdf_pos){d->lab_hex[l] / 100, d->lab_hex[l] % 100};
	for (int w = 0; w < ER_WARDS; w++)
		out[(*n)++] = doc->p->clipboard[w];
	for (int i = 0; i < doc->p->nlobby; i++)
		out[(*n)++] = (pdf_pos){doc->p->lobby[i] / 100, doc->p->lobby[i] % 100};
}

/* Centres the grid horizontally, its top at layout.grid_top. */
static grid grid_layout(const pdf_doc *doc)
{
	grid g = {.r = doc->p->hex_radius, .w = sqrtf(3.0f) * doc->p->hex_radius};
	pdf_pos pos[ER_BEDS + ER_LABS + ER_WARDS + PDF_MAX_LOBBY];
	int n;
	grid_positions(doc, pos, &n);
	float minx = 1e9f, maxx = -1e9f, miny = 1e9f, maxy = -1e9f;
	for (int i = 0; i < n; i++) {
		float x, y;
		hex_xy(&g, pos[i].row, pos[i].col, &x, &y);
		minx = fminf(minx, x - g.w / 2);
		maxx = fmaxf(maxx, x + g.w / 2);
		miny = fminf(miny, y - g.r);
		maxy = fmaxf(maxy, y + g.r);
	}
	g.x0 = doc->pw / 2 - (minx + maxx) / 2;
	g.y0 = doc->p->grid_top - miny;
	g.bottom = doc->p->grid_top + (maxy - miny);
	return g;
}

static int bed_at(const er_data *d, int hex)
{
	for (int b = 0; b < ER_BEDS; b++)
		if (d->beds[b].hex == hex)
			return b;
	return -1;
}

static bool is_lobby(const pdf_print *p, int hex)
{
	for (int i = 0; i < p->nlobby; i++)
		if (p->lobby[i] == hex)
			return true;
	return false;
}

static int neighbour(const er_data *d, int hex, int i)
{
	int row = hex / 100;
	return hex + (row_even(row) ? d->neighbour_even[i] : d->neighbour_odd[i]);
}

static void vertex(const grid *g, float cx, float cy, int k, float *x, float *y)
{
	double a = (-90.0 + 60.0 * k) * M_PI / 180.0;
	*x = cx + g->r * (float)cos(a);
	*y = cy + g->r * (float)sin(a);
}

/* ---- beds ---- */

static void pattern(pdf_doc *doc, HPDF_Page pg, const grid *g, float cx, float cy,
                    const pdf_colour *c)
{
	float s = doc->p->pattern_step, r = g->r;
	if (c->pattern == PP_NONE)
		return;
	HPDF_Page_GSave(pg);
	pdf_hex_path(doc, pg, cx, cy, r);
	HPDF_Page_Clip(pg);
	HPDF_Page_EndPath(pg);
	pdf_stroke_rgb(pg, c->ink);
	pdf_fill_rgb(pg, c->ink);
	HPDF_Page_SetLineWidth(pg, 0.7f);
	if (c->pattern == PP_DIAGONAL) {
		for (float k = -2 * r; k <= 2 * r; k += s)
			pdf_line(doc, pg, cx + k - r, cy + r, cx + k + r, cy - r);
		HPDF_Page_Stroke(pg);
	} else if (c->pattern == PP_GRID) {
		for (float k = -r; k <= r; k += s * 1.25f) {
			pdf_line(doc, pg, cx - r, cy + k, cx + r, cy + k);
			pdf_line(doc, pg, cx + k, cy - r, cx + k, cy + r);
		}
		HPDF_Page_Stroke(pg);
	} else {
		int row = 0;
		for (float y = -r; y <= r; y += s, row++)
			for (float x = -r + (row % 2 ? s / 2 : 0); x <= r; x += s)
				pdf_rect(doc, pg, cx + x - 0.8f, cy + y - 0.8f, 1.6f, 1.6f);
		HPDF_Page_Fill(pg);
	}
	HPDF_Page_GRestore(pg);
}

static void draw_bed(pdf_doc *doc, HPDF_Page pg, const grid *g, int b)
{
	const er_bed *bed = &doc->d->beds[b];
	const pdf_colour *c = &doc->p->colours[bed->colour == ER_WILD ? PC_WILD : bed->colour];
	float cx, cy;
	hex_id_xy(g, bed->hex, &cx, &cy);
	pdf_fill_rgb(pg, c->fill);
	pdf_hex_path(doc, pg, cx, cy, g->r);
	HPDF_Page_Fill(pg);
	pattern(doc, pg, g, cx, cy, c);
	/* the white circle the value is written in */
	pdf_fill_rgb(pg, WHITE);
	pdf_stroke_rgb(pg, c->ink);
	HPDF_Page_SetLineWidth(pg, 0.9f);
	pdf_circle(doc, pg, cx, cy, g->r * doc->p->write_circle);
	HPDF_Page_FillStroke(pg);
	/* thin bed outline */
	pdf_grey(pg, 0, 0.35f);
	HPDF_Page_SetLineWidth(pg, 0.5f);
	pdf_hex_path(doc, pg, cx, cy, g->r);
	HPDF_Page_Stroke(pg);
}

/* Thick walls round each ward; the ward's entrance (its first bed next to the lobby) is open. */
static void draw_walls(pdf_doc *doc, HPDF_Page pg, const grid *g)
{
	const er_data *d = doc->d;
	pdf_stroke_rgb(pg, INK);
	HPDF_Page_SetLineWidth(pg, doc->p->wall_width);
	for (int b = 0; b < ER_BEDS; b++) {
		float cx, cy;
		hex_id_xy(g, d->beds[b].hex, &cx, &cy);
		for (int i = 0; i < 6; i++) {
			int nh = neighbour(d, d->beds[b].hex, i);
			int nb = bed_at(d, nh);
			if (nb >= 0 && d->beds[nb].ward == d->beds[b].ward)
				continue;
			if (nb >= 0 && nb < b)
				continue; /* drawn from the other side */
			if (d->beds[b].pos == 0 && is_lobby(doc->p, nh))
				continue; /* the door */
			float x0, y0, x1, y1;
			vertex(g, cx, cy, (i + 5) % 6, &x0, &y0);
			vertex(g, cx, cy, i, &x1, &y1);
			pdf_line(doc, pg, x0, y0, x1, y1);
		}
	}
	HPDF_Page_Stroke(pg);
}

/* ---- lobby, labs, clipboards ---- */

static void draw_lobby(pdf_doc *doc, HPDF_Page pg, const grid *g)
{
	const pdf_colour *c = &doc->p->colours[PC_LOBBY];
	float sx = 0, sy = 0;
	pdf_fill_rgb(pg, c->fill);
	pdf_stroke_rgb(pg, c->fill);
	HPDF_Page_SetLineWidth(pg, 1.0f);
	for (int i = 0; i < doc->p->nlobby; i++) {
		float cx, cy;
		hex_id_xy(g, doc->p->lobby[i], &cx, &cy);
		pdf_hex_path(doc, pg, cx, cy, g->r);
		sx += cx;
		sy += cy;
	}
	HPDF_Page_FillStroke(pg);
	pdf_fill_rgb(pg, c->ink);
	float n = (float)doc->p->nlobby;
	pdf_text_fit(doc, pg, PDF_BOLD, 11, g->w * 1.8f, sx / n, sy / n + 4, AL_CENTRE,
	             pdf_label_text(doc, PL_LOBBY));
}

static void draw_labs(pdf_doc *doc, HPDF_Page pg, const grid *g)
{
	const pdf_colour *c = &doc->p->colours[PC_XRAY];
	for (int l = 0; l < ER_LABS; l++) {
		float cx, cy;
		hex_id_xy(g, doc->d->lab_hex[l], &cx, &cy);
		pdf_fill_rgb(pg, c->fill);
		pdf_hex_path(doc, pg, cx, cy, g->r);
		HPDF_Page_Fill(pg);
		pdf_fill_rgb(pg, c->ink);
		pdf_text_fit(doc, pg, PDF_BOLD, 7.5f, g->w * 0.8f, cx, cy - 4, AL_CENTRE,
		             pdf_label_text(doc, PL_XRAY));
		pdf_text(doc, pg, PDF_BOLD, 13, cx, cy + 11, AL_CENTRE, doc->p->lab_names[l]);
	}
}

/* A nurse: a round head with a cap cross, radius s. */
static void nurse_icon(pdf_doc *doc, HPDF_Page pg, float cx, float cy, float s, bool crossed)
{
	static const float RED[3] = {0.80f, 0.16f, 0.14f};
	pdf_fill_rgb(pg, WHITE);
	pdf_stroke_rgb(pg, INK);
	HPDF_Page_SetLineWidth(pg, 0.8f);
	pdf_circle(doc, pg, cx, cy, s);
	HPDF_Page_FillStroke(pg);
	pdf_fill_rgb(pg, RED);
	pdf_rect(doc, pg, cx - s * 0.55f, cy - s * 0.18f, s * 1.1f, s * 0.36f);
	pdf_rect(doc, pg, cx - s * 0.18f, cy - s * 0.55f, s * 0.36f, s * 1.1f);
	HPDF_Page_Fill(pg);
	if (crossed) {
		pdf_stroke_rgb(pg, PENCIL);
		pdf_cross(doc, pg, cx, cy, s * 1.25f, 1.6f);
	}
}

static void draw_clipboard(pdf_doc *doc, HPDF_Page pg, const grid *g, int w, bool crossed)
{
	float cx, cy, r = g->r;
	hex_xy(g, doc->p->clipboard[w].row, doc->p->clipboard[w].col, &cx, &cy);
	float bw = 0.95f * r, bh = 1.2f * r, top = cy - 0.95f * r;
	pdf_fill_rgb(pg, (const float[3]){0.96f, 0.91f, 0.80f});
	pdf_stroke_rgb(pg, INK);
	HPDF_Page_SetLineWidth(pg, 1.0f);
	pdf_rect(doc, pg, cx - bw / 2, top, bw, bh);
	HPDF_Page_FillStroke(pg);
	pdf_fill_rgb(pg, INK);
	pdf_rect(doc, pg, cx - 0.25f * r, top - 0.08f * r, 0.5f * r, 0.2f * r);
	HPDF_Page_Fill(pg);
	char num[16];
	snprintf(num, sizeof num, "%d", w + 1);
	pdf_fill_rgb(pg, WHITE);
	pdf_text(doc, pg, PDF_BOLD, 0.17f * r, cx, top + 0.08f * r, AL_CENTRE, num);
	snprintf(num, sizeof num, "%d", doc->d->wards[w].clipboard);
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_BOLD, 0.55f * r, cx, top + 0.7f * r, AL_CENTRE, num);
	nurse_icon(doc, pg, cx, cy + 0.62f * r, 0.2f * r, crossed);
}

/* ---- what a player wrote ---- */

static void draw_patients(pdf_doc *doc, HPDF_Page pg, const grid *g, const er_sheet *s)
{
	static const float RED[3] = {0.75f, 0.05f, 0.05f};
	float wr = g->r * doc->p->write_circle;
	for (int w = 0; w < ER_WARDS; w++) {
		for (int i = 0; i < s->count[w] && i < doc->d->wards[w].nbeds; i++) {
			const er_patient *pt = &s->ward[w][i];
			int b = er_bed_index(doc->d, w, i);
			float cx, cy;
			hex_id_xy(g, doc->d->beds[b].hex, &cx, &cy);
			char v[8];
			snprintf(v, sizeof v, "%d", pt->value);
			pdf_fill_rgb(pg, PENCIL);
			pdf_text(doc, pg, PDF_BOLD, wr * 1.3f, cx, cy + wr * 0.46f, AL_CENTRE, v);
			if (pt->screen) {
				pdf_stroke_rgb(pg, PENCIL);
				HPDF_Page_SetLineWidth(pg, 1.6f);
				pdf_circle(doc, pg, cx, cy, wr + 2.5f);
				HPDF_Page_Stroke(pg);
			}
			if (pt->critical) {
				pdf_fill_rgb(pg, RED);
				pdf_text(doc, pg, PDF_BOLD, wr * 0.9f, cx + wr + 5.5f,
				         cy - wr * 0.2f, AL_CENTRE, "!");
			}
		}
	}
}

/* ---- header, ledger, score row ---- */

static void draw_header(pdf_doc *doc, HPDF_Page pg, const pdf_er_filled *f)
{
	float m = doc->p->margin, right = doc->pw - m;
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_BOLD, 15, m, m + 14, AL_LEFT, pdf_label_text(doc, PL_TITLE));
	pdf_text(doc, pg, PDF_REGULAR, 10, right, m + 14, AL_RIGHT, pdf_label_text(doc, PL_SHEET));
	float y = m + 44, dx = doc->pw * 0.62f;
	char lab[PDF_LABEL_MAX + 4];
	snprintf(lab, sizeof lab, "%s:", pdf_label_text(doc, PL_PLAYER));
	pdf_text(doc, pg, PDF_REGULAR, 10, m, y, AL_LEFT, lab);
	float lx = m + pdf_text_width(doc, pg, PDF_REGULAR, 10, lab) + 6;
	snprintf(lab, sizeof lab, "%s:", pdf_label_text(doc, PL_DATE));
	pdf_text(doc, pg, PDF_REGULAR, 10, dx, y, AL_LEFT, lab);
	float ldx = dx + pdf_text_width(doc, pg, PDF_REGULAR, 10, lab) + 6;
	pdf_stroke_rgb(pg, INK);
	HPDF_Page_SetLineWidth(pg, 0.6f);
	pdf_line(doc, pg, lx, y + 2, dx - 16, y + 2);
	pdf_line(doc, pg, ldx, y + 2, right, y + 2);
	HPDF_Page_Stroke(pg);
	if (f == NULL)
		return;
	pdf_fill_rgb(pg, PENCIL);
	char name[PDF_NAME_MAX];
	if (f->seat > 0)
		snprintf(name, sizeof name, "%s (%s %d)", f->player ? f->player : "",
		         pdf_label_text(doc, PL_SEAT), f->seat);
	else
		snprintf(name, sizeof name, "%s", f->player ? f->player : "");
	pdf_text_fit(doc, pg, PDF_BOLD, 13, dx - 20 - lx, lx + 2, y - 1, AL_LEFT, name);
	if (f->date)
		pdf_text_fit(doc, pg, PDF_BOLD, 12, right - ldx, ldx + 2, y - 1, AL_LEFT, f->date);
}

/* A stethoscope: tubes in a U and the chest piece below. */
static void steth_icon(pdf_doc *doc, HPDF_Page pg, float x, float y, float b)
{
	float cx = x + b / 2, t = y + b * 0.2f;
	HPDF_Page_SetLineWidth(pg, 1.0f);
	HPDF_Page_MoveTo(pg, cx - b * 0.25f, doc->ph - t);
	HPDF_Page_CurveTo(pg, cx - b * 0.25f, doc->ph - (t + b * 0.45f), cx + b * 0.25f,
	                  doc->ph - (t + b * 0.45f), cx + b * 0.25f, doc->ph - t);
	pdf_line(doc, pg, cx, t + b * 0.34f, cx, t + b * 0.5f);
	HPDF_Page_Stroke(pg);
	pdf_circle(doc, pg, cx, t + b * 0.58f, b * 0.1f);
	HPDF_Page_Fill(pg);
}

static void blood_icon(pdf_doc *doc, HPDF_Page pg, float x, float y, float b)
{
	float cx = x + b / 2, top = y + b * 0.15f, bot = y + b * 0.82f, H = doc->ph;
	HPDF_Page_MoveTo(pg, cx, H - top);
	HPDF_Page_CurveTo(pg, cx + b * 0.12f, H - (top + b * 0.2f), cx + b * 0.32f,
	                  H - (bot - b * 0.3f), cx + b * 0.3f, H - (bot - b * 0.16f));
	HPDF_Page_CurveTo(pg, cx + b * 0.28f, H - bot, cx - b * 0.28f, H - bot, cx - b * 0.3f,
	                  H - (bot - b * 0.16f));
	HPDF_Page_CurveTo(pg, cx - b * 0.32f, H - (bot - b * 0.3f), cx - b * 0.12f,
	                  H - (top + b * 0.2f), cx, H - top);
	HPDF_Page_Fill(pg);
}

static void morgue_icon(pdf_doc *doc, HPDF_Page pg, float x, float y, float b)
{
	float cx = x + b / 2;
	pdf_rect(doc, pg, cx - b * 0.22f, y + b * 0.35f, b * 0.44f, b * 0.45f);
	pdf_circle(doc, pg, cx, y + b * 0.36f, b * 0.22f);
	HPDF_Page_Fill(pg);
}

typedef enum { ICON_STETH, ICON_BLOOD, ICON_MORGUE } icon_kind;

/* One ledger row of n boxes from x at y: icons, `circled` circled, `crossed` crossed; the
 * count beyond the printed boxes written after them ("boxes are not a limit"). */
static float box_row(pdf_doc *doc, HPDF_Page pg, float x, float y, int n, icon_kind icon,
                     int circled, int crossed, bool pencil)
{
	static const float BLOOD[3] = {0.78f, 0.10f, 0.12f};
	float b = doc->p->box, gap = 4;
	for (int i = 0; i < n; i++) {
		float bx = x + (float)i * (b + gap);
		pdf_fill_rgb(pg, WHITE);
		pdf_stroke_rgb(pg, INK);
		HPDF_Page_SetLineWidth(pg, 0.7f);
		pdf_rect(doc, pg, bx, y, b, b);
		HPDF_Page_FillStroke(pg);
		pdf_fill_rgb(pg, icon == ICON_BLOOD ? BLOOD : INK);
		if (icon == ICON_STETH)
			steth_icon(doc, pg, bx, y, b);
		else if (icon == ICON_BLOOD)
			blood_icon(doc, pg, bx, y, b);
		else
			morgue_icon(doc, pg, bx, y, b);
		pdf_stroke_rgb(pg, pencil ? PENCIL : INK);
		if (i < circled) {
			HPDF_Page_SetLineWidth(pg, 1.3f);
			pdf_circle(doc, pg, bx + b / 2, y + b / 2, b * 0.68f);
			HPDF_Page_Stroke(pg);
		}
		if (i < crossed)
			pdf_cross(doc, pg, bx + b / 2, y + b / 2, b * 0.42f, 1.4f);
	}
	float end = x + (float)n * (b + gap);
	if (circled > n) {
		char more[32];
		snprintf(more, sizeof more, "+%d", circled - n);
		pdf_fill_rgb(pg, PENCIL);
		pdf_text(doc, pg, PDF_BOLD, 10, end + 4, y + b * 0.75f, AL_LEFT, more);
	}
	return end;
}

static float ledger_label(pdf_doc *doc, HPDF_Page pg, float y, pdf_label l)
{
	float m = doc->p->margin;
	pdf_fill_rgb(pg, INK);
	pdf_text_fit(doc, pg, PDF_BOLD, 9.5f, 102, m, y + doc->p->box * 0.72f, AL_LEFT,
	             pdf_label_text(doc, l));
	return m + 108;
}

static void nurse_track(pdf_doc *doc, HPDF_Page pg, float x, float y, int circled, bool pencil)
{
	float b = doc->p->box, step = b + 12;
	for (int i = 0; i < ER_NURSE_SPACES; i++) {
		float cx = x + b / 2 + (float)i * step, cy = y + b / 2;
		pdf_fill_rgb(pg, WHITE);
		pdf_stroke_rgb(pg, INK);
		HPDF_Page_SetLineWidth(pg, 0.8f);
		pdf_circle(doc, pg, cx, cy, b * 0.62f);
		HPDF_Page_FillStroke(pg);
		char v[8];
		snprintf(v, sizeof v, "%d", doc->d->nurse_track[i]);
		pdf_fill_rgb(pg, INK);
		pdf_text(doc, pg, PDF_BOLD, b * 0.55f, cx, cy + b * 0.2f, AL_CENTRE, v);
		if (i + 1 < ER_NURSE_SPACES) {
			pdf_stroke_rgb(pg, INK);
			HPDF_Page_SetLineWidth(pg, 0.6f);
			pdf_line(doc, pg, cx + b * 0.62f, cy, cx + step - b * 0.62f, cy);
			HPDF_Page_Stroke(pg);
		}
		if (i < circled) {
			pdf_stroke_rgb(pg, pencil ? PENCIL : INK);
			HPDF_Page_SetLineWidth(pg, 1.5f);
			pdf_circle(doc, pg, cx, cy, b * 0.8f);
			HPDF_Page_Stroke(pg);
		}
	}
}

/* Returns the y under the ledger. */
static float draw_ledger(pdf_doc *doc, HPDF_Page pg, float y, const er_sheet *s)
{
	const er_data *d = doc->d;
	float row = doc->p->ledger_row;
	bool pencil = s != NULL;
	float x = ledger_label(doc, pg, y, PL_STETHOSCOPES);
	box_row(doc, pg, x, y, 15, ICON_STETH, s ? s->steth_circled : d->start_stethoscopes,
	        s ? s->steth_used : 0, pencil);
	y += row;
	x = ledger_label(doc, pg, y, PL_BLOOD_BAGS);
	box_row(doc, pg, x, y, 9, ICON_BLOOD, s ? s->blood_circled : 0, s ? s->blood_used : 0,
	        pencil);
	y += row;
	x = ledger_label(doc, pg, y, PL_NURSES);
	nurse_track(doc, pg, x, y, s ? s->nurse_track : 0, pencil);
	y += row;
	x = ledger_label(doc, pg, y, PL_MORGUE);
	float end =
	    box_row(doc, pg, x, y, d->morgue_boxes, ICON_MORGUE, s ? s->morgue : 0, 0, pencil);
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_REGULAR, 9, end + 4, y + doc->p->box * 0.72f, AL_LEFT,
	         pdf_label_text(doc, PL_MORGUE_EACH));
	return y + row;
}

/* The score row: filled wards + critical + nurses + 2 cardiologists + radiologist +
 * epidemiologist − morgue = total. Returns the y under it. */
static float draw_score_row(pdf_doc *doc, HPDF_Page pg, float y, const er_sheet *s,
                            const er_breakdown *sc)
{
	enum { N = 9 };
	static const pdf_label labels[N] = {PL_FILLED_WARDS,   PL_CRITICAL,      PL_NURSES,
	                                    PL_CARDIOLOGISTS,  PL_CARDIOLOGISTS, PL_RADIOLOGIST,
	                                    PL_EPIDEMIOLOGIST, PL_MORGUE,        PL_TOTAL};
	static const char *const ops[N] = {"+", "+", "+", "", "+", "+", "−", "=", ""};
	float bw = doc->p->score_box, bh = bw * 0.72f, op = 13, small = bw * 0.66f;
	float widths[N];
	float total = 0;
	for (int i = 0; i < N; i++) {
		widths[i] = (i == 3 || i == 4) ? small : bw;
		total += widths[i] + (i + 1 < N ? (i == 3 ? 4 : op) : 0);
	}
	float x = doc->pw / 2 - total / 2;
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_BOLD, 10, doc->p->margin, y + 8, AL_LEFT,
	         pdf_label_text(doc, PL_SCORE));
	y += 14;
	int values[N] = {0};
	if (sc) {
		int v[N] = {sc->filled_wards,
		            sc->critical,
		            sc->nurses,
		            s ? s->cardiologists[0] : 0,
		            s ? s->cardiologists[1] : 0,
		            sc->radiologist,
		            sc->epidemiologist,
		            -sc->morgue,
		            sc->total};
		memcpy(values, v, sizeof v);
	}
	for (int i = 0; i < N; i++) {
		float lw = i == 3 ? widths[3] + 4 + widths[4] : widths[i] + op - 2;
		if (i != 4)
			pdf_text_fit(doc, pg, PDF_REGULAR, 7, lw,
			             i == 3 ? x + lw / 2 : x + widths[i] / 2, y + 7, AL_CENTRE,
			             pdf_label_text(doc, labels[i]));
		pdf_fill_rgb(pg, i == N - 1 ? (const float[3]){0.92f, 0.92f, 0.92f} : WHITE);
		pdf_stroke_rgb(pg, INK);
		HPDF_Page_SetLineWidth(pg, i == N - 1 ? 1.6f : 0.9f);
		pdf_rect(doc, pg, x, y + 11, widths[i], bh);
		HPDF_Page_FillStroke(pg);
		if (sc) {
			char v[16];
			snprintf(v, sizeof v, "%d", values[i]);
			pdf_fill_rgb(pg, PENCIL);
			pdf_text(doc, pg, PDF_BOLD, 14, x + widths[i] / 2, y + 11 + bh * 0.7f,
			         AL_CENTRE, v);
		}
		pdf_fill_rgb(pg, INK);
		x += widths[i];
		if (ops[i][0]) {
			pdf_text(doc, pg, PDF_BOLD, 13, x + op / 2, y + 11 + bh * 0.68f, AL_CENTRE,
			         ops[i]);
			x += op;
		} else if (i == 3) {
			x += 4;
		}
	}
	return y + 11 + bh;
}

/* ---- pages ---- */

float pdf_er_sheet_draw(pdf_doc *doc, HPDF_Page pg, const pdf_er_filled *f)
{
	grid g = grid_layout(doc);
	const er_sheet *s = f ? f->sheet : NULL;
	draw_header(doc, pg, f);
	draw_lobby(doc, pg, &g);
	draw_labs(doc, pg, &g);
	for (int b = 0; b < ER_BEDS; b++)
		draw_bed(doc, pg, &g, b);
	draw_walls(doc, pg, &g);
	for (int w = 0; w < ER_WARDS; w++)
		draw_clipboard(doc, pg, &g, w, s && s->nurse_crossed[w]);
	if (s)
		draw_patients(doc, pg, &g, s);
	pdf_fill_rgb(pg, INK);
	pdf_text_fit(doc, pg, PDF_REGULAR, 8, doc->pw - 2 * doc->p->margin, doc->pw / 2,
	             g.bottom + 14, AL_CENTRE, pdf_label_text(doc, PL_LEGEND));
	float ly = g.bottom + 30;
	if (f && f->link) { /* right of the ledger rows */
		float qs = doc->p->qr_size, qx = doc->pw - doc->p->margin - qs;
		pdf_qr_draw(doc, pg, qx, ly - 6, qs, f->link);
		pdf_fill_rgb(pg, INK);
		pdf_text_fit(doc, pg, PDF_REGULAR, 6.5f, qs + 16, qx + qs / 2, ly + qs + 1,
		             AL_CENTRE, pdf_label_text(doc, PL_SCAN));
	}
	float y = draw_ledger(doc, pg, ly, s);
	return draw_score_row(doc, pg, y + 2, s, f ? f->score : NULL);
}

/* The game's specialists to write in by hand: a labelled line each. */
static void blank_specialists(pdf_doc *doc, HPDF_Page pg, float y)
{
	static const pdf_label rows[4] = {PL_CARDIOLOGISTS, PL_CARDIOLOGISTS, PL_RADIOLOGIST,
	                                  PL_EPIDEMIOLOGIST};
	float m = doc->p->margin, right = doc->pw - m;
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_BOLD, 10, m, y + 8, AL_LEFT, pdf_label_text(doc, PL_SPECIALISTS));
	for (int i = 0; i < 4; i++) {
		char head[PDF_LABEL_MAX + 4];
		snprintf(head, sizeof head, "%s:", pdf_label_text(doc, rows[i]));
		pdf_text(doc, pg, PDF_REGULAR, 9, m, y + 26 + (float)i * 17, AL_LEFT, head);
	}
	pdf_stroke_rgb(pg, INK);
	HPDF_Page_SetLineWidth(pg, 0.6f);
	for (int i = 0; i < 4; i++) /* lines after the texts: no text inside a path */
		pdf_line(doc, pg, m + 100, y + 28 + (float)i * 17, right, y + 28 + (float)i * 17);
	HPDF_Page_Stroke(pg);
}

static void draw_blank(pdf_doc *doc, HPDF_Page pg)
{
	float y = pdf_er_sheet_draw(doc, pg, NULL) + 16;
	if (y + 28 + 3 * 17 < doc->ph - doc->p->margin) /* room left on the paper */
		blank_specialists(doc, pg, y);
}

/* The sheet is drawn once into a content stream of the first page that every other page
 * shares (libharu's shared content streams): a pad costs one page of drawing and of bytes.
 * Each page still names the font among its own resources (a Tf outside text does it).
 * Checked with poppler, qpdf and Ghostscript (tests/unit/test_pdf.c). */
void pdf_er_blank_pages(pdf_doc *doc, int count)
{
	HPDF_Dict shared = NULL;
	for (int i = 0; i < count; i++) {
		HPDF_Page pg = pdf_new_page(doc);
		if (pg == NULL)
			return;
		if (shared == NULL) {
			HPDF_Page_New_Content_Stream(pg, &shared);
			draw_blank(doc, pg);
		} else {
			HPDF_Page_SetFontAndSize(pg, doc->font, 10);
			HPDF_Page_Insert_Shared_Content_Stream(pg, shared);
			/* libharu opens a new stream after the shared one; an empty Flate stream is
			 * not valid Flate data (Ghostscript refuses it), so it gets a q Q */
			HPDF_Page_GSave(pg);
			HPDF_Page_GRestore(pg);
		}
	}
}

/* Words of text from *at that fit in maxw at size, copied into line; advances *at. */
static void next_line(pdf_doc *doc, HPDF_Page pg, pdf_face f, float size, float maxw,
                      const char **at, char *line, size_t cap)
{
	const char *s = *at, *best = NULL;
	for (const char *e = s;; e++) {
		if (*e != ' ' && *e != '\0')
			continue;
		size_t n = (size_t)(e - s) < cap - 1 ? (size_t)(e - s) : cap - 1;
		memcpy(line, s, n);
		line[n] = '\0';
		if (best != NULL && pdf_text_width(doc, pg, f, size, line) > maxw)
			break;
		best = e;
		if (*e == '\0')
			break;
	}
	size_t n = (size_t)(best - s) < cap - 1 ? (size_t)(best - s) : cap - 1;
	memcpy(line, s, n);
	line[n] = '\0';
	*at = *best ? best + 1 : best;
}

/* "Label: text" wrapped on up to two lines from y; returns the y of the next line. */
static float spec_line(pdf_doc *doc, HPDF_Page pg, float x, float y, float maxw, pdf_label l,
                       er_spec_id id)
{
	float size = 8;
	char head[PDF_LABEL_MAX + 4];
	snprintf(head, sizeof head, "%s:", pdf_label_text(doc, l));
	float hw = pdf_text_width(doc, pg, PDF_BOLD, size, head) + 4;
	pdf_text(doc, pg, PDF_BOLD, size, x, y, AL_LEFT, head);
	const char *text = id == ER_SPEC_NONE ? "—" : doc->p->spec_text[doc->lang][id];
	char line[PDF_TEXT_MAX];
	for (int i = 0; i < 2 && *text; i++) {
		next_line(doc, pg, PDF_REGULAR, size, maxw - hw, &text, line, sizeof line);
		if (i == 1 && *text) {
			size_t n = strlen(line);
			snprintf(line + (n > sizeof line - 5 ? sizeof line - 5 : n), 5, "…");
		}
		pdf_text(doc, pg, PDF_REGULAR, size, x + hw, y, AL_LEFT, line);
		y += 10;
	}
	return y + 2;
}

void pdf_er_filled_page(pdf_doc *doc, const pdf_er_filled *f)
{
	HPDF_Page pg = pdf_new_page(doc);
	if (pg == NULL)
		return;
	float y = pdf_er_sheet_draw(doc, pg, f) + 16;
	float m = doc->p->margin, textw = doc->pw - 2 * m;
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_BOLD, 10, m, y + 8, AL_LEFT, pdf_label_text(doc, PL_SPECIALISTS));
	float ty = y + 22;
	ty = spec_line(doc, pg, m, ty, textw, PL_CARDIOLOGISTS, f->cardiologists[0]);
	ty = spec_line(doc, pg, m, ty, textw, PL_CARDIOLOGISTS, f->cardiologists[1]);
	ty = spec_line(doc, pg, m, ty, textw, PL_RADIOLOGIST, f->radiologist);
	spec_line(doc, pg, m, ty, textw, PL_EPIDEMIOLOGIST, f->epidemiologist);
}

void pdf_er_ranking_page(pdf_doc *doc, const char *game, const char *date, const pdf_er_rank *rows,
                         int nrows, const char *link)
{
	enum { NCOL = 10 };
	static const pdf_label heads[NCOL] = {
	    PL_RANK,          PL_PLAYER,      PL_FILLED_WARDS,   PL_CRITICAL, PL_NURSES,
	    PL_CARDIOLOGISTS, PL_RADIOLOGIST, PL_EPIDEMIOLOGIST, PL_MORGUE,   PL_TOTAL};
	HPDF_Page pg = pdf_new_page(doc);
	if (pg == NULL)
		return;
	float m = doc->p->margin, right = doc->pw - m;
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_BOLD, 15, m, m + 14, AL_LEFT, pdf_label_text(doc, PL_TITLE));
	pdf_text(doc, pg, PDF_BOLD, 20, m, m + 48, AL_LEFT, pdf_label_text(doc, PL_RANKING));
	char line[256];
	snprintf(line, sizeof line, "%s %s · %s", pdf_label_text(doc, PL_GAME), game ? game : "",
	         date ? date : "");
	pdf_text(doc, pg, PDF_REGULAR, 10, m, m + 66, AL_LEFT, line);
	float w[NCOL], fixed = 0, numw = 44;
	for (int c = 0; c < NCOL; c++)
		if (c != 1)
			fixed += (w[c] = c == 0 ? 24 : numw);
	w[1] = right - m - fixed;
	float y = m + 96;
	float x = m;
	for (int c = 0; c < NCOL; c++) {
		pdf_text_fit(doc, pg, PDF_BOLD, 8, w[c] - 4, c == 1 ? x + 2 : x + w[c] / 2, y,
		             c == 1 ? AL_LEFT : AL_CENTRE, pdf_label_text(doc, heads[c]));
		x += w[c];
	}
	pdf_stroke_rgb(pg, INK);
	HPDF_Page_SetLineWidth(pg, 1.2f);
	pdf_line(doc, pg, m, y + 5, right, y + 5);
	HPDF_Page_Stroke(pg);
	for (int r = 0; r < nrows; r++) {
		const pdf_er_rank *row = &rows[r];
		y += 22;
		if (r % 2 == 0) {
			pdf_fill_rgb(pg, (const float[3]){0.94f, 0.95f, 0.97f});
			pdf_rect(doc, pg, m, y - 15, right - m, 22);
			HPDF_Page_Fill(pg);
		}
		int v[NCOL] = {row->rank,
		               0,
		               row->score.filled_wards,
		               row->score.critical,
		               row->score.nurses,
		               row->score.cardiologists,
		               row->score.radiologist,
		               row->score.epidemiologist,
		               row->score.morgue,
		               row->score.total};
		x = m;
		pdf_fill_rgb(pg, INK);
		for (int c = 0; c < NCOL; c++) {
			char cell[PDF_NAME_MAX];
			if (c == 1)
				snprintf(cell, sizeof cell, "%s (%s %d)",
				         row->player ? row->player : "",
				         pdf_label_text(doc, PL_SEAT), row->seat);
			else
				snprintf(cell, sizeof cell, "%d", v[c]);
			pdf_face f = (c == 1 || c == NCOL - 1 || c == 0) ? PDF_BOLD : PDF_REGULAR;
			pdf_text_fit(doc, pg, f, 10, w[c] - 4, c == 1 ? x + 2 : x + w[c] / 2, y,
			             c == 1 ? AL_LEFT : AL_CENTRE, cell);
			x += w[c];
		}
	}
	if (link) {
		float qs = doc->p->qr_size;
		pdf_qr_draw(doc, pg, right - qs, y + 30, qs, link);
		pdf_text_fit(doc, pg, PDF_REGULAR, 6.5f, qs + 20, right - qs / 2, y + 30 + qs + 8,
		             AL_CENTRE, pdf_label_text(doc, PL_SCAN));
	}
}
