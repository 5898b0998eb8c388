/* The document: fonts, metadata, paper sizes, bytes out; and the drawing helpers. */
#include "base/log.h"
#include "base/oom.h"
#include "pdf/draw.h"

#include <math.h>
#include <string.h>

/* libharu calls this on every error; the document remembers the first one and the renderer
 * carries on (libharu ignores the following calls on a broken document), so pdf_doc_finish
 * can refuse to hand out a broken file. */
static void on_error(HPDF_STATUS error, HPDF_STATUS detail, void *user)
{
	pdf_doc *doc = user;
	if (!doc->failed) {
		doc->error = error;
		doc->detail = detail;
	}
	doc->failed = true;
}

static void set_date(HPDF_Doc h, time_t t)
{
	struct tm tm;
	gmtime_r(&t, &tm);
	HPDF_Date date = {.year = tm.tm_year + 1900,
	                  .month = tm.tm_mon + 1,
	                  .day = tm.tm_mday,
	                  .hour = tm.tm_hour,
	                  .minutes = tm.tm_min,
	                  .seconds = tm.tm_sec,
	                  .ind = 'Z'};
	HPDF_SetInfoDateAttr(h, HPDF_INFO_CREATION_DATE, date);
}

static HPDF_Font load_font(pdf_doc *doc, const char *path)
{
	const char *name = HPDF_LoadTTFontFromFile(doc->h, path, HPDF_TRUE);
	if (name == NULL)
		return NULL;
	return HPDF_GetFont(doc->h, name, "UTF-8");
}

pdf_doc *pdf_doc_begin(const er_data *d, const pdf_print *p, pdf_paper paper, pdf_lang lang,
                       const char *title, time_t created)
{
	pdf_doc *doc = xcalloc(1, sizeof *doc);
	doc->d = d;
	doc->p = p;
	doc->paper = paper;
	doc->lang = lang;
	doc->pw = paper == PDF_LETTER ? 612.0f : 595.276f;
	doc->ph = paper == PDF_LETTER ? 792.0f : 841.89f;
	doc->h = HPDF_New(on_error, doc);
	if (doc->h == NULL)
		oom_abort();
	HPDF_SetCompressionMode(doc->h, HPDF_COMP_ALL);
	HPDF_UseUTFEncodings(doc->h);
	HPDF_SetCurrentEncoder(doc->h, "UTF-8");
	doc->font = load_font(doc, p->font);
	if (doc->font == NULL) {
		log_warn("pdf: cannot load the font %s (libharu error %#lx)", p->font, doc->error);
		pdf_doc_free(doc);
		return NULL;
	}
	HPDF_SetInfoAttr(doc->h, HPDF_INFO_TITLE, title);
	HPDF_SetInfoAttr(doc->h, HPDF_INFO_AUTHOR, p->labels[lang][PL_AUTHOR]);
	HPDF_SetInfoAttr(doc->h, HPDF_INFO_CREATOR, p->labels[lang][PL_AUTHOR]);
	set_date(doc->h, created);
	return doc;
}

void pdf_doc_free(pdf_doc *doc)
{
	if (doc == NULL)
		return;
	if (doc->h)
		HPDF_Free(doc->h);
	free(doc);
}

int pdf_doc_finish(pdf_doc *doc, unsigned char **bytes, size_t *len)
{
	*bytes = NULL;
	*len = 0;
	if (!doc->failed && HPDF_SaveToStream(doc->h) == HPDF_OK) {
		HPDF_UINT32 size = HPDF_GetStreamSize(doc->h);
		unsigned char *buf = xmalloc(size);
		HPDF_UINT32 got = size;
		HPDF_ReadFromStream(doc->h, buf, &got); /* HPDF_STREAM_EOF at the end is fine */
		if (!doc->failed && got == size) {
			*bytes = buf;
			*len = size;
		} else {
			free(buf);
		}
	}
	if (*bytes == NULL)
		log_bug("pdf: libharu error %#lx (detail %lu)", doc->error, doc->detail);
	int rc = *bytes ? 0 : -1;
	pdf_doc_free(doc);
	return rc;
}

HPDF_Page pdf_new_page(pdf_doc *doc)
{
	HPDF_Page pg = doc->failed ? NULL : HPDF_AddPage(doc->h);
	if (pg == NULL) { /* an earlier libharu error: pdf_doc_finish refuses the document */
		doc->failed = true;
		return NULL;
	}
	HPDF_Page_SetWidth(pg, doc->pw);
	HPDF_Page_SetHeight(pg, doc->ph);
	HPDF_Page_SetLineCap(pg, HPDF_ROUND_END);
	HPDF_Page_SetLineJoin(pg, HPDF_ROUND_JOIN);
	return pg;
}

