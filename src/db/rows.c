/* Shared plumbing of the typed-row modules (see rows.h). */
#include "db/rows.h"

#include "base/oom.h"

#include <stdio.h>
#include <stdlib.h>

void db_rows_free(PGresult *res, void *rows)
{
	PQclear(res);
	free(rows);
}

db_status db_run(db_conn *c, const char *stmt, int n, const char *const *p, PGresult **out)
{
	return db_run_bin(c, stmt, n, p, NULL, NULL, out);
}

db_status db_run_bin(db_conn *c, const char *stmt, int n, const char *const *p, const int *lengths,
                     const int *formats, PGresult **out)
{
	PGresult *r = db_exec_bin(c, stmt, n, p, lengths, formats);
	db_status st = r ? db_result_status(c, r) : DB_UNAVAILABLE; /* no result: no connection */
	if (st != DB_OK) {
		PQclear(r);
		r = NULL;
	}
	if (out)
		*out = r;
	else
		PQclear(r);
	return st;
}

db_status db_run_count(db_conn *c, const char *stmt, int n, const char *const *p, int *rows)
{
	PGresult *r;
	db_status st = db_run(c, stmt, n, p, &r);
	if (rows)
		*rows = st == DB_OK ? PQntuples(r) : 0;
	PQclear(r);
	return st;
}

db_status db_load(db_conn *c, const char *stmt, int np, const char *const *p, size_t size,
                  db_row_reader rd, PGresult **res, int *n, void **rows)
{
	*n = 0;
	*rows = NULL;
	db_status st = db_run(c, stmt, np, p, res);
	if (st != DB_OK)
		return st;
	int nr = PQntuples(*res);
	char *a = xcalloc(nr ? (size_t)nr : 1, size);
	for (int i = 0; i < nr; i++)
		rd(*res, i, a + (size_t)i * size);
	*n = nr;
	*rows = a;
	return DB_OK;
}

db_status db_get_one(db_conn *c, const char *stmt, int np, const char *const *p, db_row_reader rd,
                     void *out, bool *found)
{
	PGresult *r;
	*found = false;
	db_status st = db_run(c, stmt, np, p, &r);
	if (st != DB_OK)
		return st;
	if (PQntuples(r) == 1) {
		*found = true;
		rd(r, 0, out);
	}
	PQclear(r);
	return DB_OK;
}

int db_nrows(const PGresult *r)
{
	return PQntuples(r);
}

const char *db_col_text(const PGresult *r, int i, int col)
{
	return PQgetvalue(r, i, col);
}

const char *db_col_text_or_null(const PGresult *r, int i, int col)
{
	return PQgetisnull(r, i, col) ? NULL : PQgetvalue(r, i, col);
}

void db_col_copy(const PGresult *r, int i, int col, char *dst, size_t size)
{
	snprintf(dst, size, "%s", PQgetvalue(r, i, col));
}

bool db_col_null(const PGresult *r, int i, int col)
{
	return PQgetisnull(r, i, col);
}

bool db_col_bool(const PGresult *r, int i, int col)
{
	return PQgetvalue(r, i, col)[0] == 't';
}

int db_col_int(const PGresult *r, int i, int col)
{
	return atoi(PQgetvalue(r, i, col));
}

int64_t db_col_int64(const PGresult *r, int i, int col)
{
	return atoll(PQgetvalue(r, i, col));
}

double db_col_double(const PGresult *r, int i, int col)
{
	return strtod(PQgetvalue(r, i, col), NULL);
}
