/* QR codes with libqrencode: drawn into a PDF as vector squares, or as an SVG document. */
#include "base/oom.h"
#include "pdf/draw.h"

#include <qrencode.h>
#include <stdbool.h>
#include <stdio.h>

enum { QR_QUIET = 4 }; /* modules of white border the standard asks for */

static QRcode *encode(const char *data, size_t len)
{
	if (len == 0 || len > 2048)
		return NULL;
	return QRcode_encodeData((int)len, (const unsigned char *)data, 0, QR_ECLEVEL_M);
}

/* The next horizontal run of dark modules of row r from column *c on: true with the run in
 * columns [*c0, *c). One rectangle (or path segment) per run keeps the output small. */
static bool next_run(const QRcode *q, int r, int *c, int *c0)
{
	const unsigned char *row = q->data + (size_t)r * (size_t)q->width;
	while (*c < q->width && !(row[*c] & 1))
		(*c)++;
	if (*c >= q->width)
		return false;
	*c0 = *c;
	while (*c < q->width && (row[*c] & 1))
		(*c)++;
	return true;
}

void pdf_qr_draw(pdf_doc *doc, HPDF_Page pg, float x, float y, float size, const char *text)
{
	QRcode *q = encode(text, strlen(text));
	if (q == NULL)
		return;
	int n = q->width + 2 * QR_QUIET;
	float m = size / (float)n;
	pdf_grey(pg, 1, 0);
	pdf_rect(doc, pg, x, y, size, size);
	HPDF_Page_Fill(pg);
	pdf_grey(pg, 0, 0);
	for (int r = 0; r < q->width; r++) {
		int c = 0, c0;
		while (next_run(q, r, &c, &c0))
			pdf_rect(doc, pg, x + (float)(QR_QUIET + c0) * m,
			         y + (float)(QR_QUIET + r) * m, (float)(c - c0) * m, m);
	}
	HPDF_Page_Fill(pg);
	QRcode_free(q);
}

char *pdf_qr_svg(const char *data, size_t len, size_t *out_len)
{
	QRcode *q = encode(data, len);
	if (q == NULL)
		return NULL;
	int n = q->width + 2 * QR_QUIET;
	/* worst case: every module its own run, ~40 bytes each */
	size_t cap = 512 + (size_t)q->width * (size_t)q->width * 40;
	char *out = xmalloc(cap);
	size_t at =
	    (size_t)snprintf(out, cap,
	                     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	                     "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
	                     "width=\"%d\" height=\"%d\" shape-rendering=\"crispEdges\">\n"
	                     "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n<path "
	                     "fill=\"#000\" d=\"",
	                     n, n, n * 8, n * 8, n, n);
	for (int r = 0; r < q->width; r++) {
		int c = 0, c0;
		while (next_run(q, r, &c, &c0))
			at += (size_t)snprintf(out + at, cap - at, "M%d %dh%dv1h-%dz",
			                       QR_QUIET + c0, QR_QUIET + r, c - c0, c - c0);
	}
	at += (size_t)snprintf(out + at, cap - at, "\"/>\n</svg>\n");
	QRcode_free(q);
	*out_len = at;
	return out;
}
