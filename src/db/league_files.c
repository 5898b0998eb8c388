/* Typed rows of league_files and of the play log's changes (league_files.h). */
#include "db/league_files.h"
#include "db/league_rows.h"
#include "db/statements.h"

#include <string.h>

/* ---- statements (db/statements.h) ---- */

// clang-format off
#define LEAGUE_FILES_LIST_COLUMNS(C) C(LEAGUE_FILES_LIST_BODY, body, TEXT, body, _)
// clang-format on
LG_COLUMNS(LEAGUE_FILES_LIST_COLUMNS, LEAGUE_FILES_LIST_NCOLS);

// clang-format off
#define LEAGUE_PLAY_CHANGES_COLUMNS(C) \
	C(LEAGUE_PLAY_CHANGES_ACTION, action, SKIP, _, _) \
	C(LEAGUE_PLAY_CHANGES_KEY, key, TEXT_OR_NULL, key, _)
// clang-format on
LG_COLUMNS(LEAGUE_PLAY_CHANGES_COLUMNS, LEAGUE_PLAY_CHANGES_NCOLS);

// clang-format off
const db_statement db_league_files_statements[] = {
	/* the BG Stats files a league was fed (migration 0023): import.c stores, bgsexport.c reads */
	{"league_file_store",
	 "INSERT INTO league_files (league_id, body) "
	 "VALUES ($1, $2) "
	 "    ON CONFLICT (league_id, md5(body)) DO NOTHING",
	 2, NULL},
	{"league_files_list",
	 "SELECT body "
	 "  FROM league_files "
	 " WHERE league_id = $1 "
	 " ORDER BY seq",
	 1, LG_COLUMN_NAMES(LEAGUE_FILES_LIST_COLUMNS)},
	/* bgsexport.c: the plays edited since they were stored (by id) and the uuids deleted */
	{"league_play_changes",
	 "SELECT DISTINCT action, "
	 "       CASE action WHEN 'edit' THEN play_id ELSE before->>'uuid' END AS key "
	 "  FROM play_log "
	 " WHERE league_id = $1 "
	 "   AND action IN ('edit', 'delete') "
	 " ORDER BY action, key",
	 1, LG_COLUMN_NAMES(LEAGUE_PLAY_CHANGES_COLUMNS)},
	DB_STATEMENTS_END,
};
// clang-format on

db_status db_league_file_store(db_conn *c, const char *league, const char *body)
{
	const char *p[2] = {league, body};
	return db_run_count(c, "league_file_store", 2, p, NULL);
}

#define LG_ROW db_league_file_row
LG_FIELD_TABLE(file_fields, LEAGUE_FILES_LIST_COLUMNS);
#undef LG_ROW

db_status db_league_files_list(db_conn *c, const char *league, db_league_file_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_files_list", 1, p, out, file_fields);
}

static void read_change(const PGresult *r, int i, void *row)
{
	db_play_change_row *x = row;
	x->edit = strcmp(db_col_text(r, i, LEAGUE_PLAY_CHANGES_ACTION), "edit") == 0;
	x->key = db_col_text_or_null(r, i, LEAGUE_PLAY_CHANGES_KEY);
}

db_status db_league_play_changes(db_conn *c, const char *league, db_play_change_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_play_changes", 1, p, out, read_change);
}
