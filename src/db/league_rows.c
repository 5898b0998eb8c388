/* The plumbing the league row modules share (league_rows.h). */
#include "db/league_rows.h"

#include "base/oom.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One text column of the one row db_get_one reads: a copy into out (n bytes) when out is set. */
typedef struct {
	int col;
	char *out;
	size_t n;
} one_text;

static void read_one_text(const PGresult *r, int i, void *arg)
{
	const one_text *a = arg;
	if (a->out)
		db_col_copy(r, i, a->col, a->out, a->n);
}

/* One text-column lookup: *found and out (fixed buffer of size n) from column col of row 0. */
db_status lg_one_text(db_conn *c, const char *stmt, int np, const char *const *p, int col,
                      bool *found, char *out, size_t n)
{
	one_text a = {col, out, n};
	return db_get_one(c, stmt, np, p, read_one_text, &a, found);
}

/* A statement whose only answer is whether it returned a row (RETURNING / SELECT). */
db_status lg_some_row(db_conn *c, const char *stmt, int np, const char *const *p, bool *any)
{
	int n;
	db_status st = db_run_count(c, stmt, np, p, &n);
	*any = n > 0;
	return st;
}

/* The numbers of a float8[] in text ("{1.5,NULL,2}"): a calloc'ed array (NAN for NULL), *n. */
double *lg_parse_float_array(const char *t, int *n)
{
	int cap = 1;
	for (const char *p = t; *p; p++)
		cap += *p == ',';
	double *v = xcalloc((size_t)cap, sizeof *v);
	*n = 0;
	const char *p = t + (*t == '{');
	while (*p && *p != '}' && *n < cap) {
		char *end;
		if (strncmp(p, "NULL", 4) == 0) {
			v[(*n)++] = NAN;
			end = (char *)p + 4;
		} else {
			v[(*n)++] = strtod(p, &end);
			if (end == p)
				break; /* not a number: stop (the caller compares the counts) */
		}
		p = end + (*end == ',');
	}
	return v;
}

/* the bool member `has` of the OPT kinds and DOUBLE_IF */
#define HAS (*(bool *)(row + f->aux))

static void read_field(const PGresult *r, int i, char *row, const lg_field *f)
{
	void *m = row + f->at;
	switch (f->kind) {
	case LG_SKIP_:
		break;
	case LG_TEXT_:
		*(const char **)m = db_col_text(r, i, f->col);
		break;
	case LG_TEXT_OR_NULL_:
		*(const char **)m = db_col_text_or_null(r, i, f->col);
		break;
	case LG_COPY_:
		db_col_copy(r, i, f->col, m, f->aux);
		break;
	case LG_BOOL_:
		*(bool *)m = db_col_bool(r, i, f->col);
		break;
	case LG_INT_:
		*(int *)m = db_col_int(r, i, f->col);
		break;
	case LG_INT64_:
		*(int64_t *)m = db_col_int64(r, i, f->col);
		break;
	case LG_DOUBLE_:
		*(double *)m = db_col_double(r, i, f->col);
		break;
	case LG_OPT_DOUBLE_:
		HAS = !db_col_null(r, i, f->col);
		*(double *)m = HAS ? db_col_double(r, i, f->col) : 0;
		break;
	case LG_OPT_INT64_:
		HAS = !db_col_null(r, i, f->col);
		*(int64_t *)m = HAS ? db_col_int64(r, i, f->col) : 0;
		break;
	case LG_OPT_TEXT_:
		HAS = !db_col_null(r, i, f->col);
		*(const char **)m = db_col_text(r, i, f->col);
		break;
	case LG_DOUBLE_IF_:
		*(double *)m = HAS ? db_col_double(r, i, f->col) : 0;
		break;
	case LG_PRESENT_:
		*(bool *)m = !db_col_null(r, i, f->col);
		break;
	}
}

void lg_read(const PGresult *r, int i, void *row, const lg_field *f, size_t n)
{
	for (size_t k = 0; k < n; k++)
		read_field(r, i, row, &f[k]);
}

db_status lg_load(db_conn *c, const char *stmt, int np, const char *const *p, size_t size,
                  const lg_field *f, size_t nf, PGresult **res, int *n, void **rows)
{
	*n = 0;
	*rows = NULL;
	db_status st = db_run(c, stmt, np, p, res);
	if (st != DB_OK)
		return st;
	int nr = db_nrows(*res);
	char *a = xcalloc(nr ? (size_t)nr : 1, size);
	for (int i = 0; i < nr; i++)
		lg_read(*res, i, a + (size_t)i * size, f, nf);
	*n = nr;
	*rows = a;
	return DB_OK;
}

/* The row lg_get reads through db_get_one, with its field table. */
typedef struct {
	void *row;
	const lg_field *f;
	size_t nf;
} fields_row;

static void read_fields_row(const PGresult *r, int i, void *arg)
{
	const fields_row *a = arg;
	lg_read(r, i, a->row, a->f, a->nf);
}

db_status lg_get(db_conn *c, const char *stmt, int np, const char *const *p, void *row, size_t size,
                 const lg_field *f, size_t nf, bool *found)
{
	memset(row, 0, size);
	fields_row a = {row, f, nf};
	return db_get_one(c, stmt, np, p, read_fields_row, &a, found);
}
