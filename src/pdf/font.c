/* A slimmer copy of a TrueType font for embedding (libharu 2.3 embeds some tables whole).
 *
 * libharu subsets the glyph outlines but copies 'post' (62 KB of glyph names in DejaVu Sans),
 * 'name' (the licence text) and writes a width for every character of the 'cmap' into the PDF.
 * The copy keeps exactly what a PDF needs: glyph outlines and metrics untouched, 'post' as
 * format 3 (no names), 'name' records 1-6 only, and a 'cmap' restricted to the Latin scripts,
 * combining accents, Greek, Cyrillic, punctuation and a few symbols. Layout tables (GPOS, GSUB,
 * kern …) are dropped: libharu never reads them. */
#include "base/oom.h"
#include "pdf/pdf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	uint32_t tag;
	unsigned char *data; /* owned */
	uint32_t len;
} table;

enum { MAX_TABLES = 32 };

/* Unicode ranges kept in the cmap: Latin scripts, combining accents, Greek and Cyrillic (names
 * at a table are not all Latin), punctuation, €, ™, arrows, minus, check marks. */
static const uint32_t keep_ranges[][2] = {
    {0x0020, 0x007E}, {0x00A0, 0x036F}, {0x0370, 0x052F}, {0x1E00, 0x1FFF}, {0x2000, 0x206F},
    {0x20AC, 0x20AC}, {0x2122, 0x2122}, {0x2190, 0x2193}, {0x2212, 0x2212}, {0x2713, 0x2717},
};

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static uint16_t rd16(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}
static void wr16(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}
static void wr32(unsigned char *p, uint32_t v)
{
	wr16(p, v >> 16);
	wr16(p + 2, v & 0xffff);
}

