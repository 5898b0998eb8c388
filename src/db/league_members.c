/* Typed rows of a league's members (see leagues.h), with their statements. */
#include "db/league_rows.h"
#include "db/statements.h"
#include "db/leagues.h"

#include "base/names.h"

#include <stdlib.h>

/* ---- statements (db/statements.h) ---- */

// clang-format off
/* league_members and member_get (one reader, read_member) */
#define LEAGUE_MEMBERS_COLUMNS(C) \
	C(LEAGUE_MEMBERS_ID, id, TEXT, id, _) \
	C(LEAGUE_MEMBERS_NAME, name, TEXT, name, _) \
	C(LEAGUE_MEMBERS_ACCOUNT, account_id, TEXT_OR_NULL, account, _) \
	C(LEAGUE_MEMBERS_PLAYS, plays, INT64, plays, _)
// clang-format on
LG_COLUMNS(LEAGUE_MEMBERS_COLUMNS, LEAGUE_MEMBERS_NCOLS);

// clang-format off
#define MEMBER_INSERT_COLUMNS(C) C(MEMBER_INSERT_ID, id, SKIP, _, _)
// clang-format on
LG_COLUMNS(MEMBER_INSERT_COLUMNS, MEMBER_INSERT_NCOLS);

// clang-format off
#define MEMBER_INSERT_GUEST_COLUMNS(C) C(MEMBER_INSERT_GUEST_ID, id, SKIP, _, _)
// clang-format on
LG_COLUMNS(MEMBER_INSERT_GUEST_COLUMNS, MEMBER_INSERT_GUEST_NCOLS);

// clang-format off
#define MEMBER_BY_NAME_COLUMNS(C) C(MEMBER_BY_NAME_ID, id, SKIP, _, _)
// clang-format on
LG_COLUMNS(MEMBER_BY_NAME_COLUMNS, MEMBER_BY_NAME_NCOLS);

// clang-format off
#define MEMBER_RENAME_COLUMNS(C) C(MEMBER_RENAME_ID, id, SKIP, _, _)
// clang-format on
LG_COLUMNS(MEMBER_RENAME_COLUMNS, MEMBER_RENAME_NCOLS);

// clang-format off
#define MEMBER_CONFLICTS_COLUMNS(C) C(MEMBER_CONFLICTS_PLAY, play_id, SKIP, _, _)
// clang-format on
LG_COLUMNS(MEMBER_CONFLICTS_COLUMNS, MEMBER_CONFLICTS_NCOLS);

// clang-format off
#define MEMBER_LEAGUE_COLUMNS(C) \
	C(MEMBER_LEAGUE_LEAGUE, league_id, COPY, league, _) C(MEMBER_LEAGUE_NAME, name, COPY, name, _)
// clang-format on
LG_COLUMNS(MEMBER_LEAGUE_COLUMNS, MEMBER_LEAGUE_NCOLS);

