/* The statements of the ER coach's cache and their typed rows (analyses.h). */
#include "db/analyses.h"

#include "base/oom.h"
#include "db/rows.h"
#include "db/statements.h"

#include <stdio.h>
#include <stdlib.h>

/* er_analysis_get */
#define ER_ANALYSIS_GET_COLUMNS(C) C(ER_ANALYSIS_GET_RESULT, result)
DB_COLUMNS(ER_ANALYSIS_GET_COLUMNS, ER_ANALYSIS_GET_NCOLS);

/* The coach's cache (migrations/0029_er_analyses.sql; run by src/games/er/coach_api.c). */
// clang-format off
const db_statement db_analyses_statements[] = {
	{"er_analysis_get",
	 "SELECT a.result "
	 "  FROM er_analyses a "
	 " WHERE a.game_id = $1 "
	 "   AND a.seat = $2::int "
	 "   AND a.width = $3::int",
	 3, DB_COLUMN_NAMES(ER_ANALYSIS_GET_COLUMNS)},
	{"er_analysis_put",
	 "INSERT INTO er_analyses (game_id, seat, width, result) "
	 "VALUES ($1, $2::int, $3::int, $4) "
	 "ON CONFLICT (game_id, seat, width) DO NOTHING",
	 4, NULL},
	DB_STATEMENTS_END,
};
// clang-format on

db_status db_er_analysis_get(db_conn *c, const char *game, int seat, int width, char **out,
                             bool *found)
{
	char s[16], w[16];
	snprintf(s, sizeof s, "%d", seat);
	snprintf(w, sizeof w, "%d", width);
	const char *p[3] = {game, s, w};
	PGresult *r;
	*out = NULL;
	*found = false;
	db_status st = db_run(c, "er_analysis_get", 3, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		*out = xstrdup(db_col_text(r, 0, ER_ANALYSIS_GET_RESULT));
		*found = true;
	}
	PQclear(r);
	return DB_OK;
}

db_status db_er_analysis_put(db_conn *c, const char *game, int seat, int width, const char *json)
{
	char s[16], w[16];
	snprintf(s, sizeof s, "%d", seat);
	snprintf(w, sizeof w, "%d", width);
	const char *p[4] = {game, s, w, json};
	return db_run_count(c, "er_analysis_put", 4, p, NULL);
}
