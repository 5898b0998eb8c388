/* The league's pictures (GET …/stats JSON, drawn as it is) and the season recap (GET
 * …/seasons/{season}/recap JSON): rating lines of the top five, score spreads per game, the
 * head-to-head heat map, plays per month. Black and white: lines differ by dash and marker
 * and carry their names, the heat map is grey levels with the share printed in each cell. */
#include "pdf/draw.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const float INK[3] = {0.10f, 0.12f, 0.16f};

enum { TOP = 5, BOX_GAMES = 12, H2H_SIDE = 12, MONTHS_MAX = 48, NAME_CUT = 26 };

static json_object *get(const json_object *o, const char *key)
{
	json_object *v = NULL;
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex((json_object *)o, key, &v))
		return NULL;
	return v;
}

static double num(const json_object *o, const char *key)
{
	return json_object_get_double(get(o, key));
}

static const char *str(const json_object *o, const char *key)
{
	json_object *v = get(o, key);
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static size_t len(const json_object *a)
{
	return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

static json_object *at(const json_object *a, size_t i)
{
	return json_object_array_get_idx(a, i);
}

/* Days since 1970-01-01 of "YYYY-MM-DD…" (the civil calendar). */
static long days(const char *s)
{
	int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400, doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/* Has rating point p a date? A play logged without one (date null) has no place in time: it
 * comes before every dated play, and its rating shows in the first dated point after it. */
static bool dated(const json_object *p)
{
	return *str(p, "date") != '\0';
}

/* A round step for an axis spanning span in about n ticks. */
static double tick_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw > 0 ? raw : 1)));
	double f = raw / p;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

static void title(pdf_doc *doc, HPDF_Page pg, float x, float y, const char *text)
{
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_BOLD, 11, x, y, AL_LEFT, text);
}

/* A y axis from lo to hi at x over [top, top+h], with ticks, grid lines to x+w and its label. */
static void y_axis(pdf_doc *doc, HPDF_Page pg, float x, float top, float w, float h, double lo,
                   double hi, const char *label)
{
	double step = tick_step(hi - lo, 5);
	HPDF_Page_SetLineWidth(pg, 0.3f);
	pdf_grey(pg, 0, 0.8f);
	char t[32];
	for (double v = ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
		float y = top + h - (float)((v - lo) / (hi - lo)) * h;
		pdf_line(doc, pg, x, y, x + w, y);
		HPDF_Page_Stroke(pg);
		snprintf(t, sizeof t, "%g", fabs(v) < step * 1e-6 ? 0 : v);
		pdf_fill_rgb(pg, INK);
		pdf_text(doc, pg, PDF_REGULAR, 7, x - 3, y + 2.5f, AL_RIGHT, t);
	}
	pdf_grey(pg, 0, 0);
	HPDF_Page_SetLineWidth(pg, 0.6f);
	pdf_line(doc, pg, x, top, x, top + h);
	pdf_line(doc, pg, x, top + h, x + w, top + h);
	HPDF_Page_Stroke(pg);
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_REGULAR, 7.5f, x - 30, top - 6, AL_LEFT, label);
}

/* Marker k (0..4: circle, square, triangle, cross, diamond) at (x, y), r in points. */
static void marker(pdf_doc *doc, HPDF_Page pg, int k, float x, float y, float r)
{
	float ph = doc->ph;
	switch (k % 5) {
	case 0:
		pdf_circle(doc, pg, x, y, r);
		HPDF_Page_Fill(pg);
		break;
	case 1:
		pdf_rect(doc, pg, x - r, y - r, 2 * r, 2 * r);
		HPDF_Page_Fill(pg);
		break;
	case 2:
		HPDF_Page_MoveTo(pg, x, ph - (y - r * 1.2f));
		HPDF_Page_LineTo(pg, x + r * 1.2f, ph - (y + r));
		HPDF_Page_LineTo(pg, x - r * 1.2f, ph - (y + r));
		HPDF_Page_ClosePath(pg);
		HPDF_Page_Stroke(pg);
		break;
	case 3:
		pdf_cross(doc, pg, x, y, r, 1);
		break;
	default:
		HPDF_Page_MoveTo(pg, x, ph - (y - r * 1.3f));
		HPDF_Page_LineTo(pg, x + r * 1.3f, ph - y);
		HPDF_Page_LineTo(pg, x, ph - (y + r * 1.3f));
		HPDF_Page_LineTo(pg, x - r * 1.3f, ph - y);
		HPDF_Page_ClosePath(pg);
		HPDF_Page_Stroke(pg);
		break;
	}
}