// clang-format off
const db_statement db_league_members_statements[] = {
	{"league_members",
	 "SELECT m.id, "
	 "       m.name, "
	 "       m.account_id, "
	 "       (SELECT count(*) FROM play_results r WHERE r.member_id = m.id) AS plays "
	 "  FROM league_members m "
	 " WHERE m.league_id = $1 "
	 " ORDER BY m.name",
	 1, LG_COLUMN_NAMES(LEAGUE_MEMBERS_COLUMNS)},
	{"member_get",
	 "SELECT m.id, "
	 "       m.name, "
	 "       m.account_id, "
	 "       (SELECT count(*) FROM play_results r WHERE r.member_id = m.id) AS plays "
	 "  FROM league_members m "
	 " WHERE m.league_id = $1 "
	 "   AND m.id = $2",
	 2, LG_COLUMN_NAMES(LEAGUE_MEMBERS_COLUMNS)},
	{"member_insert",
	 "WITH b AS ( "
	 "    UPDATE leagues "
	 "       SET version = version + 1 "
	 "     WHERE id = $2 "
	 "    RETURNING id "
	 ") "
	 "INSERT INTO league_members (id, league_id, name, account_id, name_key) "
	 "SELECT $1, b.id, $3, $4, $5 "
	 "  FROM b "
	 " WHERE NOT EXISTS (SELECT 1 "
	 "                     FROM league_members o "
	 "                    WHERE o.league_id = b.id "
	 "                      AND o.name_key = $5) "
	 "    ON CONFLICT DO NOTHING "
	 "RETURNING id",
	 5, LG_COLUMN_NAMES(MEMBER_INSERT_COLUMNS)},
	{"member_insert_guest",
	 "INSERT INTO league_members (id, league_id, name, name_key) "
	 "SELECT $1, $2, $3, $4 "
	 " WHERE NOT EXISTS (SELECT 1 "
	 "                     FROM league_members o "
	 "                    WHERE o.league_id = $2 "
	 "                      AND o.name_key = $4) "
	 "    ON CONFLICT DO NOTHING "
	 "RETURNING id",
	 4, LG_COLUMN_NAMES(MEMBER_INSERT_GUEST_COLUMNS)},
	{"member_by_name",
	 "SELECT id "
	 "  FROM league_members "
	 " WHERE league_id = $1 "
	 "   AND name_key = $2 "
	 " ORDER BY name = $3 DESC, name_clash, created_at, id "
	 " LIMIT 1",
	 3, LG_COLUMN_NAMES(MEMBER_BY_NAME_COLUMNS)},
	{"member_rename",
	 "UPDATE league_members m "
	 "   SET name = $3, name_key = $4, name_clash = false "
	 " WHERE m.league_id = $1 "
	 "   AND m.id = $2 "
	 "   AND NOT EXISTS (SELECT 1 "
	 "                     FROM league_members o "
	 "                    WHERE o.league_id = $1 "
	 "                      AND o.id <> m.id "
	 "                      AND o.name_key = $4) "
	 "RETURNING m.id",
	 4, LG_COLUMN_NAMES(MEMBER_RENAME_COLUMNS)},
	{"member_unclash",
	 "UPDATE league_members m "
	 "   SET name_clash = false "
	 "  FROM (SELECT DISTINCT ON (x.name_key) x.id "
	 "          FROM league_members x "
	 "         WHERE x.league_id = $1 "
	 "           AND x.name_clash "
	 "           AND x.name_key IS NOT NULL "
	 "           AND NOT EXISTS (SELECT 1 "
	 "                             FROM league_members o "
	 "                            WHERE o.league_id = $1 "
	 "                              AND NOT o.name_clash "
	 "                              AND o.name_key = x.name_key) "
	 "         ORDER BY x.name_key, x.created_at, x.id) k "
	 " WHERE m.id = k.id",
	 1, NULL},
	{"member_delete",
	 "WITH b AS ( "
	 "    UPDATE leagues "
	 "       SET version = version + 1 "
	 "     WHERE id = $1 "
	 "    RETURNING id "
	 ") "
	 "DELETE FROM league_members m "
	 " USING b "
	 " WHERE m.league_id = b.id "
	 "   AND m.id = $2",
	 2, NULL},
	{"member_conflicts",
	 "SELECT a.play_id "
	 "  FROM play_results a "
	 "  JOIN play_results b ON a.play_id = b.play_id "
	 " WHERE a.member_id = $1 "
	 "   AND b.member_id = $2",
	 2, LG_COLUMN_NAMES(MEMBER_CONFLICTS_COLUMNS)},
	{"member_merge",
	 "UPDATE play_results "
	 "   SET member_id = $2 "
	 " WHERE member_id = $1",
	 2, NULL},
	{"member_link",
	 "WITH b AS ( "
	 "    UPDATE leagues l "
	 "       SET version = l.version + 1 "
	 "      FROM league_members m "
	 "     WHERE m.id = $1 "
	 "       AND l.id = m.league_id "
	 "    RETURNING m.id "
	 ") "
	 "UPDATE league_members "
	 "   SET account_id = $2 "
	 "  FROM b "
	 " WHERE league_members.id = b.id "
	 "   AND league_members.account_id IS NULL",
	 2, NULL},
	{"member_league",
	 "SELECT league_id, name "
	 "  FROM league_members "
	 " WHERE id = $1",
	 1, LG_COLUMN_NAMES(MEMBER_LEAGUE_COLUMNS)},
	{"member_mark_anonymous",
	 "UPDATE league_members "
	 "   SET anonymous = true "
	 " WHERE id = $1",
	 1, NULL},
	DB_STATEMENTS_END,
};
// clang-format on

