/* Typed rows of a league's members (see leagues.h; SQL in statements.c). */
#include "db/league_rows.h"
#include "db/leagues.h"

#include "base/names.h"

#include <stdlib.h>

/* ---- members ---- */

static void read_member(const PGresult *r, int i, void *row)
{
	/* league_members and member_get: 0 id, 1 name, 2 account_id (NULL: guest), 3 plays */
	db_member_row *x = row;
	x->id = db_col_text(r, i, 0);
	x->name = db_col_text(r, i, 1);
	x->account = db_col_text_or_null(r, i, 2);
	x->plays = db_col_int64(r, i, 3);
}

db_status db_league_members(db_conn *c, const char *league, db_member_rows *out)
{
	const char *p[1] = {league};
	RETURN_LOADED(c, "league_members", 1, p, out, read_member);
}

db_status db_member_get(db_conn *c, const char *league, const char *member, db_member_rows *out)
{
	const char *p[2] = {league, member};
	RETURN_LOADED(c, "member_get", 2, p, out, read_member);
}

/* Every statement that stores or matches a member's name takes its display form and its key
 * from name_forms (base/names.h), whatever form the caller has: one name, one member on every
 * path a name comes in. */

db_status db_member_insert(db_conn *c, const char *id, const char *league, const char *name,
                           const char *account, bool *inserted)
{
	char *shown, *key;
	name_forms(name, &shown, &key);
	const char *p[5] = {id, league, shown, account, key}; /* member_insert … RETURNING id */
	db_status st = lg_some_row(c, "member_insert", 5, p, inserted);
	free(shown);
	free(key);
	return st;
}

db_status db_member_insert_guest(db_conn *c, const char *id, const char *league, const char *name,
                                 bool *inserted)
{
	char *shown, *key;
	name_forms(name, &shown, &key);
	const char *p[4] = {id, league, shown, key}; /* member_insert_guest … RETURNING id */
	db_status st = lg_some_row(c, "member_insert_guest", 4, p, inserted);
	free(shown);
	free(key);
	return st;
}

db_status db_member_by_name(db_conn *c, const char *league, const char *name, bool *found,
                            char id[DB_LG_ID_MAX + 1])
{
	char *shown, *key;
	name_forms(name, &shown, &key);
	const char *p[3] = {league, key, shown}; /* member_by_name: 0 id */
	db_status st = lg_one_text(c, "member_by_name", 3, p, 0, found, id, DB_LG_ID_MAX + 1);
	free(shown);
	free(key);
	return st;
}

db_status db_member_delete(db_conn *c, const char *league, const char *member)
{
	const char *p[2] = {league, member}; /* member_delete */
	return db_run_count(c, "member_delete", 2, p, NULL);
}

db_status db_member_rename(db_conn *c, const char *league, const char *member, const char *name,
                           bool *renamed)
{
	char *shown, *key;
	name_forms(name, &shown, &key);
	const char *p[4] = {league, member, shown, key}; /* member_rename … RETURNING id */
	db_status st = lg_some_row(c, "member_rename", 4, p, renamed);
	free(shown);
	free(key);
	return st;
}

db_status db_member_unclash(db_conn *c, const char *league)
{
	const char *p[1] = {league}; /* member_unclash */
	return db_run_count(c, "member_unclash", 1, p, NULL);
}

db_status db_member_merge(db_conn *c, const char *from, const char *to)
{
	const char *p[2] = {from, to}; /* member_merge */
	return db_run_count(c, "member_merge", 2, p, NULL);
}

db_status db_member_link(db_conn *c, const char *member, const char *account)
{
	const char *p[2] = {member, account}; /* member_link */
	return db_run_count(c, "member_link", 2, p, NULL);
}

db_status db_member_conflicts(db_conn *c, const char *a, const char *b, bool *clash)
{
	const char *p[2] = {a, b}; /* member_conflicts: 0 play_id (only counted) */
	return lg_some_row(c, "member_conflicts", 2, p, clash);
}

db_status db_member_league_get(db_conn *c, const char *member, db_member_league *out)
{
	/* member_league: 0 league_id, 1 name */
	const char *p[1] = {member};
	PGresult *r;
	out->found = false;
	db_status st = db_run(c, "member_league", 1, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		out->found = true;
		db_col_copy(r, 0, 0, out->league, sizeof out->league);
		db_col_copy(r, 0, 1, out->name, sizeof out->name);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_member_mark_anonymous(db_conn *c, const char *member)
{
	const char *p[1] = {member}; /* member_mark_anonymous */
	return db_run_count(c, "member_mark_anonymous", 1, p, NULL);
}
