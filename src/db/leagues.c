/* Typed rows of leagues and seasons (see leagues.h), with their statements. */
#include "db/league_rows.h"
#include "db/statements.h"
#include "db/leagues.h"

/* ---- statements (db/statements.h) ---- */

// clang-format off
#define LEAGUE_ACCESS_COLUMNS(C) \
	C(LEAGUE_ACCESS_OWNER, owner, BOOL, owner, _) \
	C(LEAGUE_ACCESS_MEMBER, member, COPY, member, _) \
	C(LEAGUE_ACCESS_VERSION, version, INT64, version, _)
// clang-format on
LG_COLUMNS(LEAGUE_ACCESS_COLUMNS, LEAGUE_ACCESS_NCOLS);

// clang-format off
#define LEAGUE_BUMP_COLUMNS(C) C(LEAGUE_BUMP_VERSION, version, SKIP, _, _)
// clang-format on
LG_COLUMNS(LEAGUE_BUMP_COLUMNS, LEAGUE_BUMP_NCOLS);

// clang-format off
#define LEAGUE_REKEY_GAMES_COLUMNS(C) C(LEAGUE_REKEY_GAMES_RESULT, league_rekey_games, SKIP, _, _)
// clang-format on
LG_COLUMNS(LEAGUE_REKEY_GAMES_COLUMNS, LEAGUE_REKEY_GAMES_NCOLS);

// clang-format off
#define LEAGUE_LOCK_COLUMNS(C) C(LEAGUE_LOCK_ID, id, SKIP, _, _)
// clang-format on
LG_COLUMNS(LEAGUE_LOCK_COLUMNS, LEAGUE_LOCK_NCOLS);

// clang-format off
#define LEAGUE_GET_COLUMNS(C) \
	C(LEAGUE_GET_NAME, name, COPY, name, _) \
	C(LEAGUE_GET_CREATED_AT, created_at, COPY, created_at, _) \
	C(LEAGUE_GET_PLAYS, plays, INT64, plays, _)
// clang-format on
LG_COLUMNS(LEAGUE_GET_COLUMNS, LEAGUE_GET_NCOLS);

// clang-format off
#define LEAGUE_LIST_COLUMNS(C) \
	C(LEAGUE_LIST_ID, id, TEXT, id, _) \
	C(LEAGUE_LIST_NAME, name, TEXT, name, _) \
	C(LEAGUE_LIST_OWNER, owner, BOOL, owner, _) \
	C(LEAGUE_LIST_PLAYS, plays, INT64, plays, _)
// clang-format on
LG_COLUMNS(LEAGUE_LIST_COLUMNS, LEAGUE_LIST_NCOLS);

// clang-format off
#define LEAGUE_OWNERS_COLUMNS(C) \
	C(LEAGUE_OWNERS_ACCOUNT, id, TEXT, account, _) \
	C(LEAGUE_OWNERS_DISPLAY_NAME, display_name, TEXT, display_name, _)
// clang-format on
LG_COLUMNS(LEAGUE_OWNERS_COLUMNS, LEAGUE_OWNERS_NCOLS);

// clang-format off
#define LEAGUE_GAMES_COLUMNS(C) C(LEAGUE_GAMES_GAME, game, TEXT, game, _)
// clang-format on
LG_COLUMNS(LEAGUE_GAMES_COLUMNS, LEAGUE_GAMES_NCOLS);

// clang-format off
#define LEAGUE_SEASONS_COLUMNS(C) \
	C(LEAGUE_SEASONS_ID, id, TEXT, id, _) \
	C(LEAGUE_SEASONS_NAME, name, TEXT, name, _) \
	C(LEAGUE_SEASONS_STARTS, starts, TEXT, starts, _) \
	C(LEAGUE_SEASONS_ENDS, ends, TEXT, ends, _)
// clang-format on
LG_COLUMNS(LEAGUE_SEASONS_COLUMNS, LEAGUE_SEASONS_NCOLS);

// clang-format off
#define SEASON_INSERT_COLUMNS(C) C(SEASON_INSERT_ID, id, SKIP, _, _)
// clang-format on
LG_COLUMNS(SEASON_INSERT_COLUMNS, SEASON_INSERT_NCOLS);

// clang-format off
#define SEASON_GET_COLUMNS(C) C(SEASON_GET_ID, id, SKIP, _, _)
// clang-format on
LG_COLUMNS(SEASON_GET_COLUMNS, SEASON_GET_NCOLS);

