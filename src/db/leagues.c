/* Typed rows of leagues and seasons (see leagues.h), with their statements. */
#include "db/league_rows.h"
#include "db/statements.h"
#include "db/leagues.h"

/* ---- statements (db/statements.h) ---- */

// clang-format off
#define LEAGUE_ACCESS_COLUMNS(C) \
	C(LEAGUE_ACCESS_OWNER, owner) \
	C(LEAGUE_ACCESS_MEMBER, member) \
	C(LEAGUE_ACCESS_VERSION, version)
// clang-format on
DB_COLUMNS(LEAGUE_ACCESS_COLUMNS, LEAGUE_ACCESS_NCOLS);

// clang-format off
#define LEAGUE_BUMP_COLUMNS(C) C(LEAGUE_BUMP_VERSION, version)
// clang-format on
DB_COLUMNS(LEAGUE_BUMP_COLUMNS, LEAGUE_BUMP_NCOLS);

// clang-format off
#define LEAGUE_REKEY_GAMES_COLUMNS(C) C(LEAGUE_REKEY_GAMES_RESULT, league_rekey_games)
// clang-format on
DB_COLUMNS(LEAGUE_REKEY_GAMES_COLUMNS, LEAGUE_REKEY_GAMES_NCOLS);

// clang-format off
#define LEAGUE_LOCK_COLUMNS(C) C(LEAGUE_LOCK_ID, id)
// clang-format on
DB_COLUMNS(LEAGUE_LOCK_COLUMNS, LEAGUE_LOCK_NCOLS);

// clang-format off
#define LEAGUE_GET_COLUMNS(C) \
	C(LEAGUE_GET_NAME, name) \
	C(LEAGUE_GET_CREATED_AT, created_at) \
	C(LEAGUE_GET_PLAYS, plays)
// clang-format on
DB_COLUMNS(LEAGUE_GET_COLUMNS, LEAGUE_GET_NCOLS);

// clang-format off
#define LEAGUE_LIST_COLUMNS(C) \
	C(LEAGUE_LIST_ID, id) \
	C(LEAGUE_LIST_NAME, name) \
	C(LEAGUE_LIST_OWNER, owner) \
	C(LEAGUE_LIST_PLAYS, plays)
// clang-format on
DB_COLUMNS(LEAGUE_LIST_COLUMNS, LEAGUE_LIST_NCOLS);

// clang-format off
#define LEAGUE_OWNERS_COLUMNS(C) \
	C(LEAGUE_OWNERS_ACCOUNT, id) \
	C(LEAGUE_OWNERS_DISPLAY_NAME, display_name)
// clang-format on
DB_COLUMNS(LEAGUE_OWNERS_COLUMNS, LEAGUE_OWNERS_NCOLS);

// clang-format off
#define LEAGUE_GAMES_COLUMNS(C) C(LEAGUE_GAMES_GAME, game)
// clang-format on
DB_COLUMNS(LEAGUE_GAMES_COLUMNS, LEAGUE_GAMES_NCOLS);

// clang-format off
#define LEAGUE_SEASONS_COLUMNS(C) \
	C(LEAGUE_SEASONS_ID, id) \
	C(LEAGUE_SEASONS_NAME, name) \
	C(LEAGUE_SEASONS_STARTS, starts) \
	C(LEAGUE_SEASONS_ENDS, ends)
// clang-format on
DB_COLUMNS(LEAGUE_SEASONS_COLUMNS, LEAGUE_SEASONS_NCOLS);

// clang-format off
#define SEASON_INSERT_COLUMNS(C) C(SEASON_INSERT_ID, id)
// clang-format on
DB_COLUMNS(SEASON_INSERT_COLUMNS, SEASON_INSERT_NCOLS);

