/* Shared plumbing of the typed-row modules (db/games.c, db/accounts.c, db/leagues.c and
 * db/league_*.c, db/profiles.c): running a statement into a db_status, reading one column as a C
 * type, and the "row set" that keeps a result alive while its typed rows borrow strings from it.
 *
 * Only files in src/db/ include this header; handlers see the typed structs of the modules.
 *
 * A row set (DB_ROWSET) owns its PGresult and a malloc'ed array of typed rows; the rows' string
 * pointers borrow from the result and stay valid until db_rowset_clear(). */
#ifndef DB_ROWS_H
#define DB_ROWS_H

#include "db/db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A typed row set: rows[0..n-1] of type T; res owns the strings they point to. */
#define DB_ROWSET(T)                                                                               \
	struct {                                                                                   \
		T *rows;                                                                           \
		int n;                                                                             \
		PGresult *res;                                                                     \
	}
/* Frees a DB_ROWSET (any T) and empties it; clearing an empty (zeroed) set is fine. */
#define db_rowset_clear(s)                                                                         \
	(db_rows_free((s)->res, (s)->rows), (s)->res = NULL, (s)->rows = NULL, (s)->n = 0)
void db_rows_free(PGresult *res, void *rows);

/* Runs a prepared statement: DB_OK with *out the result (caller PQclear()s), else the status
 * (a lost or broken connection is DB_UNAVAILABLE, as db_exec reports it) and *out NULL. */
db_status db_run(db_conn *c, const char *stmt, int n, const char *const *p, PGresult **out);
/* db_run with parameters' lengths and formats (db_exec_bin); out NULL: the rows are not read. */
db_status db_run_bin(db_conn *c, const char *stmt, int n, const char *const *p, const int *lengths,
                     const int *formats, PGresult **out);
/* Runs a statement whose rows are not read; *rows (may be NULL) receives how many it returned
 * (RETURNING / SELECT), 0 on failure. */
db_status db_run_count(db_conn *c, const char *stmt, int n, const char *const *p, int *rows);

/* Runs stmt and reads every row with rd into a calloc'ed array of nrows elements of size
 * bytes: DB_OK with *res (owner of the strings), *n and *rows set, else the status and all
 * three empty. rd(r, i, row) fills one element from row i. */
typedef void (*db_row_reader)(const PGresult *r, int i, void *row);
db_status db_load(db_conn *c, const char *stmt, int np, const char *const *p, size_t size,
                  db_row_reader rd, PGresult **res, int *n, void **rows);

/* Runs stmt and, when it returns exactly one row, reads that row into out with rd and sets
 * *found; otherwise out is left as the caller set it and *found is false. For readers that copy
 * into fixed buffers (DB_COPY_COLUMN): nothing borrowed outlives the call. */
db_status db_get_one(db_conn *c, const char *stmt, int np, const char *const *p, db_row_reader rd,
                     void *out, bool *found);

/* Column readers (row i, column col of r). Text is borrowed from r. */
int db_nrows(const PGresult *r);
const char *db_col_text(const PGresult *r, int i, int col);         /* "" for NULL */
const char *db_col_text_or_null(const PGresult *r, int i, int col); /* NULL for NULL */
/* Copies the text into dst (size bytes, cut to fit, "" for NULL). */
void db_col_copy(const PGresult *r, int i, int col, char *dst, size_t size);
bool db_col_null(const PGresult *r, int i, int col);
bool db_col_bool(const PGresult *r, int i, int col); /* false for NULL */
int db_col_int(const PGresult *r, int i, int col);   /* 0 for NULL */
int64_t db_col_int64(const PGresult *r, int i, int col);
double db_col_double(const PGresult *r, int i, int col);

/* The shared row reader: used as the C of a statement's column list (db/statements.h), reads
 * each column into the field of the same name, as that field's type, from row i of result r into
 * the row x (all three in scope):
 *
 *   static void read_claim(const PGresult *r, int i, void *row)
 *   {
 *           db_claim_row *x = row;
 *           CLAIMS_OF_LEAGUE_COLUMNS(DB_READ_COLUMN)
 *   }
 *
 * The SQL names each column after its field (an alias where they differ), and the test of the
 * columns holds the SQL to the list, so a reader cannot read one column into another's field.
 * Text is borrowed from r (fields of type const char *). */
#define DB_READ_COLUMN(id, name)                                                                   \
	x->name = _Generic(x->name,                                                                \
	    const char *: db_col_text(r, i, id),                                                   \
	    bool: db_col_bool(r, i, id),                                                           \
	    int: db_col_int(r, i, id),                                                             \
	    long: db_col_int64(r, i, id),                                                          \
	    long long: db_col_int64(r, i, id),                                                     \
	    double: db_col_double(r, i, id));

/* The shared copying reader: as DB_READ_COLUMN, for fields that are fixed char buffers (the
 * text is copied into x->name, cut to fit, "" for NULL). */
#define DB_COPY_COLUMN(id, name) db_col_copy(r, i, id, x->name, sizeof x->name);

#endif