static void dash(HPDF_Page pg, int k)
{
	static const HPDF_UINT16 pat[5][4] = {{0}, {6, 3}, {1, 2}, {6, 2, 1, 2}, {10, 3}};
	static const HPDF_UINT n[5] = {0, 2, 2, 4, 2};
	HPDF_Page_SetDash(pg, k % 5 ? pat[k % 5] : NULL, n[k % 5], 0);
}

/* The rating lines (ordinal over time) of the players marked top. */
static void ratings_chart(pdf_doc *doc, HPDF_Page pg, float x, float y, float w, float h,
                          const json_object *stats, const char *const *lab)
{
	title(doc, pg, x, y, lab[PCH_RATINGS]);
	json_object *players = get(stats, "players");
	float left = x + 34, top = y + 20, cw = w - 34 - 90, ch = h - 48;
	double lo = 0, hi = 0;
	long d0 = 0, d1 = 0;
	bool any = false;
	size_t n = len(players) < TOP ? len(players) : TOP;
	for (size_t i = 0; i < n; i++) {
		json_object *pts = get(at(players, i), "points");
		for (size_t k = 0; k < len(pts); k++) {
			if (!dated(at(pts, k)))
				continue;
			double o = num(at(pts, k), "ordinal");
			long d = days(str(at(pts, k), "date"));
			if (!any || o < lo)
				lo = o;
			if (!any || o > hi)
				hi = o;
			if (!any || d < d0)
				d0 = d;
			if (!any || d > d1)
				d1 = d;
			any = true;
		}
	}
	if (!any) {
		pdf_text(doc, pg, PDF_REGULAR, 9, x, top + 12, AL_LEFT, lab[PCH_NONE]);
		return;
	}
	double step = tick_step(hi - lo > 1 ? hi - lo : 1, 5);
	lo = floor(lo / step) * step;
	hi = ceil(hi / step) * step;
	if (hi <= lo)
		hi = lo + step;
	if (d1 <= d0)
		d1 = d0 + 1;
	y_axis(doc, pg, left, top, cw, ch, lo, hi, lab[PCH_ORDINAL]);
	pdf_fill_rgb(pg, INK);
	char t[64];
	for (int k = 0; k <= 4; k++) { /* dates along the x axis */
		long d = d0 + (d1 - d0) * k / 4;
		long z = d + 719468, era = (z >= 0 ? z : z - 146096) / 146097,
		     doe = z - era * 146097;
		long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365,
		     doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
		long dd = doy - (153 * mp + 2) / 5 + 1, mm = mp < 10 ? mp + 3 : mp - 9,
		     yy = yoe + era * 400 + (mm <= 2);
		snprintf(t, sizeof t, "%04ld-%02ld-%02ld", yy, mm, dd);
		pdf_text(doc, pg, PDF_REGULAR, 7, left + cw * k / 4, top + ch + 10,
		         k == 0   ? AL_LEFT
		         : k == 4 ? AL_RIGHT
		                  : AL_CENTRE,
		         t);
	}
	pdf_text(doc, pg, PDF_REGULAR, 7.5f, left + cw, top + ch + 20, AL_RIGHT, lab[PCH_DATE]);
	for (size_t i = 0; i < n; i++) {
		json_object *pl = at(players, i), *pts = get(pl, "points");
		size_t np = len(pts);
		if (np == 0)
			continue;
		float g = 0.1f * (float)i;
		pdf_grey(pg, g, g);
		HPDF_Page_SetLineWidth(pg, 1.1f);
		dash(pg, (int)i);
		float px = 0, py = 0;
		bool drawn = false;
		for (size_t k = 0; k < np; k++) {
			json_object *p = at(pts, k);
			if (!dated(p))
				continue;
			px = left + (float)(days(str(p, "date")) - d0) / (float)(d1 - d0) * cw;
			py = top + ch - (float)((num(p, "ordinal") - lo) / (hi - lo)) * ch;
			if (!drawn)
				HPDF_Page_MoveTo(pg, px, doc->ph - py);
			else
				HPDF_Page_LineTo(pg, px, doc->ph - py);
			drawn = true;
		}
		if (!drawn) { /* undated plays only */
			dash(pg, 0);
			continue;
		}
		HPDF_Page_Stroke(pg);
		dash(pg, 0);
		HPDF_Page_SetLineWidth(pg, 0.8f);
		size_t every = np / 8 + 1;
		for (size_t k = 0; k < np; k += every) {
			json_object *p = at(pts, k);
			if (!dated(p))
				continue;
			marker(doc, pg, (int)i,
			       left + (float)(days(str(p, "date")) - d0) / (float)(d1 - d0) * cw,
			       top + ch - (float)((num(p, "ordinal") - lo) / (hi - lo)) * ch, 2.2f);
		}
		marker(doc, pg, (int)i, px, py, 2.2f);
		/* the legend: marker, dash and name, top to bottom in standings order */
		float ly = top + 8 + 16 * (float)i, lx = left + cw + 8;
		HPDF_Page_SetLineWidth(pg, 1.1f);
		dash(pg, (int)i);
		pdf_line(doc, pg, lx, ly, lx + 22, ly);
		HPDF_Page_Stroke(pg);
		dash(pg, 0);
		HPDF_Page_SetLineWidth(pg, 0.8f);
		marker(doc, pg, (int)i, lx + 11, ly, 2.2f);
		pdf_fill_rgb(pg, INK);
		pdf_text_fit(doc, pg, PDF_REGULAR, 7.5f, 56, lx + 26, ly + 2.5f, AL_LEFT,
		             str(pl, "name"));
	}
	pdf_grey(pg, 0, 0);
}