/* ---- members ---- */

#define LG_ROW db_member_row
LG_FIELD_TABLE(member_fields, LEAGUE_MEMBERS_COLUMNS);
#undef LG_ROW

db_status db_league_members(db_conn *c, const char *league, db_member_rows *out)
{
	const char *p[1] = {league};
	RETURN_FIELDS(c, "league_members", 1, p, out, member_fields);
}

db_status db_member_get(db_conn *c, const char *league, const char *member, db_member_rows *out)
{
	const char *p[2] = {league, member};
	RETURN_FIELDS(c, "member_get", 2, p, out, member_fields);
}

/* Every statement that stores or matches a member's name takes its display form and its key
 * from name_forms (base/names.h), whatever form the caller has: one name, one member on every
 * path a name comes in. */

db_status db_member_insert(db_conn *c, const char *id, const char *league, const char *name,
                           const char *account, bool *inserted)
{
	char *shown, *key;
	name_forms(name, &shown, &key);
	const char *p[5] = {id, league, shown, account, key};
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
	const char *p[4] = {id, league, shown, key};
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
	const char *p[3] = {league, key, shown};
	db_status st =
	    lg_one_text(c, "member_by_name", 3, p, MEMBER_BY_NAME_ID, found, id, DB_LG_ID_MAX + 1);
	free(shown);
	free(key);
	return st;
}

db_status db_member_delete(db_conn *c, const char *league, const char *member)
{
	const char *p[2] = {league, member};
	return db_run_count(c, "member_delete", 2, p, NULL);
}

db_status db_member_rename(db_conn *c, const char *league, const char *member, const char *name,
                           bool *renamed)
{
	char *shown, *key;
	name_forms(name, &shown, &key);
	const char *p[4] = {league, member, shown, key};
	db_status st = lg_some_row(c, "member_rename", 4, p, renamed);
	free(shown);
	free(key);
	return st;
}

db_status db_member_unclash(db_conn *c, const char *league)
{
	const char *p[1] = {league};
	return db_run_count(c, "member_unclash", 1, p, NULL);
}

db_status db_member_merge(db_conn *c, const char *from, const char *to)
{
	const char *p[2] = {from, to};
	return db_run_count(c, "member_merge", 2, p, NULL);
}

db_status db_member_link(db_conn *c, const char *member, const char *account)
{
	const char *p[2] = {member, account};
	return db_run_count(c, "member_link", 2, p, NULL);
}

db_status db_member_conflicts(db_conn *c, const char *a, const char *b, bool *clash)
{
	const char *p[2] = {a, b};
	return lg_some_row(c, "member_conflicts", 2, p, clash);
}

#define LG_ROW db_member_league
LG_FIELD_TABLE(member_league_fields, MEMBER_LEAGUE_COLUMNS);
#undef LG_ROW

db_status db_member_league_get(db_conn *c, const char *member, db_member_league *out)
{
	const char *p[1] = {member};
	return lg_get(c, "member_league", 1, p, out, sizeof *out, member_league_fields,
	              LG_NFIELDS(member_league_fields), &out->found);
}

db_status db_member_mark_anonymous(db_conn *c, const char *member)
{
	const char *p[1] = {member};
	return db_run_count(c, "member_mark_anonymous", 1, p, NULL);
}
