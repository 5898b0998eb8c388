/* Internal to src/pdf/: the document struct and the drawing helpers shared by the page
 * renderers. Coordinates passed to the helpers are "sheet" coordinates: points from the page's
 * top-left corner, y growing downwards (the helpers flip them for PDF). */
#ifndef PDF_DRAW_H
#define PDF_DRAW_H

#include "pdf/pdf.h"

#include <hpdf.h>

struct pdf_doc {
	HPDF_Doc h;
	HPDF_Font font;     /* embedded DejaVu subset, UTF-8; bold is drawn by stroking it */
	const er_data *d;   /* borrowed */
	const pdf_print *p; /* borrowed */
	pdf_paper paper;
	pdf_lang lang;
	float pw, ph; /* page size in points */
	bool failed;  /* libharu reported an error */
	unsigned long error, detail;
};

typedef enum { AL_LEFT, AL_CENTRE, AL_RIGHT } pdf_align;
/* One embedded font; PDF_BOLD strokes the outlines too (one font file keeps a page small). */
typedef enum { PDF_REGULAR, PDF_BOLD } pdf_face;

/* A new page of the document's paper size; NULL once libharu has failed (draw nothing). */
HPDF_Page pdf_new_page(pdf_doc *doc);
const char *pdf_label_text(const pdf_doc *doc, pdf_label l);

void pdf_fill_rgb(HPDF_Page pg, const float c[3]);
void pdf_stroke_rgb(HPDF_Page pg, const float c[3]);
void pdf_grey(HPDF_Page pg, float fill, float stroke);

/* Text with its baseline at sheet y; x is the left, centre or right end. */
void pdf_text(pdf_doc *doc, HPDF_Page pg, pdf_face f, float size, float x, float y, pdf_align al,
              const char *utf8);
/* Same, shrinking the size so the text fits in maxw. */
void pdf_text_fit(pdf_doc *doc, HPDF_Page pg, pdf_face f, float size, float maxw, float x, float y,
                  pdf_align al, const char *utf8);
float pdf_text_width(pdf_doc *doc, HPDF_Page pg, pdf_face f, float size, const char *utf8);

void pdf_rect(pdf_doc *doc, HPDF_Page pg, float x, float y, float w, float h);
void pdf_circle(pdf_doc *doc, HPDF_Page pg, float cx, float cy, float r);
void pdf_line(pdf_doc *doc, HPDF_Page pg, float x0, float y0, float x1, float y1);
/* A pointy-top hex path (not painted). */
void pdf_hex_path(pdf_doc *doc, HPDF_Page pg, float cx, float cy, float r);
/* A cross "X" of half-size s stroked at (cx, cy). */
void pdf_cross(pdf_doc *doc, HPDF_Page pg, float cx, float cy, float s, float width);

/* The ER sheet of f (blank when f is NULL) on pg as on its own page: header, grid, ledger and
 * score row; returns the y under the score row (er_sheet.c). The coach's page draws it scaled. */
float pdf_er_sheet_draw(pdf_doc *doc, HPDF_Page pg, const pdf_er_filled *f);

/* The QR code of text as vector squares, top-left corner at (x, y), size points wide. */
void pdf_qr_draw(pdf_doc *doc, HPDF_Page pg, float x, float y, float size, const char *text);

#endif