/* src cut to n characters (UTF-8), "…" last when it was longer, into dst (size ≥ 4n + 4). */
static void cut(char *dst, size_t size, const char *src, int n)
{
	size_t i = 0;
	int chars = 0;
	while (src[i] && chars < n) {
		i++;
		while ((src[i] & 0xC0) == 0x80)
			i++;
		chars++;
	}
	if (!src[i] || i + 4 > size) { /* whole (or no room to cut: the fit shrinks it) */
		snprintf(dst, size, "%s", src);
		return;
	}
	size_t back = i; /* the n-th character goes for the "…" */
	do
		back--;
	while (back > 0 && (src[back] & 0xC0) == 0x80);
	snprintf(dst, size, "%.*s…", (int)back, src);
}

/* Box plots of the scores per game (the first BOX_GAMES by plays): whiskers min–max, box
 * q1–q3, the median a thick line; a lowest-wins game is marked "↓" with a footnote. */
static void scores_chart(pdf_doc *doc, HPDF_Page pg, float x, float y, float w, float h,
                         const json_object *stats, const char *const *lab)
{
	title(doc, pg, x, y, lab[PCH_SCORES]);
	json_object *sc = get(stats, "scores");
	size_t n = len(sc);
	if (n == 0) {
		pdf_fill_rgb(pg, INK);
		pdf_text(doc, pg, PDF_REGULAR, 9, x, y + 24, AL_LEFT, lab[PCH_NONE]);
		return;
	}
	/* the most played games, kept in the JSON's order (by name) */
	size_t pick[BOX_GAMES], np = 0;
	bool *taken = calloc(n, sizeof *taken);
	for (; np < BOX_GAMES && np < n; np++) {
		size_t best = n;
		for (size_t i = 0; i < n; i++)
			if (!(taken && taken[i]) &&
			    (best == n || num(at(sc, i), "n") > num(at(sc, best), "n")))
				best = i;
		if (taken)
			taken[best] = true;
		pick[np] = best;
	}
	np = 0;
	for (size_t i = 0; i < n && np < BOX_GAMES; i++)
		if (taken == NULL || taken[i])
			pick[np++] = i;
	free(taken);
	float left = x + 120, top = y + 22, cw = w - 120 - 10, row = (h - 40) / (float)np;
	if (row > 22)
		row = 22;
	float ch = row * (float)np, bl = left + 26,
	      bw = cw - 52; /* a row's box, its ends printed */
	char t[32];
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_REGULAR, 7.5f, left + cw, top + ch + 12, AL_RIGHT, lab[PCH_SCORE]);
	bool any_low = false;
	/* each game on its own scale, from its lowest score to its highest (one game's thousands
	 * would flatten the others' tens) */
	for (size_t k = 0; k < np; k++) {
		json_object *g = at(sc, pick[k]);
		double lo = num(g, "min"), hi = num(g, "max");
		double span = hi > lo ? hi - lo : 1;
#define SX(v) (bl + (float)(((v)-lo) / span) * bw)
		float cy = top + row * ((float)k + 0.5f), bh = row * 0.55f;
		bool low = json_object_get_boolean(get(g, "lowest_wins"));
		any_low = any_low || low;
		char game[NAME_CUT * 4 + 4], name[PDF_NAME_MAX];
		cut(game, sizeof game, str(g, "game"), NAME_CUT);
		snprintf(name, sizeof name, "%s%s (%d)", low ? "↓ " : "", game, (int)num(g, "n"));
		pdf_fill_rgb(pg, INK);
		pdf_text_fit(doc, pg, PDF_REGULAR, 7.5f, 114, x, cy + 2.5f, AL_LEFT, name);
		snprintf(t, sizeof t, "%g", lo);
		pdf_text(doc, pg, PDF_REGULAR, 6.5f, bl - 4, cy + 2.3f, AL_RIGHT, t);
		snprintf(t, sizeof t, "%g", hi);
		pdf_text(doc, pg, PDF_REGULAR, 6.5f, bl + bw + 4, cy + 2.3f, AL_LEFT, t);
		pdf_grey(pg, 0, 0.85f);
		HPDF_Page_SetLineWidth(pg, 0.3f);
		pdf_line(doc, pg, bl, cy, bl + bw, cy); /* the row's scale, faint */
		HPDF_Page_Stroke(pg);
		pdf_grey(pg, 0.85f, 0);
		HPDF_Page_SetLineWidth(pg, 0.7f);
		pdf_line(doc, pg, SX(lo), cy, SX(num(g, "q1")), cy);
		pdf_line(doc, pg, SX(num(g, "q3")), cy, SX(hi), cy);
		pdf_line(doc, pg, SX(lo), cy - bh / 3, SX(lo), cy + bh / 3);
		pdf_line(doc, pg, SX(hi), cy - bh / 3, SX(hi), cy + bh / 3);
		HPDF_Page_Stroke(pg);
		pdf_rect(doc, pg, SX(num(g, "q1")), cy - bh / 2,
		         SX(num(g, "q3")) - SX(num(g, "q1")) + 0.01f, bh);
		HPDF_Page_FillStroke(pg);
		HPDF_Page_SetLineWidth(pg, 2);
		pdf_line(doc, pg, SX(num(g, "median")), cy - bh / 2, SX(num(g, "median")),
		         cy + bh / 2);
		HPDF_Page_Stroke(pg);
	}
