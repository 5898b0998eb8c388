/* Typed rows of league_files and of the play log's changes (league_files.h). */
#include "db/league_files.h"
#include "db/league_rows.h"

#include <string.h>

db_status db_league_file_store(db_conn *c, const char *league, const char *body)
{
	const char *p[2] = {league, body}; /* league_file_store */
	return db_run_count(c, "league_file_store", 2, p, NULL);
}

static void read_file(const PGresult *r, int i, void *row)
{
	db_league_file_row *x = row; /* league_files_list: 0 body */
	x->body = db_col_text(r, i, 0);
}

db_status db_league_files_list(db_conn *c, const char *league, db_league_file_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_files_list", 1, p, out, read_file);
}

static void read_change(const PGresult *r, int i, void *row)
{
	db_play_change_row *x = row; /* league_play_changes: 0 action, 1 key */
	x->edit = strcmp(db_col_text(r, i, 0), "edit") == 0;
	x->key = db_col_text_or_null(r, i, 1);
}

db_status db_league_play_changes(db_conn *c, const char *league, db_play_change_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_play_changes", 1, p, out, read_change);
}
