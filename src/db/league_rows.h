/* The plumbing the league row modules of src/db/ share (leagues.c, league_members.c,
 * league_plays.c, league_ratings.c, league_scopes.c, league_stats.c, league_export.c,
 * league_files.c). Only those files include it. */
#ifndef DB_LEAGUE_ROWS_H
#define DB_LEAGUE_ROWS_H

#include "db/rows.h"

#include <stdbool.h>
#include <stddef.h>

/* One text-column lookup: *found and out (fixed buffer of size n; may be NULL) from column col
 * of row 0. */
db_status lg_one_text(db_conn *c, const char *stmt, int np, const char *const *p, int col,
                      bool *found, char *out, size_t n);

/* A statement whose only answer is whether it returned a row (RETURNING / SELECT). */
db_status lg_some_row(db_conn *c, const char *stmt, int np, const char *const *p, bool *any);

/* The numbers of a float8[] in text ("{1.5,NULL,2}"): a calloc'ed array (NAN for NULL; the
 * caller frees it), *n of them. */
double *lg_parse_float_array(const char *t, int *n);

/* Loads row set `set` from stmt (rd reads one row into its element type) and returns the
 * status from the calling accessor. */
#define RETURN_LOADED(c, stmt, np, p, set, rd)                                                     \
	do {                                                                                       \
		void *rows_;                                                                       \
		db_status st_ = db_load(c, stmt, np, p, sizeof *(set)->rows, rd, &(set)->res,      \
		                        &(set)->n, &rows_);                                        \
		(set)->rows = rows_;                                                               \
		return st_;                                                                        \
	} while (0)

#endif