#define TAG(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	unsigned char *buf = NULL;
	long n = -1;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 12 && fseek(f, 0, SEEK_SET) == 0) {
		buf = xmalloc((size_t)n);
		if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Glyph of code c in a cmap format 4 subtable at st (length checked by the caller), 0 if none. */
static uint16_t fmt4_glyph(const unsigned char *st, size_t stlen, uint32_t c)
{
	unsigned segx2 = rd16(st + 6);
	const unsigned char *ends = st + 14, *starts = ends + segx2 + 2, *deltas = starts + segx2,
	                    *ranges = deltas + segx2;
	if ((size_t)(ranges + segx2 - st) > stlen)
		return 0;
	for (unsigned i = 0; i < segx2 / 2; i++) {
		if (c > rd16(ends + 2 * i))
			continue;
		uint16_t start = rd16(starts + 2 * i), ro = rd16(ranges + 2 * i);
		if (c < start)
			return 0;
		if (ro == 0)
			return (uint16_t)(c + rd16(deltas + 2 * i));
		const unsigned char *g = ranges + 2 * i + ro + 2 * (c - start);
		if ((size_t)(g + 2 - st) > stlen || rd16(g) == 0)
			return 0;
		return (uint16_t)(rd16(g) + rd16(deltas + 2 * i));
	}
	return 0;
}

/* A new cmap table (one (3,1) format 4 subtable) with only the kept ranges. */
static int slim_cmap(table *t)
{
	const unsigned char *p = t->data, *st = NULL;
	size_t stlen = 0;
	if (t->len < 4)
		return -1;
	for (unsigned i = 0; i < rd16(p + 2) && 4 + 8 * (i + 1) <= t->len; i++) {
		const unsigned char *e = p + 4 + 8 * i;
		uint32_t off = rd32(e + 4);
		if (rd16(e) == 3 && rd16(e + 2) == 1 && off + 14 <= t->len && rd16(p + off) == 4) {
			st = p + off;
			stlen = t->len - off;
		}
	}
	if (!st)
		return -1;
	/* runs of codes whose glyph - code is constant become one segment */
	enum { MAXSEG = 4096 };
	static _Thread_local uint16_t s_start[MAXSEG], s_end[MAXSEG], s_delta[MAXSEG];
	int nseg = 0;
	for (size_t r = 0; r < sizeof keep_ranges / sizeof keep_ranges[0]; r++) {
		for (uint32_t c = keep_ranges[r][0]; c <= keep_ranges[r][1]; c++) {
			uint16_t g = fmt4_glyph(st, stlen, c);
			if (g == 0)
				continue;
			uint16_t delta = (uint16_t)(g - c);
			if (nseg > 0 && s_end[nseg - 1] == c - 1 && s_delta[nseg - 1] == delta) {
				s_end[nseg - 1] = (uint16_t)c;
			} else if (nseg < MAXSEG - 1) {
				s_start[nseg] = s_end[nseg] = (uint16_t)c;
				s_delta[nseg++] = delta;
			}
		}
	}
	s_start[nseg] = s_end[nseg] = 0xffff;
	s_delta[nseg++] = 1;
	uint32_t sublen = 16 + 8 * (uint32_t)nseg, len = 12 + sublen;
	unsigned char *o = xcalloc(1, len);
	wr16(o + 2, 1);
	wr16(o + 4, 3);
	wr16(o + 6, 1);
	wr32(o + 8, 12);
	unsigned char *s = o + 12;
	unsigned sr = 1, sel = 0;
	while (sr * 2 <= (unsigned)nseg) {
		sr *= 2;
		sel++;
	}
	wr16(s, 4);
	wr16(s + 2, sublen);
	wr16(s + 6, 2 * (uint32_t)nseg);
	wr16(s + 8, 2 * sr);
	wr16(s + 10, sel);
	wr16(s + 12, 2 * (uint32_t)nseg - 2 * sr);
	unsigned char *ends = s + 14, *starts = ends + 2 * nseg + 2, *deltas = starts + 2 * nseg;
	for (int i = 0; i < nseg; i++) {
		wr16(ends + 2 * i, s_end[i]);
		wr16(starts + 2 * i, s_start[i]);
		wr16(deltas + 2 * i, s_delta[i]); /* idRangeOffset stays 0 */
	}
	free(t->data);
	t->data = o;
	t->len = len;
	return 0;
}

/* 'post' format 3: the 32-byte header, no glyph names. */
static void slim_post(table *t)
{
	if (t->len < 32)
		return;
	wr32(t->data, 0x00030000);
	t->len = 32;
}

/* 'name' with the records 1-6 only (family, style, id, full name, version, PostScript name). */
static void slim_name(table *t)
{
	const unsigned char *p = t->data;
	if (t->len < 6)
		return;
	unsigned count = rd16(p + 2), so = rd16(p + 4);
	unsigned char *o = xcalloc(1, t->len);
	unsigned kept = 0, strs = 0;
	for (unsigned pass = 0; pass < 2; pass++) {
		unsigned k = 0;
		uint32_t at = 0;
		for (unsigned i = 0; i < count && 6 + 12 * (i + 1) <= t->len; i++) {
			const unsigned char *r = p + 6 + 12 * i;
			unsigned id = rd16(r + 6), l = rd16(r + 8), off = rd16(r + 10);
			if (id < 1 || id > 6 || so + off + l > t->len)
				continue;
			if (pass == 1) {
				unsigned char *w = o + 6 + 12 * k;
				memcpy(w, r, 8);
				wr16(w + 8, l);
				wr16(w + 10, at);
				memcpy(o + 6 + 12 * kept + at, p + so + off, l);
			}
			at += l;
			k++;
		}
		kept = k;
		strs = at;
	}
	wr16(o + 2, kept);
	wr16(o + 4, 6 + 12 * kept);
	free(t->data);
	t->data = o;
	t->len = 6 + 12 * kept + strs;
}

static uint32_t checksum(const unsigned char *d, uint32_t len)
{
	uint32_t sum = 0;
	for (uint32_t i = 0; i < len; i += 4) {
		unsigned char b[4] = {0, 0, 0, 0};
		memcpy(b, d + i, len - i < 4 ? len - i : 4);
		sum += rd32(b);
	}
	return sum;
}

static int write_font(const char *path, table *t, int n)
{
	size_t total = 12 + 16 * (size_t)n;
	for (int i = 0; i < n; i++)
		total += (t[i].len + 3u) & ~3u;
	unsigned char *o = xcalloc(1, total);
	wr32(o, 0x00010000);
	wr16(o + 4, (uint32_t)n);
	unsigned sr = 1, sel = 0;
	while (sr * 2 <= (unsigned)n) {
		sr *= 2;
		sel++;
	}
	wr16(o + 6, 16 * sr);
	wr16(o + 8, sel);
	wr16(o + 10, 16 * ((unsigned)n - sr));
	size_t at = 12 + 16 * (size_t)n;
	for (int i = 0; i < n; i++) { /* tables arrive sorted by tag */
		unsigned char *e = o + 12 + 16 * i;
		wr32(e, t[i].tag);
		wr32(e + 4, checksum(t[i].data, t[i].len));
		wr32(e + 8, (uint32_t)at);
		wr32(e + 12, t[i].len);
		memcpy(o + at, t[i].data, t[i].len);
		at += (t[i].len + 3u) & ~3u;
	}
	FILE *f = fopen(path, "wb");
	int rc = f && fwrite(o, 1, total, f) == total ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	free(o);
	return rc;
}

static bool kept_table(uint32_t tag)
{
	static const uint32_t keep[] = {
	    TAG('O', 'S', '/', '2'), TAG('c', 'm', 'a', 'p'), TAG('c', 'v', 't', ' '),
	    TAG('f', 'p', 'g', 'm'), TAG('g', 'l', 'y', 'f'), TAG('h', 'e', 'a', 'd'),
	    TAG('h', 'h', 'e', 'a'), TAG('h', 'm', 't', 'x'), TAG('l', 'o', 'c', 'a'),
	    TAG('m', 'a', 'x', 'p'), TAG('n', 'a', 'm', 'e'), TAG('p', 'o', 's', 't'),
	    TAG('p', 'r', 'e', 'p')};
	for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
		if (keep[i] == tag)
			return true;
	return false;
}

int pdf_font_slim(const char *src, const char *dst, char *err, size_t errlen)
{
	size_t len = 0;
	unsigned char *f = read_file(src, &len);
	if (!f) {
		snprintf(err, errlen, "cannot read the font %s", src);
		return -1;
	}
	table t[MAX_TABLES];
	int n = 0, rc = -1;
	unsigned ntab = rd16(f + 4);
	for (unsigned i = 0; i < ntab && 12 + 16 * (i + 1) <= len; i++) {
		const unsigned char *e = f + 12 + 16 * i;
		uint32_t tag = rd32(e), off = rd32(e + 8), l = rd32(e + 12);
		if (!kept_table(tag) || n == MAX_TABLES)
			continue;
		if ((size_t)off + l > len) {
			snprintf(err, errlen, "%s: table outside the file", src);
			goto out;
		}
		t[n].tag = tag;
		t[n].len = l;
		t[n].data = xmalloc(l);
		memcpy(t[n].data, f + off, l);
		n++;
	}
	int cmap_ok = -1;
	for (int i = 0; i < n; i++) {
		if (t[i].tag == TAG('c', 'm', 'a', 'p'))
			cmap_ok = slim_cmap(&t[i]);
		else if (t[i].tag == TAG('p', 'o', 's', 't'))
			slim_post(&t[i]);
		else if (t[i].tag == TAG('n', 'a', 'm', 'e'))
			slim_name(&t[i]);
	}
	if (n != 13 || cmap_ok != 0) {
		snprintf(err, errlen, "%s: not a TrueType font with a Unicode cmap", src);
		goto out;
	}
	rc = write_font(dst, t, n);
	if (rc != 0)
		snprintf(err, errlen, "cannot write %s", dst);
out:
	for (int i = 0; i < n; i++)
		free(t[i].data);
	free(f);
	return rc;
}

int pdf_print_slim_fonts(pdf_print *p, const char *dir, char *err, size_t errlen)
{
	char dst[PDF_PATH_MAX];
	if (snprintf(dst, sizeof dst, "%s/font.ttf", dir) >= (int)sizeof dst) {
		snprintf(err, errlen, "font directory path too long");
		return -1;
	}
	if (pdf_font_slim(p->font, dst, err, errlen) != 0)
		return -1;
	memcpy(p->font, dst, strlen(dst) + 1);
	return 0;
}
