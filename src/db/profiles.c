/* The statements of the stored scoring profiles and their typed rows (profiles.h). */
#include "db/profiles.h"

#include "base/oom.h"
#include "db/rows.h"
#include "db/statements.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- the statements ---- */

/* profile_insert: the id when stored, no row when (game, id) was taken */
#define PROFILE_INSERT_COLUMNS(C) C(PROFILE_INSERT_ID, id)
DB_COLUMNS(PROFILE_INSERT_COLUMNS, PROFILE_INSERT_NCOLS);

/* profile_get: a profile's JSON */
#define PROFILE_GET_COLUMNS(C) C(PROFILE_GET_BODY, body)
DB_COLUMNS(PROFILE_GET_COLUMNS, PROFILE_GET_NCOLS);

/* profiles_list: the profiles of game $1 (of every game when NULL) in order; league NULL for a
 * profile of no league */
#define PROFILES_LIST_COLUMNS(C)                                                                   \
	C(PROFILES_LIST_GAME, game)                                                                \
	C(PROFILES_LIST_ID, id)                                                                    \
	C(PROFILES_LIST_BODY, body)                                                                \
	C(PROFILES_LIST_LEAGUE, league)                                                            \
	C(PROFILES_LIST_CREATED_AT, created_at)
DB_COLUMNS(PROFILES_LIST_COLUMNS, PROFILES_LIST_NCOLS);

/* Scoring profiles of Dice Hospital and Clinic (migration 0003). */
// clang-format off
const db_statement db_profiles_statements[] = {
	{"profile_insert",
	 "INSERT INTO profiles (game, id, name, body, league) "
	 "VALUES ($1, $2, $3, $4::jsonb, $5) "
	 "ON CONFLICT (game, id) DO NOTHING "
	 "RETURNING id",
	 5, DB_COLUMN_NAMES(PROFILE_INSERT_COLUMNS)},
	{"profile_get",
	 "SELECT body::text "
	 "  FROM profiles "
	 " WHERE game = $1 "
	 "   AND id = $2",
	 2, DB_COLUMN_NAMES(PROFILE_GET_COLUMNS)},
	{"profiles_list",
	 "SELECT game, id, body::text, league, "
	 "       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS created_at "
	 "  FROM profiles "
	 " WHERE $1::text IS NULL "
	 "    OR game = $1 "
	 " ORDER BY game, id",
	 1, DB_COLUMN_NAMES(PROFILES_LIST_COLUMNS)},
	DB_STATEMENTS_END,
};
// clang-format on

db_status db_profile_insert(db_conn *c, const char *game, const char *id, const char *name,
                            const char *body, const char *league, bool *inserted)
{
	const char *p[5] = {game, id, name, body, league};
	PGresult *r;
	db_status st = db_run(c, "profile_insert", 5, p, &r);
	if (st == DB_OK)
		*inserted = PQntuples(r) == 1;
	PQclear(r);
	return st;
}

db_status db_profile_get(db_conn *c, const char *game, const char *id, char **body)
{
	const char *p[2] = {game, id};
	PGresult *r;
	*body = NULL;
	db_status st = db_run(c, "profile_get", 2, p, &r);
	if (st == DB_OK && PQntuples(r) == 1)
		*body = xstrdup(db_col_text(r, 0, PROFILE_GET_BODY));
	PQclear(r);
	return st;
}

db_status db_profiles_list(db_conn *c, const char *game, db_profile_fn fn, void *arg)
{
	const char *p[1] = {game};
	PGresult *r;
	db_status st = db_run(c, "profiles_list", 1, p, &r);
	if (st != DB_OK)
		return st;
	for (int i = 0; i < PQntuples(r); i++)
		fn(db_col_text(r, i, PROFILES_LIST_GAME), db_col_text(r, i, PROFILES_LIST_ID),
		   db_col_text(r, i, PROFILES_LIST_BODY),
		   db_col_text_or_null(r, i, PROFILES_LIST_LEAGUE),
		   db_col_text(r, i, PROFILES_LIST_CREATED_AT), arg);
	PQclear(r);
	return DB_OK;
}