const char *pdf_label_text(const pdf_doc *doc, pdf_label l)
{
	return doc->p->labels[doc->lang][l];
}

void pdf_fill_rgb(HPDF_Page pg, const float c[3])
{
	HPDF_Page_SetRGBFill(pg, c[0], c[1], c[2]);
}

void pdf_stroke_rgb(HPDF_Page pg, const float c[3])
{
	HPDF_Page_SetRGBStroke(pg, c[0], c[1], c[2]);
}

void pdf_grey(HPDF_Page pg, float fill, float stroke)
{
	HPDF_Page_SetGrayFill(pg, fill);
	HPDF_Page_SetGrayStroke(pg, stroke);
}

float pdf_text_width(pdf_doc *doc, HPDF_Page pg, pdf_face f, float size, const char *utf8)
{
	(void)f; /* the stroke of bold text does not change its advance */
	HPDF_Page_SetFontAndSize(pg, doc->font, size);
	return HPDF_Page_TextWidth(pg, utf8);
}

void pdf_text(pdf_doc *doc, HPDF_Page pg, pdf_face f, float size, float x, float y, pdf_align al,
              const char *utf8)
{
	if (utf8 == NULL || utf8[0] == '\0')
		return;
	float w = al == AL_LEFT ? 0 : pdf_text_width(doc, pg, f, size, utf8);
	float x0 = al == AL_LEFT ? x : al == AL_CENTRE ? x - w / 2 : x - w;
	if (f == PDF_BOLD) {
		HPDF_Page_GSave(pg);
		HPDF_RGBColor c = HPDF_Page_GetRGBFill(pg);
		HPDF_Page_SetRGBStroke(pg, c.r, c.g, c.b);
		HPDF_Page_SetLineWidth(pg, size * doc->p->bold_stroke);
	}
	HPDF_Page_BeginText(pg);
	HPDF_Page_SetFontAndSize(pg, doc->font, size);
	if (f == PDF_BOLD)
		HPDF_Page_SetTextRenderingMode(pg, HPDF_FILL_THEN_STROKE);
	HPDF_Page_TextOut(pg, x0, doc->ph - y, utf8);
	HPDF_Page_EndText(pg);
	if (f == PDF_BOLD)
		HPDF_Page_GRestore(pg);
}

void pdf_text_fit(pdf_doc *doc, HPDF_Page pg, pdf_face f, float size, float maxw, float x, float y,
                  pdf_align al, const char *utf8)
{
	float w = pdf_text_width(doc, pg, f, size, utf8);
	if (w > maxw && w > 0)
		size *= maxw / w;
	pdf_text(doc, pg, f, size, x, y, al, utf8);
}

void pdf_rect(pdf_doc *doc, HPDF_Page pg, float x, float y, float w, float h)
{
	HPDF_Page_Rectangle(pg, x, doc->ph - y - h, w, h);
}

void pdf_circle(pdf_doc *doc, HPDF_Page pg, float cx, float cy, float r)
{
	HPDF_Page_Circle(pg, cx, doc->ph - cy, r);
}

void pdf_line(pdf_doc *doc, HPDF_Page pg, float x0, float y0, float x1, float y1)
{
	HPDF_Page_MoveTo(pg, x0, doc->ph - y0);
	HPDF_Page_LineTo(pg, x1, doc->ph - y1);
}

void pdf_hex_path(pdf_doc *doc, HPDF_Page pg, float cx, float cy, float r)
{
	/* vertex k at angle -90° + 60°k (sheet coordinates): top, upper-right, … */
	for (int k = 0; k < 6; k++) {
		double a = (-90.0 + 60.0 * k) * M_PI / 180.0;
		float x = cx + r * (float)cos(a), y = cy + r * (float)sin(a);
		if (k == 0)
			HPDF_Page_MoveTo(pg, x, doc->ph - y);
		else
			HPDF_Page_LineTo(pg, x, doc->ph - y);
	}
	HPDF_Page_ClosePath(pg);
}

void pdf_cross(pdf_doc *doc, HPDF_Page pg, float cx, float cy, float s, float width)
{
	HPDF_Page_SetLineWidth(pg, width);
	pdf_line(doc, pg, cx - s, cy - s, cx + s, cy + s);
	pdf_line(doc, pg, cx - s, cy + s, cx + s, cy - s);
	HPDF_Page_Stroke(pg);
}
