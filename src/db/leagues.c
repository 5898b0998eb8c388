/* Typed rows of leagues and seasons (see leagues.h; SQL in statements.c). */
#include "db/league_rows.h"
#include "db/leagues.h"

/* ---- leagues ---- */

db_status db_league_insert(db_conn *c, const char *id, const char *name)
{
	const char *p[2] = {id, name}; /* league_insert */
	return db_run_count(c, "league_insert", 2, p, NULL);
}

db_status db_league_owner_insert(db_conn *c, const char *league, const char *account)
{
	const char *p[2] = {league, account}; /* league_owner_insert */
	return db_run_count(c, "league_owner_insert", 2, p, NULL);
}

db_status db_league_bump(db_conn *c, const char *league, long long *version)
{
	const char *p[1] = {league}; /* league_bump */
	PGresult *r;
	db_status st = db_run(c, "league_bump", 1, p, &r);
	if (version)
		*version = st == DB_OK && db_nrows(r) == 1 ? db_col_int64(r, 0, 0) : -1;
	PQclear(r);
	return st;
}

db_status db_league_rekey_games(db_conn *c, const char *league)
{
	const char *p[1] = {league}; /* league_rekey_games */
	return db_run_count(c, "league_rekey_games", 1, p, NULL);
}

db_status db_league_lock(db_conn *c, const char *league, bool *found)
{
	const char *p[1] = {league}; /* league_lock: 0 id */
	int n;
	db_status st = db_run_count(c, "league_lock", 1, p, &n);
	*found = n == 1;
	return st;
}

db_status db_league_access_get(db_conn *c, const char *league, const char *account,
                               db_league_access *out)
{
	/* league_access: 0 is-owner, 1 member id or '', 2 version */
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
		out->owner = db_col_bool(r, 0, 0);
		db_col_copy(r, 0, 1, out->member, sizeof out->member);
		out->version = db_col_int64(r, 0, 2);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_league_get(db_conn *c, const char *league, db_league_row *out)
{
	/* league_get: 0 name, 1 created_at, 2 plays */
	const char *p[1] = {league};
	PGresult *r;
	out->found = false;
	db_status st = db_run(c, "league_get", 1, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		out->found = true;
		db_col_copy(r, 0, 0, out->name, sizeof out->name);
		db_col_copy(r, 0, 1, out->created_at, sizeof out->created_at);
		out->plays = db_col_int64(r, 0, 2);
	}
	PQclear(r);
	return DB_OK;
}

static void read_league_item(const PGresult *r, int i, void *row)
{
	/* league_list: 0 id, 1 name, 2 owner?, 3 plays */
	db_league_item *x = row;
	x->id = db_col_text(r, i, 0);
	x->name = db_col_text(r, i, 1);
	x->owner = db_col_bool(r, i, 2);
	x->plays = db_col_int64(r, i, 3);
}

db_status db_league_list(db_conn *c, const char *account, db_league_items *out)
{
	const char *p[1] = {account};
	RETURN_LOADED(c, "league_list", 1, p, out, read_league_item);
}

static void read_owner(const PGresult *r, int i, void *row)
{
	/* league_owners: 0 account id, 1 display_name */
	db_owner_row *x = row;
	x->account = db_col_text(r, i, 0);
	x->display_name = db_col_text(r, i, 1);
}

db_status db_league_owners(db_conn *c, const char *league, db_owner_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_owners", 1, p, out, read_owner);
}

static void read_game_name(const PGresult *r, int i, void *row)
{
	db_game_name_row *x = row; /* league_games: 0 game */
	x->game = db_col_text(r, i, 0);
}

db_status db_league_games(db_conn *c, const char *league, db_game_name_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_games", 1, p, out, read_game_name);
}

static void read_season(const PGresult *r, int i, void *row)
{
	/* league_seasons: 0 id, 1 name, 2 starts, 3 ends */
	db_season_row *x = row;
	x->id = db_col_text(r, i, 0);
	x->name = db_col_text(r, i, 1);
	x->starts = db_col_text(r, i, 2);
	x->ends = db_col_text(r, i, 3);
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
	const char *p[5] = {id, league, name, starts, ends}; /* season_insert … RETURNING id */
	return lg_some_row(c, "season_insert", 5, p, inserted);
}

db_status db_season_exists(db_conn *c, const char *league, const char *id, bool *found)
{
	const char *p[2] = {league, id}; /* season_get: 0 id */
	int n;
	db_status st = db_run_count(c, "season_get", 2, p, &n);
	*found = n == 1;
	return st;
}
