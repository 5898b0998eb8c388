/* Typed rows of the BG Stats files a league was fed (league_files, migration 0023) and of the
 * play log's edits and deletions the export applies to them (statements in league_files.c). */
#ifndef DB_LEAGUE_FILES_H
#define DB_LEAGUE_FILES_H

#include "db/rows.h"

/* league_file_store: keeps body (the file's JSON text) once per distinct text. */
db_status db_league_file_store(db_conn *c, const char *league, const char *body);

/* league_files_list: column body, in import order. */
typedef struct {
	const char *body;
} db_league_file_row;
typedef DB_ROWSET(db_league_file_row) db_league_file_rows;
db_status db_league_files_list(db_conn *c, const char *league, db_league_file_rows *out);

/* league_play_changes: columns action ("delete" rows first, then "edit") and key (a deleted
 * play's uuid, an edited play's id), each pair once, keys in byte order within an action. */
typedef struct {
	bool edit;
	const char *key; /* NULL: a deletion whose logged play had no uuid */
} db_play_change_row;
typedef DB_ROWSET(db_play_change_row) db_play_change_rows;
db_status db_league_play_changes(db_conn *c, const char *league, db_play_change_rows *out);

#endif
