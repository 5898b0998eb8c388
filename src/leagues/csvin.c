/* Reading a spreadsheet saved as CSV (csvin.h): bytes to rows of cells, and the cells a play
 * log holds — dates in the forms spreadsheets write, numbers with a decimal point or comma,
 * winner flags. RFC 4180 quoting; a UTF-8 byte order mark; ',' ';' or TAB, whichever the
 * header line uses most; CRLF, LF or CR line ends; a file that is not UTF-8 is read as
 * Windows-1252 (Excel's "CSV" on Windows). Everything is bounded: 16 MiB in (the route's cap),
 * CSV_MAX_COLS columns, CSV_MAX_CELLS cells. */
#include "leagues/csvin.h"
#include "leagues/dates.h"

#include "base/oom.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- bytes ---- */

/* The length of the UTF-8 sequence at s (n bytes left), or 0 when it is not one (overlong
 * forms, surrogates and code points over U+10FFFF are not). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	if (s[0] < 0x80)
		return 1;
	size_t k = s[0] >= 0xC2 && s[0] <= 0xDF   ? 2
	           : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
	           : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
	                                          : 0;
	if (k == 0 || k > n)
		return 0;
	for (size_t i = 1; i < k; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0) ||
	    (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))
		return 0;
	return k;
}

static bool is_utf8(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq((const unsigned char *)s + i, n - i);
		if (k == 0)
			return false;
		i += k;
	}
	return true;
}

/* Windows-1252's characters 0x80–0x9F (0: undefined there, read as U+FFFD). */
static const unsigned short CP1252[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

/* s[0..n) read as Windows-1252, as UTF-8 (owned, NUL-terminated; its length in *out_len). */
static char *from_1252(const char *s, size_t n, size_t *out_len)
{
	char *o = xmalloc(n * 3 + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned c = (unsigned char)s[i];
		if (c >= 0x80 && c < 0xA0)
			c = CP1252[c - 0x80] ? CP1252[c - 0x80] : 0xFFFD;
		if (c < 0x80) {
			o[k++] = (char)c;
		} else if (c < 0x800) {
			o[k++] = (char)(0xC0 | (c >> 6));
			o[k++] = (char)(0x80 | (c & 0x3F));
		} else {
			o[k++] = (char)(0xE0 | (c >> 12));
			o[k++] = (char)(0x80 | ((c >> 6) & 0x3F));
			o[k++] = (char)(0x80 | (c & 0x3F));
		}
	}
	o[k] = '\0';
	*out_len = k;
	return o;
}

/* ---- rows and cells ---- */

/* The separator the header line uses most (',' when it uses none). */
static char detect_sep(const char *s, size_t n)
{
	int comma = 0, semi = 0, tab = 0;
	bool quoted = false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '"')
			quoted = !quoted;
		else if (!quoted && (c == '\n' || c == '\r'))
			break;
		else if (!quoted)
			comma += c == ',', semi += c == ';', tab += c == '\t';
	}
	if (semi > comma && semi >= tab)
		return ';';
	if (tab > comma && tab > semi)
		return '\t';
	return ',';
}

typedef struct {
	const char *s; /* the text */
	size_t n, i;   /* its length, the position read */
	char *out;     /* where cells are written, NUL after each (owned by the arena) */
	size_t o;
	char sep;
} csv_reader;

/* Reads one cell into the output; *end_row set when the row (or the file) ends after it.
 * Returns false when a quoted cell is never closed. */
static bool read_cell(csv_reader *r, bool *end_row)
{
	*end_row = false;
	if (r->i < r->n && r->s[r->i] == '"') {
		r->i++;
		for (;;) {
			if (r->i >= r->n)
				return false;
			char c = r->s[r->i++];
			if (c == '"') {
				if (r->i < r->n && r->s[r->i] == '"') {
					r->out[r->o++] = '"';
					r->i++;
					continue;
				}
				break;
			}
			r->out[r->o++] = c;
		}
	}
	/* unquoted text, or what follows a closing quote up to the separator (kept as it is) */
	while (r->i < r->n) {
		char c = r->s[r->i];
		if (c == r->sep) {
			r->i++;
			r->out[r->o++] = '\0';
			return true;
		}
		if (c == '\r' || c == '\n') {
			r->i += c == '\r' && r->i + 1 < r->n && r->s[r->i + 1] == '\n' ? 2 : 1;
			break;
		}
		r->out[r->o++] = c;
		r->i++;
	}
	r->out[r->o++] = '\0';
	*end_row = true;
	return true;
}

static void arena_adopt(league_import *im, char *s)
{
	im->arena = xrealloc(im->arena, (im->narena + 1) * sizeof *im->arena);
	im->arena[im->narena++] = s;
}