#undef SX
	pdf_grey(pg, 0, 0);
	if (any_low) {
		pdf_fill_rgb(pg, INK);
		pdf_text(doc, pg, PDF_REGULAR, 7, x, top + ch + 19, AL_LEFT, lab[PCH_LOWEST]);
	}
}

/* The head-to-head heat map of the first H2H_SIDE players: row A, column B, the grey as dark
 * as A's share of plays above B, the share printed in the cell. */
static void h2h_chart(pdf_doc *doc, HPDF_Page pg, float x, float y, float w, float avail,
                      const json_object *stats, const char *const *lab)
{
	title(doc, pg, x, y, lab[PCH_H2H]);
	json_object *players = get(stats, "players"), *h = get(stats, "head_to_head");
	size_t n = len(players) < H2H_SIDE ? len(players) : H2H_SIDE;
	float name_w = 96, cell = (w - name_w) / (float)(n ? n : 1), top = y + 64;
	if (cell > (avail - 70) / (float)(n ? n : 1))
		cell = (avail - 70) / (float)(n ? n : 1);
	if (cell > 34)
		cell = 34;
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_REGULAR, 7, x, y + 14, AL_LEFT, lab[PCH_SHARE]);
	for (size_t j = 0; j < n; j++) { /* column heads: initials rotated would be nicer; cut */
		char head[24];
		snprintf(head, sizeof head, "%zu", j + 1);
		pdf_text(doc, pg, PDF_BOLD, 7.5f, x + name_w + cell * ((float)j + 0.5f), top - 4,
		         AL_CENTRE, head);
	}
	for (size_t i = 0; i < n; i++) {
		const char *a = str(at(players, i), "player");
		char rowname[PDF_NAME_MAX];
		snprintf(rowname, sizeof rowname, "%zu. %s", i + 1, str(at(players, i), "name"));
		float cy = top + cell * (float)i;
		pdf_fill_rgb(pg, INK);
		pdf_text_fit(doc, pg, PDF_REGULAR, 7.5f, name_w - 4, x, cy + cell / 2 + 2.5f,
		             AL_LEFT, rowname);
		for (size_t j = 0; j < n; j++) {
			const char *b = str(at(players, j), "player");
			float cx = x + name_w + cell * (float)j;
			json_object *e = NULL;
			for (size_t k = 0; k < len(h) && i != j; k++)
				if (strcmp(str(at(h, k), "player"), a) == 0 &&
				    strcmp(str(at(h, k), "opponent"), b) == 0)
					e = at(h, k);
			HPDF_Page_SetLineWidth(pg, 0.4f);
			if (e == NULL) {
				pdf_grey(pg, 1, 0.6f);
				pdf_rect(doc, pg, cx, cy, cell, cell);
				HPDF_Page_Stroke(pg);
				if (i == j) {
					pdf_line(doc, pg, cx, cy, cx + cell, cy + cell);
					HPDF_Page_Stroke(pg);
				}
				continue;
			}
			double share = num(e, "share");
			float g = 1 - 0.8f * (float)share;
			pdf_grey(pg, g, 0.6f);
			pdf_rect(doc, pg, cx, cy, cell, cell);
			HPDF_Page_FillStroke(pg);
			char t[16];
			snprintf(t, sizeof t, "%.0f%%", share * 100);
			pdf_grey(pg, g < 0.5f ? 1 : 0, 0);
			pdf_text_fit(doc, pg, PDF_REGULAR, 7, cell - 2, cx + cell / 2,
			             cy + cell / 2 + 2.5f, AL_CENTRE, t);
		}
	}
	pdf_grey(pg, 0, 0);
}