// clang-format off
const db_statement db_leagues_statements[] = {
	{"league_insert",
	 "INSERT INTO leagues (id, name) "
	 "VALUES ($1, $2)",
	 2, NULL},
	{"league_owner_insert",
	 "WITH b AS ( "
	 "    UPDATE leagues "
	 "       SET version = version + 1 "
	 "     WHERE id = $1 "
	 "    RETURNING id "
	 ") "
	 "INSERT INTO league_owners (league_id, account_id) "
	 "SELECT b.id, $2 "
	 "  FROM b "
	 "    ON CONFLICT DO NOTHING",
	 2, NULL},
	{"league_access",
	 "SELECT EXISTS (SELECT 1 "
	 "                 FROM league_owners o "
	 "                WHERE o.league_id = l.id "
	 "                  AND o.account_id = $2) AS owner, "
	 "       coalesce((SELECT m.id "
	 "                   FROM league_members m "
	 "                  WHERE m.league_id = l.id "
	 "                    AND m.account_id = $2), '') AS member, "
	 "       l.version "
	 "  FROM leagues l "
	 " WHERE l.id = $1",
	 2, LG_COLUMN_NAMES(LEAGUE_ACCESS_COLUMNS)},
	{"league_bump",
	 "UPDATE leagues "
	 "   SET version = version + 1 "
	 " WHERE id = $1 "
	 "RETURNING version",
	 1, LG_COLUMN_NAMES(LEAGUE_BUMP_COLUMNS)},
	{"league_rekey_games",
	 "SELECT league_rekey_games($1)",
	 1, LG_COLUMN_NAMES(LEAGUE_REKEY_GAMES_COLUMNS)},
	{"league_lock",
	 "SELECT id "
	 "  FROM leagues "
	 " WHERE id = $1 "
	 "   FOR UPDATE",
	 1, LG_COLUMN_NAMES(LEAGUE_LOCK_COLUMNS)},
	{"league_get",
	 "SELECT name, "
	 "       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS created_at, "
	 "       (SELECT count(*) FROM plays WHERE league_id = $1) AS plays "
	 "  FROM leagues "
	 " WHERE id = $1",
	 1, LG_COLUMN_NAMES(LEAGUE_GET_COLUMNS)},
	{"league_list",
	 "SELECT l.id, "
	 "       l.name, "
	 "       EXISTS (SELECT 1 "
	 "                 FROM league_owners o "
	 "                WHERE o.league_id = l.id "
	 "                  AND o.account_id = $1) AS owner, "
	 "       (SELECT count(*) FROM plays p WHERE p.league_id = l.id) AS plays "
	 "  FROM leagues l "
	 " WHERE EXISTS (SELECT 1 "
	 "                 FROM league_owners o "
	 "                WHERE o.league_id = l.id "
	 "                  AND o.account_id = $1) "
	 "    OR EXISTS (SELECT 1 "
	 "                 FROM league_members m "
	 "                WHERE m.league_id = l.id "
	 "                  AND m.account_id = $1) "
	 " ORDER BY l.name, l.id",
	 1, LG_COLUMN_NAMES(LEAGUE_LIST_COLUMNS)},
	{"league_owners",
	 "SELECT a.id, a.display_name "
	 "  FROM league_owners o "
	 "  JOIN accounts a ON a.id = o.account_id "
	 " WHERE o.league_id = $1 "
	 " ORDER BY a.display_name, a.id",
	 1, LG_COLUMN_NAMES(LEAGUE_OWNERS_COLUMNS)},
	{"league_games",
	 "SELECT coalesce(k.name, x.game) AS game "
	 "  FROM (SELECT DISTINCT ON (y.key) y.key, y.game "
	 "          FROM (SELECT key, game, sum(plays) AS c "
	 "                  FROM league_game_names "
	 "                 WHERE league_id = $1 "
	 "                 GROUP BY key, game) y "
	 "         ORDER BY y.key, y.c DESC, y.game) x "
	 "  LEFT JOIN known_games k ON k.key = x.key "
	 " ORDER BY lower(coalesce(k.name, x.game)), 1",
	 1, LG_COLUMN_NAMES(LEAGUE_GAMES_COLUMNS)},
	{"league_seasons",
	 "SELECT id, name, starts::text, ends::text "
	 "  FROM seasons "
	 " WHERE league_id = $1 "
	 " ORDER BY starts, name",
	 1, LG_COLUMN_NAMES(LEAGUE_SEASONS_COLUMNS)},
	{"season_insert",
	 "WITH b AS ( "
	 "    UPDATE leagues "
	 "       SET version = version + 1 "
	 "     WHERE id = $2 "
	 "    RETURNING id "
	 ") "
	 "INSERT INTO seasons (id, league_id, name, starts, ends) "
	 "SELECT $1, b.id, $3, $4::date, $5::date "
	 "  FROM b "
	 "    ON CONFLICT (league_id, name) DO NOTHING "
	 "RETURNING id",
	 5, LG_COLUMN_NAMES(SEASON_INSERT_COLUMNS)},
	{"season_get",
	 "SELECT id "
	 "  FROM seasons "
	 " WHERE league_id = $1 "
	 "   AND id = $2",
	 2, LG_COLUMN_NAMES(SEASON_GET_COLUMNS)},
	DB_STATEMENTS_END,
};
// clang-format on