// clang-format off
#define SEASON_GET_COLUMNS(C) C(SEASON_GET_ID, id)
// clang-format on
DB_COLUMNS(SEASON_GET_COLUMNS, SEASON_GET_NCOLS);

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
	 2, DB_COLUMN_NAMES(LEAGUE_ACCESS_COLUMNS)},
	{"league_bump",
	 "UPDATE leagues "
	 "   SET version = version + 1 "
	 " WHERE id = $1 "
	 "RETURNING version",
	 1, DB_COLUMN_NAMES(LEAGUE_BUMP_COLUMNS)},
	{"league_rekey_games",
	 "SELECT league_rekey_games($1)",
	 1, DB_COLUMN_NAMES(LEAGUE_REKEY_GAMES_COLUMNS)},
	{"league_lock",
	 "SELECT id "
	 "  FROM leagues "
	 " WHERE id = $1 "
	 "   FOR UPDATE",
	 1, DB_COLUMN_NAMES(LEAGUE_LOCK_COLUMNS)},
	{"league_get",
	 "SELECT name, "
	 "       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS created_at, "
	 "       (SELECT count(*) FROM plays WHERE league_id = $1) AS plays "
	 "  FROM leagues "
	 " WHERE id = $1",
	 1, DB_COLUMN_NAMES(LEAGUE_GET_COLUMNS)},
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
	 1, DB_COLUMN_NAMES(LEAGUE_LIST_COLUMNS)},
	{"league_owners",
	 "SELECT a.id, a.display_name "
	 "  FROM league_owners o "
	 "  JOIN accounts a ON a.id = o.account_id "
	 " WHERE o.league_id = $1 "
	 " ORDER BY a.display_name, a.id",
	 1, DB_COLUMN_NAMES(LEAGUE_OWNERS_COLUMNS)},
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
	 1, DB_COLUMN_NAMES(LEAGUE_GAMES_COLUMNS)},
	{"league_seasons",
	 "SELECT id, name, starts::text, ends::text "
	 "  FROM seasons "
	 " WHERE league_id = $1 "
	 " ORDER BY starts, name",
	 1, DB_COLUMN_NAMES(LEAGUE_SEASONS_COLUMNS)},
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
	 5, DB_COLUMN_NAMES(SEASON_INSERT_COLUMNS)},
	{"season_get",
	 "SELECT id "
	 "  FROM seasons "
	 " WHERE league_id = $1 "
	 "   AND id = $2",
	 2, DB_COLUMN_NAMES(SEASON_GET_COLUMNS)},
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

db_status db_league_access_get(db_conn *c, const char *league, const char *account,
                               db_league_access *out)
{
	const char *p[2] = {league, account};
	PGresult *r;
	out->found = out->owner = false;
	out->member[0] = '\0';
	out->version = 0;
	db_status st = db_run(c, "league_access", 2, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		out->found = true;
		out->owner = db_col_bool(r, 0, LEAGUE_ACCESS_OWNER);
		db_col_copy(r, 0, LEAGUE_ACCESS_MEMBER, out->member, sizeof out->member);
		out->version = db_col_int64(r, 0, LEAGUE_ACCESS_VERSION);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_league_get(db_conn *c, const char *league, db_league_row *out)
{
	const char *p[1] = {league};
	PGresult *r;
	out->found = false;
	db_status st = db_run(c, "league_get", 1, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		out->found = true;
		db_col_copy(r, 0, LEAGUE_GET_NAME, out->name, sizeof out->name);
		db_col_copy(r, 0, LEAGUE_GET_CREATED_AT, out->created_at, sizeof out->created_at);
		out->plays = db_col_int64(r, 0, LEAGUE_GET_PLAYS);
	}
	PQclear(r);
	return DB_OK;
}

static void read_league_item(const PGresult *r, int i, void *row)
{
	db_league_item *x = row;
	x->id = db_col_text(r, i, LEAGUE_LIST_ID);
	x->name = db_col_text(r, i, LEAGUE_LIST_NAME);
	x->owner = db_col_bool(r, i, LEAGUE_LIST_OWNER);
	x->plays = db_col_int64(r, i, LEAGUE_LIST_PLAYS);
}

db_status db_league_list(db_conn *c, const char *account, db_league_items *out)
{
	const char *p[1] = {account};
	RETURN_LOADED(c, "league_list", 1, p, out, read_league_item);
}

static void read_owner(const PGresult *r, int i, void *row)
{
	db_owner_row *x = row;
	x->account = db_col_text(r, i, LEAGUE_OWNERS_ACCOUNT);
	x->display_name = db_col_text(r, i, LEAGUE_OWNERS_DISPLAY_NAME);
}

db_status db_league_owners(db_conn *c, const char *league, db_owner_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_owners", 1, p, out, read_owner);
}

static void read_game_name(const PGresult *r, int i, void *row)
{
	db_game_name_row *x = row;
	x->game = db_col_text(r, i, LEAGUE_GAMES_GAME);
}

db_status db_league_games(db_conn *c, const char *league, db_game_name_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_games", 1, p, out, read_game_name);
}

static void read_season(const PGresult *r, int i, void *row)
{
	db_season_row *x = row;
	x->id = db_col_text(r, i, LEAGUE_SEASONS_ID);
	x->name = db_col_text(r, i, LEAGUE_SEASONS_NAME);
	x->starts = db_col_text(r, i, LEAGUE_SEASONS_STARTS);
	x->ends = db_col_text(r, i, LEAGUE_SEASONS_ENDS);
}

db_status db_league_seasons(db_conn *c, const char *league, db_season_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_seasons", 1, p, out, read_season);
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