/* Plays per month as bars (the last MONTHS_MAX months). */
static void months_chart(pdf_doc *doc, HPDF_Page pg, float x, float y, float w, float h,
                         const json_object *stats, const char *const *lab)
{
	title(doc, pg, x, y, lab[PCH_MONTHS]);
	json_object *m = get(stats, "months");
	size_t n = len(m), first = n > MONTHS_MAX ? n - MONTHS_MAX : 0;
	if (n == 0) {
		pdf_fill_rgb(pg, INK);
		pdf_text(doc, pg, PDF_REGULAR, 9, x, y + 24, AL_LEFT, lab[PCH_NONE]);
		return;
	}
	double hi = 1;
	for (size_t i = first; i < n; i++)
		if (num(at(m, i), "plays") > hi)
			hi = num(at(m, i), "plays");
	double step = tick_step(hi, 4);
	hi = ceil(hi / step) * step;
	float left = x + 34, top = y + 20, cw = w - 34 - 4, ch = h - 48;
	y_axis(doc, pg, left, top, cw, ch, 0, hi, lab[PCH_PLAYS]);
	float bw = cw / (float)(n - first);
	for (size_t i = first; i < n; i++) {
		json_object *e = at(m, i);
		float bx = left + bw * (float)(i - first), bh = (float)(num(e, "plays") / hi) * ch;
		pdf_grey(pg, 0.45f, 0);
		HPDF_Page_SetLineWidth(pg, 0.4f);
		if (bh > 0) {
			pdf_rect(doc, pg, bx + bw * 0.15f, top + ch - bh, bw * 0.7f, bh);
			HPDF_Page_FillStroke(pg);
		}
		const char *month = str(e, "month");
		size_t every = (n - first) / 12 + 1;
		if ((i - first) % every == 0 || i + 1 == n) {
			pdf_fill_rgb(pg, INK);
			pdf_text(doc, pg, PDF_REGULAR, 6.5f, bx + bw / 2, top + ch + 9, AL_CENTRE,
			         month);
		}
	}
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_REGULAR, 7.5f, left + cw, top + ch + 19, AL_RIGHT, lab[PCH_MONTH]);
	pdf_grey(pg, 0, 0);
}

void pdf_league_pictures(pdf_doc *doc, const struct json_object *stats, const char *heading,
                         const char *const labels[PCH_COUNT])
{
	float m = doc->p->margin, w = doc->pw - 2 * m, ph = doc->ph;
	HPDF_Page pg = pdf_new_page(doc);
	if (pg == NULL)
		return;
	pdf_fill_rgb(pg, INK);
	pdf_text_fit(doc, pg, PDF_BOLD, 15, w, m, m + 14, AL_LEFT, heading);
	float avail = ph - 2 * m - 30;
	ratings_chart(doc, pg, m, m + 34, w, avail * 0.5f, stats, labels);
	scores_chart(doc, pg, m, m + 40 + avail * 0.5f, w, avail * 0.5f - 10, stats, labels);
	pg = pdf_new_page(doc);
	if (pg == NULL)
		return;
	h2h_chart(doc, pg, m, m + 14, w, ph - 2 * m - 240, stats, labels);
	months_chart(doc, pg, m, ph - m - 200, w, 200, stats, labels);
}