/* ---- leagues ---- */

db_status db_league_insert(db_conn *c, const char *id, const char *name)
{
	const char *p[2] = {id, name};
	return db_run_count(c, "league_insert", 2, p, NULL);
}

db_status db_league_owner_insert(db_conn *c, const char *league, const char *account)
{
	const char *p[2] = {league, account};
	return db_run_count(c, "league_owner_insert", 2, p, NULL);
}

db_status db_league_bump(db_conn *c, const char *league, long long *version)
{
	const char *p[1] = {league};
	PGresult *r;
	db_status st = db_run(c, "league_bump", 1, p, &r);
	if (version)
		*version =
		    st == DB_OK && db_nrows(r) == 1 ? db_col_int64(r, 0, LEAGUE_BUMP_VERSION) : -1;
	PQclear(r);
	return st;
}

db_status db_league_rekey_games(db_conn *c, const char *league)
{
	const char *p[1] = {league};
	return db_run_count(c, "league_rekey_games", 1, p, NULL);
}

db_status db_league_lock(db_conn *c, const char *league, bool *found)
{
	const char *p[1] = {league};
	int n;
	db_status st = db_run_count(c, "league_lock", 1, p, &n);
	*found = n == 1;
	return st;
}

#define LG_ROW db_league_access
LG_FIELD_TABLE(access_fields, LEAGUE_ACCESS_COLUMNS);
#undef LG_ROW

db_status db_league_access_get(db_conn *c, const char *league, const char *account,
                               db_league_access *out)
{
	const char *p[2] = {league, account};
	return lg_get(c, "league_access", 2, p, out, sizeof *out, access_fields,
	              LG_NFIELDS(access_fields), &out->found);
}

#define LG_ROW db_league_row
LG_FIELD_TABLE(league_fields, LEAGUE_GET_COLUMNS);
#undef LG_ROW

db_status db_league_get(db_conn *c, const char *league, db_league_row *out)
{
	const char *p[1] = {league};
	return lg_get(c, "league_get", 1, p, out, sizeof *out, league_fields,
	              LG_NFIELDS(league_fields), &out->found);
}

#define LG_ROW db_league_item
LG_FIELD_TABLE(league_item_fields, LEAGUE_LIST_COLUMNS);
#undef LG_ROW

db_status db_league_list(db_conn *c, const char *account, db_league_items *out)
{
	const char *p[1] = {account};
	RETURN_FIELDS(c, "league_list", 1, p, out, league_item_fields);
}

#define LG_ROW db_owner_row
LG_FIELD_TABLE(owner_fields, LEAGUE_OWNERS_COLUMNS);
#undef LG_ROW

db_status db_league_owners(db_conn *c, const char *league, db_owner_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_owners", 1, p, out, owner_fields);
}

#define LG_ROW db_game_name_row
LG_FIELD_TABLE(game_name_fields, LEAGUE_GAMES_COLUMNS);
#undef LG_ROW

db_status db_league_games(db_conn *c, const char *league, db_game_name_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_games", 1, p, out, game_name_fields);
}

#define LG_ROW db_season_row
LG_FIELD_TABLE(season_fields, LEAGUE_SEASONS_COLUMNS);
#undef LG_ROW

db_status db_league_seasons(db_conn *c, const char *league, db_season_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_seasons", 1, p, out, season_fields);
}

/* ---- seasons ---- */

db_status db_season_insert(db_conn *c, const char *id, const char *league, const char *name,
                           const char *starts, const char *ends, bool *inserted)
{
	const char *p[5] = {id, league, name, starts, ends};
	return lg_some_row(c, "season_insert", 5, p, inserted);
}

db_status db_season_exists(db_conn *c, const char *league, const char *id, bool *found)
{
	const char *p[2] = {league, id};
	int n;
	db_status st = db_run_count(c, "season_get", 2, p, &n);
	*found = n == 1;
	return st;
}
