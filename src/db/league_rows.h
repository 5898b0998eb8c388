/* The plumbing the league row modules of src/db/ share (leagues.c, league_members.c,
 * league_plays.c, league_ratings.c, league_scopes.c, league_stats.c, league_export.c,
 * league_files.c). Only those files include it. */
#ifndef DB_LEAGUE_ROWS_H
#define DB_LEAGUE_ROWS_H

#include "db/rows.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* ---- columns read by their lists ----
 *
 * A league statement's columns are one X-macro list, C(ENUM, name, KIND, member, has) a column
 * in select-list order: the enum constant that names its place, its name in the SQL (checked
 * against PQdescribePrepared, db/statements.h), how it is read (KIND), and the member of the
 * row struct it is read into (`_` for SKIP), `has` the bool member of the OPT kinds (`_`
 * elsewhere). LG_COLUMNS makes the enum, LG_COLUMN_NAMES the names of the statement's row, and
 * LG_FIELDS, with LG_ROW defined as the row type, the table lg_load and lg_get read a row by:
 * no reader code per statement.
 *   SKIP          not read into the row (read by hand, or only counted)
 *   TEXT          const char *, "" for NULL (borrowed from the result)
 *   TEXT_OR_NULL  const char *, NULL for NULL
 *   COPY          char array member: the text copied, cut to fit
 *   BOOL, INT, INT64, DOUBLE   the number (false or 0 for NULL)
 *   OPT_DOUBLE, OPT_INT64, OPT_TEXT   has = the column is not NULL; the value as above
 *   DOUBLE_IF     the number if `has` (set by an earlier column) is true, else 0
 *   PRESENT       bool member: the column is not NULL */
typedef enum {
	LG_SKIP_,
	LG_TEXT_,
	LG_TEXT_OR_NULL_,
	LG_COPY_,
	LG_BOOL_,
	LG_INT_,
	LG_INT64_,
	LG_DOUBLE_,
	LG_OPT_DOUBLE_,
	LG_OPT_INT64_,
	LG_OPT_TEXT_,
	LG_DOUBLE_IF_,
	LG_PRESENT_,
} lg_kind;

/* One column of a row: how, from which column, into the member at offset `at`; aux is the
 * offset of `has` (OPT kinds, DOUBLE_IF) or the size of the array (COPY). */
typedef struct {
	lg_kind kind;
	int col;
	size_t at, aux;
} lg_field;

#define LG_ENUM_(id, name, kind, member, has) id,
#define LG_COLUMNS(LIST, ncols)               enum { LIST(LG_ENUM_) ncols }
#define LG_NAME_(id, name, kind, member, has) #name,
#define LG_COLUMN_NAMES(LIST)                 ((const char *const[]){LIST(LG_NAME_) NULL})

#define LG_FIELD_(id, name, kind, member, has) LG_FIELD_##kind(id, member, has)
#define LG_FIELD_SKIP(id, m, h)
#define LG_FIELD_PLAIN_(k, id, m)       {k, id, offsetof(LG_ROW, m), 0},
#define LG_FIELD_TEXT(id, m, h)         LG_FIELD_PLAIN_(LG_TEXT_, id, m)
#define LG_FIELD_TEXT_OR_NULL(id, m, h) LG_FIELD_PLAIN_(LG_TEXT_OR_NULL_, id, m)
#define LG_FIELD_BOOL(id, m, h)         LG_FIELD_PLAIN_(LG_BOOL_, id, m)
#define LG_FIELD_INT(id, m, h)          LG_FIELD_PLAIN_(LG_INT_, id, m)
#define LG_FIELD_INT64(id, m, h)        LG_FIELD_PLAIN_(LG_INT64_, id, m)
#define LG_FIELD_DOUBLE(id, m, h)       LG_FIELD_PLAIN_(LG_DOUBLE_, id, m)
#define LG_FIELD_PRESENT(id, m, h)      LG_FIELD_PLAIN_(LG_PRESENT_, id, m)
#define LG_FIELD_COPY(id, m, h)         {LG_COPY_, id, offsetof(LG_ROW, m), sizeof((LG_ROW *)0)->m},
#define LG_FIELD_HAS_(k, id, m, h)      {k, id, offsetof(LG_ROW, m), offsetof(LG_ROW, h)},
#define LG_FIELD_OPT_DOUBLE(id, m, h)   LG_FIELD_HAS_(LG_OPT_DOUBLE_, id, m, h)
#define LG_FIELD_OPT_INT64(id, m, h)    LG_FIELD_HAS_(LG_OPT_INT64_, id, m, h)
#define LG_FIELD_OPT_TEXT(id, m, h)     LG_FIELD_HAS_(LG_OPT_TEXT_, id, m, h)
#define LG_FIELD_DOUBLE_IF(id, m, h)    LG_FIELD_HAS_(LG_DOUBLE_IF_, id, m, h)
/* The table of a list's fields, LG_ROW being defined as the row type where it is expanded. */
#define LG_FIELD_TABLE(table, LIST) static const lg_field table[] = {LIST(LG_FIELD_)}
#define LG_NFIELDS(table)           (sizeof(table) / sizeof(table)[0])

/* Reads row i of r into row (a struct of the fields' type) by its n fields. */
void lg_read(const PGresult *r, int i, void *row, const lg_field *f, size_t n);

/* Runs stmt and reads every row by the fields into a calloc'ed array of elements of size
 * bytes: db_load with fields for a reader. */
db_status lg_load(db_conn *c, const char *stmt, int np, const char *const *p, size_t size,
                  const lg_field *f, size_t nf, PGresult **res, int *n, void **rows);

/* Runs stmt and reads its one row by the fields into row (size bytes, zeroed first): *found
 * false when it returned no row or not exactly one. */
db_status lg_get(db_conn *c, const char *stmt, int np, const char *const *p, void *row, size_t size,
                 const lg_field *f, size_t nf, bool *found);

/* Loads row set `set` from stmt by the field table (LG_FIELD_TABLE) and returns the status from
 * the calling accessor. */
#define RETURN_FIELDS(c, stmt, np, p, set, table)                                                  \
	do {                                                                                       \
		void *rows_;                                                                       \
		db_status st_ = lg_load(c, stmt, np, p, sizeof *(set)->rows, table,                \
		                        LG_NFIELDS(table), &(set)->res, &(set)->n, &rows_);        \
		(set)->rows = rows_;                                                               \
		return st_;                                                                        \
	} while (0)

/* The rows that count for standings, ratings and the pictures: of league $1, in season $2
 * (NULL: all time; s is the season's row joined on $2), of the games the filter $3 names (NULL:
 * every game; league_filter_games, migration 0024). The WHERE of league_rows and
 * league_stat_rows (p plays, r play_results, m league_members). */
// clang-format off
#define LG_RATED_ROWS_WHERE \
	" WHERE p.league_id = $1 " \
	"   AND NOT p.ignored " \
	"   AND NOT p.incomplete " \
	"   AND NOT m.anonymous " \
	"   AND NOT r.unrated " \
	"   AND ($2::text IS NULL OR p.local_date BETWEEN s.starts AND s.ends) " \
	"   AND ($3::text IS NULL " \
	"        OR lower(p.game) = ANY (ARRAY(SELECT lower(fg.name) FROM league_filter_games($1, $3) fg)) " \
	"           AND EXISTS (SELECT 1 " \
	"                         FROM league_filter_games($1, $3) fg " \
	"                        WHERE fg.name = p.game " \
	"                          AND fg.bgg = coalesce(p.bgg_id, 0))) "
// clang-format on

#endif