static const char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* Reads every row of r into f: the first is the header. */
static int read_rows(league_import *im, csv_reader *r, csv_file *f)
{
	char *cells[CSV_MAX_COLS];
	int line = 0, rows_cap = 0; /* line: records, as a spreadsheet numbers its rows */
	long total = 0;
	while (r->i < r->n) {
		int nc = 0;
		bool end = false, blank = true;
		line++;
		int start_line = line;
		while (!end) {
			char *c = r->out + r->o;
			if (!read_cell(r, &end)) {
				char field[32];
				snprintf(field, sizeof field, "/rows/%d", start_line);
				return io_fail(
				    im, field,
				    "a quoted cell is never closed: a \" opens it and no \" "
				    "ends it");
			}
			if (++total > CSV_MAX_CELLS)
				return io_fail(im, "",
				               "too many cells in one file (4,000,000 at most)");
			if (nc < CSV_MAX_COLS)
				cells[nc] = c;
			else if (f->header == NULL)
				return io_fail(im, "/rows/1", "a file has at most 128 columns");
			nc++;
			blank = blank && *c == '\0';
		}
		if (f->header == NULL) {
			f->ncols = nc;
			f->header = xcalloc((size_t)nc, sizeof *f->header);
			for (int k = 0; k < nc; k++)
				f->header[k] = trim(cells[k]);
			continue;
		}
		if (blank)
			continue;
		if (f->nrows == rows_cap) {
			rows_cap = rows_cap ? rows_cap * 2 : 64;
			f->rows = xrealloc(f->rows, (size_t)rows_cap * sizeof *f->rows);
			f->lines = xrealloc(f->lines, (size_t)rows_cap * sizeof *f->lines);
		}
		const char **row = xcalloc((size_t)f->ncols + 1, sizeof *row);
		for (int k = 0; k < f->ncols; k++)
			row[k] = k < nc && k < CSV_MAX_COLS ? cells[k] : "";
		f->rows[f->nrows] = row;
		f->lines[f->nrows++] = start_line;
	}
	if (f->header == NULL)
		return io_fail(im, "",
		               "the file is empty: a spreadsheet's first row names its columns");
	return 0;
}

int csv_read(league_import *im, const char *body, size_t len, csv_file *f)
{
	memset(f, 0, sizeof *f);
	if (memchr(body, '\0', len) != NULL)
		return io_fail(im, "", "a CSV file holds text: this one has a NUL byte");
	const char *s = body;
	size_t n = len;
	char *conv = NULL;
	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		s += 3, n -= 3;
	if (!is_utf8(s, n)) {
		conv = from_1252(s, n, &n);
		s = conv;
		f->windows_1252 = true;
	}
	csv_reader r = {.s = s, .n = n, .out = xmalloc(n + 2), .sep = detect_sep(s, n)};
	arena_adopt(im, r.out);
	f->sep = r.sep;
	int rc = read_rows(im, &r, f);
	free(conv);
	return rc;
}

void csv_file_free(csv_file *f)
{
	for (int i = 0; i < f->nrows; i++)
		free((void *)f->rows[i]);
	free(f->rows);
	free(f->lines);
	free(f->header);
	memset(f, 0, sizeof *f);
}

/* ---- dates ---- */

/* Up to max digits at *p (at least one) into *v; advances *p. */
static bool num(const char **p, int max, int *v)
{
	int k = 0;
	*v = 0;
	while (k < max && **p >= '0' && **p <= '9') {
		*v = *v * 10 + (**p - '0');
		(*p)++;
		k++;
	}
	return k > 0 && !(**p >= '0' && **p <= '9');
}

/* A time of day at p: H:MM[:SS[.fff]] [AM|PM]; the rest of the text must be spaces. */
static bool parse_time(const char *p, int *h, int *mi, int *se)
{
	*se = 0;
	while (*p == ' ')
		p++;
	if (!num(&p, 2, h) || *p++ != ':' || !num(&p, 2, mi))
		return false;
	if (*p == ':') {
		p++;
		if (!num(&p, 2, se))
			return false;
		if (*p == '.' || *p == ',')
			for (p++; *p >= '0' && *p <= '9'; p++)
				;
	}
	while (*p == ' ')
		p++;
	if ((p[0] == 'A' || p[0] == 'a' || p[0] == 'P' || p[0] == 'p') &&
	    (p[1] == 'M' || p[1] == 'm')) {
		if (*h < 1 || *h > 12)
			return false;
		*h = (*h % 12) + (p[0] == 'P' || p[0] == 'p' ? 12 : 0);
		p += 2;
	}
	while (*p == ' ')
		p++;
	return *p == '\0' && *h <= 23 && *mi <= 59 && *se <= 59;
}

/* The three numbers of a date at *p and the separator between them ('-', '/' or '.'). */
static bool date_parts(const char **p, int v[3], int len[3], char *sep)
{
	for (int k = 0; k < 3; k++) {
		const char *b = *p;
		if (!num(p, 4, &v[k]))
			return false;
		len[k] = (int)(*p - b);
		if (k == 0) {
			*sep = **p;
			if (*sep != '-' && *sep != '/' && *sep != '.')
				return false;
		}
		if (k < 2 && *(*p)++ != *sep)
			return false;
	}
	return true;
}

