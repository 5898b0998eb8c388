/* The plumbing the league row modules share (league_rows.h). */
#include "db/league_rows.h"

#include "base/oom.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One text-column lookup: *found and out (fixed buffer of size n) from column col of row 0. */
db_status lg_one_text(db_conn *c, const char *stmt, int np, const char *const *p, int col,
                      bool *found, char *out, size_t n)
{
	PGresult *r;
	*found = false;
	db_status st = db_run(c, stmt, np, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		*found = true;
		if (out)
			db_col_copy(r, 0, col, out, n);
	}
	PQclear(r);
	return DB_OK;
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