/* "label: text" lines of the recap. */
static float fact(pdf_doc *doc, HPDF_Page pg, float x, float y, float w, const char *label,
                  const char *text)
{
	pdf_fill_rgb(pg, INK);
	pdf_text(doc, pg, PDF_BOLD, 10, x, y, AL_LEFT, label);
	pdf_text_fit(doc, pg, PDF_REGULAR, 10, w - 130, x + 130, y, AL_LEFT, text);
	return y + 17;
}

void pdf_recap_pages(pdf_doc *doc, const struct json_object *recap, const char *const rl[PRC_COUNT],
                     const char *const labels[PCH_COUNT])
{
	float m = doc->p->margin, w = doc->pw - 2 * m, ph = doc->ph;
	HPDF_Page pg = pdf_new_page(doc);
	if (pg == NULL)
		return;
	json_object *season = get(recap, "season"), *stats = get(recap, "stats");
	char t[PDF_NAME_MAX * 2];
	pdf_fill_rgb(pg, INK);
	pdf_text_fit(doc, pg, PDF_BOLD, 17, w, m, m + 16, AL_LEFT,
	             str(get(recap, "league"), "name"));
	snprintf(t, sizeof t, "%s · %s · %s – %s", rl[PRC_TITLE], str(season, "name"),
	         str(season, "from"), str(season, "to"));
	pdf_text_fit(doc, pg, PDF_REGULAR, 10, w, m, m + 32, AL_LEFT, t);
	float y = m + 58;
	json_object *o;
	snprintf(t, sizeof t, "%d", (int)num(recap, "plays"));
	y = fact(doc, pg, m, y, w, rl[PRC_PLAYS], t);
	o = get(recap, "champion");
	if (o)
		snprintf(t, sizeof t, "%s (%.2f)", str(o, "name"),
		         num(get(o, "rating"), "ordinal"));
	y = fact(doc, pg, m, y, w, rl[PRC_CHAMPION], o ? t : rl[PRC_NONE]);
	o = get(recap, "climb");
	if (o)
		snprintf(t, sizeof t, "%s: %.2f → %.2f (%+.2f)", str(o, "name"), num(o, "from"),
		         num(o, "to"), num(o, "delta"));
	y = fact(doc, pg, m, y, w, rl[PRC_CLIMB], o ? t : rl[PRC_NONE]);
	o = get(recap, "most_played");
	if (o)
		snprintf(t, sizeof t, "%s (%d)", str(o, "game"), (int)num(o, "plays"));
	y = fact(doc, pg, m, y, w, rl[PRC_MOST_PLAYED], o ? t : rl[PRC_NONE]);
	o = get(recap, "closest");
	if (o)
		snprintf(t, sizeof t, "%.10s, %s: %s %g – %s %g (%s %g)", str(o, "date"),
		         str(o, "game"), str(get(o, "first"), "name"),
		         num(get(o, "first"), "score"), str(get(o, "second"), "name"),
		         num(get(o, "second"), "score"), rl[PRC_MARGIN], num(o, "margin"));
	y = fact(doc, pg, m, y, w, rl[PRC_CLOSEST], o ? t : rl[PRC_NONE]);
	o = get(recap, "streak");
	if (o)
		snprintf(t, sizeof t, "%s (%d)", str(o, "name"), (int)num(o, "wins"));
	y = fact(doc, pg, m, y, w, rl[PRC_STREAK], o ? t : rl[PRC_NONE]);
	float avail = ph - m - (y + 14);
	ratings_chart(doc, pg, m, y + 14, w, avail * 0.58f, stats, labels);
	months_chart(doc, pg, m, y + 24 + avail * 0.58f, w, avail * 0.42f - 10, stats, labels);
	pg = pdf_new_page(doc);
	if (pg == NULL)
		return;
	scores_chart(doc, pg, m, m + 14, w, (ph - 2 * m) * 0.45f, stats, labels);
	h2h_chart(doc, pg, m, m + 30 + (ph - 2 * m) * 0.45f, w, (ph - 2 * m) * 0.55f - 30, stats,
	          labels);
}