int csv_date(const char *cell, const char *time, csv_dates order, char when[64], int *offset_min)
{
	*offset_min = 0;
	while (*cell == ' ')
		cell++;
	if (*cell == '\0')
		return 1;
	if (strlen(cell) > 40)
		return 2;
	/* RFC 3339 with its offset (our own export's date) */
	if (dates_parse_rfc3339(cell, when, offset_min) && strlen(cell) > 10)
		return 0;
	*offset_min = 0;
	const char *p = cell;
	int v[3], len[3], y, mo, d;
	char sep;
	if (!date_parts(&p, v, len, &sep))
		return 2;
	if (len[0] == 4 && sep != '.') { /* Y-M-D, Y/M/D */
		y = v[0], mo = v[1], d = v[2];
	} else if (len[2] == 4 && len[0] <= 2 && len[1] <= 2) {
		if (sep == '.' || v[0] > 12) /* D.M.Y; a first number over 12 is a day */
			d = v[0], mo = v[1];
		else if (v[1] > 12)
			mo = v[0], d = v[1];
		else if (v[0] == v[1] || order == CSV_DATES_DMY)
			d = v[0], mo = v[1];
		else if (order == CSV_DATES_MDY)
			mo = v[0], d = v[1];
		else
			return 3;
		y = v[2];
	} else {
		return 2;
	}
	int h = 0, mi = 0, se = 0;
	bool clock = false;
	if (*p == 'T' || *p == ' ') {
		const char *t = p + 1;
		while (*t == ' ')
			t++;
		if (*t != '\0') {
			if (!parse_time(t, &h, &mi, &se))
				return 2;
			clock = true;
		}
	} else if (*p != '\0') {
		return 2;
	}
	if (!clock && time && *time) {
		if (!parse_time(time, &h, &mi, &se))
			return 2;
	}
	char iso[32];
	snprintf(iso, sizeof iso, "%04d-%02d-%02d %02d:%02d:%02d", y % 10000, mo % 100, d % 100, h,
	         mi, se);
	return dates_parse_when(iso, when) ? 0 : 2;
}

csv_dates csv_date_order(const csv_file *f, int col, bool *ambiguous)
{
	bool dmy = false, mdy = false, unsure = false;
	for (int i = 0; col >= 0 && i < f->nrows; i++) {
		const char *p = f->rows[i][col];
		while (*p == ' ')
			p++;
		int v[3], len[3];
		char sep;
		if (!date_parts(&p, v, len, &sep) || len[2] != 4 || len[0] > 2 || sep == '.')
			continue;
		dmy = dmy || v[0] > 12;
		mdy = mdy || v[1] > 12;
		unsure = unsure || (v[0] != v[1] && v[0] <= 12 && v[1] <= 12);
	}
	*ambiguous = unsure && dmy == mdy;
	return dmy && !mdy ? CSV_DATES_DMY : mdy && !dmy ? CSV_DATES_MDY : CSV_DATES_AUTO;
}

/* ---- numbers and flags ---- */

bool csv_number(const char *cell, double *v)
{
	char t[IO_NUM_MAX];
	while (*cell == ' ')
		cell++;
	size_t n = strlen(cell);
	while (n > 0 && cell[n - 1] == ' ')
		n--;
	if (n == 0 || n >= sizeof t)
		return false;
	memcpy(t, cell, n);
	t[n] = '\0';
	/* one comma and no point: a decimal comma ("12,5") */
	char *comma = strchr(t, ',');
	if (comma && strchr(comma + 1, ',') == NULL && strchr(t, '.') == NULL)
		*comma = '.';
	return io_score_parse(t, v) && isfinite(*v);
}

int csv_flag(const char *cell)
{
	static const char *const yes[] = {
	    "true", "yes", "y",    "1",  "x",  "won",          "win",          "w", "winner", "oui",
	    "vrai", "ja",  "wahr", "si", "sí", "\xE2\x9C\x93", "\xE2\x9C\x94", NULL};
	static const char *const no[] = {"false", "no",   "n",    "0",      "lost", "loss", "l",
	                                 "non",   "faux", "nein", "falsch", "",     NULL};
	char t[16];
	size_t n = 0;
	while (*cell == ' ')
		cell++;
	for (; *cell && n < sizeof t - 1; cell++)
		t[n++] = (char)(*cell >= 'A' && *cell <= 'Z' ? *cell + 32 : *cell);
	while (n > 0 && t[n - 1] == ' ')
		n--;
	t[n] = '\0';
	if (*cell != '\0')
		return -1;
	for (int i = 0; yes[i]; i++)
		if (strcmp(t, yes[i]) == 0)
			return 1;
	for (int i = 0; no[i]; i++)
		if (strcmp(t, no[i]) == 0)
			return *t ? 0 : -1;
	return -1;
}
