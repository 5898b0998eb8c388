/* The statements of consent (invitations, claims of guests, merges kept to be undone) and their
 * typed rows (consent.h). */
#include "db/consent.h"

#include "db/rows.h"
#include "db/statements.h"

#include <stdio.h>
#include <string.h>

/* ---- the statements ---- */

/* invitation_insert, claim_insert: the new row's id and inserted true, else the id of the one
 * that stands and inserted false */
#define INSERTED_COLUMNS(C) C(INSERTED_ID, id) C(INSERTED_INSERTED, inserted)
DB_COLUMNS(INSERTED_COLUMNS, INSERTED_NCOLS);

/* invitation_delete, claim_delete, merge_insert, merge_restore_member: the row's id when there
 * was one */
#define RETURNED_COLUMNS(C) C(RETURNED_ID, id)
DB_COLUMNS(RETURNED_COLUMNS, RETURNED_NCOLS);

/* invitations_of_account: the invitations an account has received, oldest first */
#define INVITATIONS_OF_ACCOUNT_COLUMNS(C)                                                          \
	C(INVITATIONS_OF_ACCOUNT_ID, id)                                                           \
	C(INVITATIONS_OF_ACCOUNT_LEAGUE, league)                                                   \
	C(INVITATIONS_OF_ACCOUNT_LEAGUE_NAME, league_name)                                         \
	C(INVITATIONS_OF_ACCOUNT_ROLE, role)                                                       \
	C(INVITATIONS_OF_ACCOUNT_NAME, name)                                                       \
	C(INVITATIONS_OF_ACCOUNT_MEMBER, member)                                                   \
	C(INVITATIONS_OF_ACCOUNT_BY, by)                                                           \
	C(INVITATIONS_OF_ACCOUNT_AT, at)
DB_COLUMNS(INVITATIONS_OF_ACCOUNT_COLUMNS, INVITATIONS_OF_ACCOUNT_NCOLS);

/* invitations_of_league: the invitations a league has sent, oldest first */
#define INVITATIONS_OF_LEAGUE_COLUMNS(C)                                                           \
	C(INVITATIONS_OF_LEAGUE_ID, id)                                                            \
	C(INVITATIONS_OF_LEAGUE_ACCOUNT, account)                                                  \
	C(INVITATIONS_OF_LEAGUE_EMAIL, email)                                                      \
	C(INVITATIONS_OF_LEAGUE_DISPLAY_NAME, display_name)                                        \
	C(INVITATIONS_OF_LEAGUE_ROLE, role)                                                        \
	C(INVITATIONS_OF_LEAGUE_NAME, name)                                                        \
	C(INVITATIONS_OF_LEAGUE_MEMBER, member)                                                    \
	C(INVITATIONS_OF_LEAGUE_AT, at)
DB_COLUMNS(INVITATIONS_OF_LEAGUE_COLUMNS, INVITATIONS_OF_LEAGUE_NCOLS);

/* invitation_get */
#define INVITATION_GET_COLUMNS(C)                                                                  \
	C(INVITATION_GET_LEAGUE, league)                                                           \
	C(INVITATION_GET_ACCOUNT, account)                                                         \
	C(INVITATION_GET_ROLE, role)                                                               \
	C(INVITATION_GET_NAME, name)                                                               \
	C(INVITATION_GET_MEMBER, member)
DB_COLUMNS(INVITATION_GET_COLUMNS, INVITATION_GET_NCOLS);

/* claims_of_league: the claims of guests in a league (of account $2 only unless NULL), oldest
 * first, with the member the claiming account already has there ('' for none) */
#define CLAIMS_OF_LEAGUE_COLUMNS(C)                                                                \
	C(CLAIMS_OF_LEAGUE_ID, id)                                                                 \
	C(CLAIMS_OF_LEAGUE_GUEST, guest)                                                           \
	C(CLAIMS_OF_LEAGUE_GUEST_NAME, guest_name)                                                 \
	C(CLAIMS_OF_LEAGUE_PLAYS, plays)                                                           \
	C(CLAIMS_OF_LEAGUE_ACCOUNT, account)                                                       \
	C(CLAIMS_OF_LEAGUE_DISPLAY_NAME, display_name)                                             \
	C(CLAIMS_OF_LEAGUE_MEMBER, member)                                                         \
	C(CLAIMS_OF_LEAGUE_MEMBER_NAME, member_name)                                               \
	C(CLAIMS_OF_LEAGUE_AT, at)
DB_COLUMNS(CLAIMS_OF_LEAGUE_COLUMNS, CLAIMS_OF_LEAGUE_NCOLS);

/* claim_get */
#define CLAIM_GET_COLUMNS(C) C(CLAIM_GET_GUEST, guest) C(CLAIM_GET_ACCOUNT, account)
DB_COLUMNS(CLAIM_GET_COLUMNS, CLAIM_GET_NCOLS);

/* merges_of_league: the merges of a league kept to be undone, newest first */
#define MERGES_OF_LEAGUE_COLUMNS(C)                                                                \
	C(MERGES_OF_LEAGUE_ID, id)                                                                 \
	C(MERGES_OF_LEAGUE_FROM, from)                                                             \
	C(MERGES_OF_LEAGUE_FROM_NAME, from_name)                                                   \
	C(MERGES_OF_LEAGUE_INTO, into)                                                             \
	C(MERGES_OF_LEAGUE_INTO_NAME, into_name)                                                   \
	C(MERGES_OF_LEAGUE_PLAYS, plays)                                                           \
	C(MERGES_OF_LEAGUE_BY, by)                                                                 \
	C(MERGES_OF_LEAGUE_AT, at)
DB_COLUMNS(MERGES_OF_LEAGUE_COLUMNS, MERGES_OF_LEAGUE_NCOLS);

/* merge_get */
#define MERGE_GET_COLUMNS(C)                                                                       \
	C(MERGE_GET_FROM, from)                                                                    \
	C(MERGE_GET_FROM_NAME, from_name)                                                          \
	C(MERGE_GET_INTO, into)
DB_COLUMNS(MERGE_GET_COLUMNS, MERGE_GET_NCOLS);

/* merge_unlink_into: the merged member and the account unlinked from the one it went into */
#define MERGE_UNLINK_INTO_COLUMNS(C)                                                               \
	C(MERGE_UNLINK_INTO_FROM_ID, from_id) C(MERGE_UNLINK_INTO_FROM_ACCOUNT, from_account)
DB_COLUMNS(MERGE_UNLINK_INTO_COLUMNS, MERGE_UNLINK_INTO_NCOLS);

/* Consent: invitations, claims of guests, merges kept to be undone (migrations/0021_consent.sql;
 * run by src/leagues/consent.c). */
// clang-format off
const db_statement db_consent_statements[] = {
	{"invitation_insert",
	 "WITH i AS ( "
	 "    INSERT INTO league_invitations "
	 "           (id, league_id, account_id, role, name, member_id, invited_by) "
	 "    VALUES ($1, $2, $3, $4, $5, $6, $7) "
	 "    ON CONFLICT (league_id, account_id, role) DO NOTHING "
	 "    RETURNING id "
	 ") "
	 "SELECT id, true AS inserted "
	 "  FROM i "
	 " UNION ALL "
	 "SELECT o.id, false "
	 "  FROM league_invitations o "
	 " WHERE o.league_id = $2 "
	 "   AND o.account_id = $3 "
	 "   AND o.role = $4",
	 7, DB_COLUMN_NAMES(INSERTED_COLUMNS)},
	{"invitations_of_account",
	 "SELECT i.id, "
	 "       i.league_id AS league, "
	 "       l.name AS league_name, "
	 "       i.role, "
	 "       coalesce(i.name, m.name, '') AS name, "
	 "       coalesce(i.member_id, '') AS member, "
	 "       coalesce(a.display_name, '') AS by, "
	 "       to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS at "
	 "  FROM league_invitations i "
	 "  JOIN leagues l ON l.id = i.league_id "
	 "  LEFT JOIN league_members m ON m.id = i.member_id "
	 "  LEFT JOIN accounts a ON a.id = i.invited_by "
	 " WHERE i.account_id = $1 "
	 " ORDER BY i.created_at, i.id",
	 1, DB_COLUMN_NAMES(INVITATIONS_OF_ACCOUNT_COLUMNS)},
	{"invitations_of_league",
	 "SELECT i.id, "
	 "       i.account_id AS account, "
	 "       a.email, "
	 "       a.display_name, "
	 "       i.role, "
	 "       coalesce(i.name, m.name, '') AS name, "
	 "       coalesce(i.member_id, '') AS member, "
	 "       to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS at "
	 "  FROM league_invitations i "
	 "  JOIN accounts a ON a.id = i.account_id "
	 "  LEFT JOIN league_members m ON m.id = i.member_id "
	 " WHERE i.league_id = $1 "
	 " ORDER BY i.created_at, i.id",
	 1, DB_COLUMN_NAMES(INVITATIONS_OF_LEAGUE_COLUMNS)},
	{"invitation_get",
	 "SELECT i.league_id AS league, i.account_id AS account, i.role, i.name, i.member_id AS member "
	 "  FROM league_invitations i "
	 " WHERE i.id = $1",
	 1, DB_COLUMN_NAMES(INVITATION_GET_COLUMNS)},
	{"invitation_delete",
	 "DELETE FROM league_invitations "
	 " WHERE id = $1 "
	 "   AND league_id = $2 "
	 "RETURNING id",
	 2, DB_COLUMN_NAMES(RETURNED_COLUMNS)},
	{"claim_insert",
	 "WITH i AS ( "
	 "    INSERT INTO member_claims (id, league_id, guest_id, account_id) "
	 "    VALUES ($1, $2, $3, $4) "
	 "    ON CONFLICT (guest_id, account_id) DO NOTHING "
	 "    RETURNING id "
	 ") "
	 "SELECT id, true AS inserted "
	 "  FROM i "
	 " UNION ALL "
	 "SELECT o.id, false "
	 "  FROM member_claims o "
	 " WHERE o.guest_id = $3 "
	 "   AND o.account_id = $4",
	 4, DB_COLUMN_NAMES(INSERTED_COLUMNS)},
	{"claims_of_league",
	 "SELECT c.id, "
	 "       c.guest_id AS guest, "
	 "       g.name AS guest_name, "
	 "       (SELECT count(*) FROM play_results r WHERE r.member_id = c.guest_id) AS plays, "
	 "       c.account_id AS account, "
	 "       a.display_name, "
	 "       coalesce(y.id, '') AS member, "
	 "       coalesce(y.name, '') AS member_name, "
	 "       to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS at "
	 "  FROM member_claims c "
	 "  JOIN league_members g ON g.id = c.guest_id "
	 "  JOIN accounts a ON a.id = c.account_id "
	 "  LEFT JOIN league_members y ON y.league_id = c.league_id "
	 "       AND y.account_id = c.account_id "
	 " WHERE c.league_id = $1 "
	 "   AND ($2::text IS NULL OR c.account_id = $2) "
	 " ORDER BY c.created_at, c.id",
	 2, DB_COLUMN_NAMES(CLAIMS_OF_LEAGUE_COLUMNS)},
	{"claim_get",
	 "SELECT c.guest_id AS guest, c.account_id AS account "
	 "  FROM member_claims c "
	 " WHERE c.id = $1 "
	 "   AND c.league_id = $2",
	 2, DB_COLUMN_NAMES(CLAIM_GET_COLUMNS)},
	{"claim_delete",
	 "DELETE FROM member_claims "
	 " WHERE id = $1 "
	 "   AND league_id = $2 "
	 "   AND ($3::text IS NULL OR account_id = $3) "
	 "RETURNING id",
	 3, DB_COLUMN_NAMES(RETURNED_COLUMNS)},
	{"claims_drop_guest",
	 "DELETE FROM member_claims "
	 " WHERE guest_id = $1",
	 1, NULL},
	/* member $3 of league $2 merged into $4 by account $5: what undoing it restores */
	{"merge_insert",
	 "INSERT INTO member_merges "
	 "       (id, league_id, into_id, from_id, from_name, from_account, from_anonymous, "
	 "        from_created_at, plays, by_account) "
	 "SELECT $1, m.league_id, $4, m.id, m.name, m.account_id, m.anonymous, m.created_at, "
	 "       ARRAY(SELECT r.play_id "
	 "               FROM play_results r "
	 "              WHERE r.member_id = m.id "
	 "              ORDER BY r.play_id), "
	 "       $5 "
	 "  FROM league_members m "
	 " WHERE m.league_id = $2 "
	 "   AND m.id = $3 "
	 "RETURNING id",
	 5, DB_COLUMN_NAMES(RETURNED_COLUMNS)},
	{"merges_of_league",
	 "SELECT g.id, "
	 "       g.from_id AS from, "
	 "       g.from_name, "
	 "       g.into_id AS into, "
	 "       m.name AS into_name, "
	 "       cardinality(g.plays) AS plays, "
	 "       coalesce(a.display_name, '') AS by, "
	 "       to_char(g.at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS at "
	 "  FROM member_merges g "
	 "  JOIN league_members m ON m.id = g.into_id "
	 "  LEFT JOIN accounts a ON a.id = g.by_account "
	 " WHERE g.league_id = $1 "
	 " ORDER BY g.at DESC, g.id",
	 1, DB_COLUMN_NAMES(MERGES_OF_LEAGUE_COLUMNS)},
	{"merge_get",
	 "SELECT g.from_id AS from, g.from_name, g.into_id AS into "
	 "  FROM member_merges g "
	 " WHERE g.id = $1 "
	 "   AND g.league_id = $2",
	 2, DB_COLUMN_NAMES(MERGE_GET_COLUMNS)},
	/* $3: the restored member's name clashes with another's */
	{"merge_restore_member",
	 "INSERT INTO league_members (id, league_id, name, anonymous, created_at, name_clash) "
	 "SELECT g.from_id, g.league_id, g.from_name, g.from_anonymous, g.from_created_at, $3::boolean "
	 "  FROM member_merges g "
	 " WHERE g.id = $1 "
	 "   AND g.league_id = $2 "
	 "ON CONFLICT DO NOTHING "
	 "RETURNING id",
	 3, DB_COLUMN_NAMES(RETURNED_COLUMNS)},
	{"merge_restore_results",
	 "UPDATE play_results r "
	 "   SET member_id = g.from_id "
	 "  FROM member_merges g "
	 " WHERE g.id = $1 "
	 "   AND r.member_id = g.into_id "
	 "   AND r.play_id = ANY (g.plays)",
	 1, NULL},
	{"merge_unlink_into",
	 "UPDATE league_members m "
	 "   SET account_id = NULL "
	 "  FROM member_merges g "
	 " WHERE g.id = $1 "
	 "   AND m.id = g.into_id "
	 "   AND m.account_id = g.from_account "
	 "RETURNING g.from_id, g.from_account",
	 1, DB_COLUMN_NAMES(MERGE_UNLINK_INTO_COLUMNS)},
	{"merge_delete",
	 "DELETE FROM member_merges "
	 " WHERE id = $1",
	 1, NULL},
	DB_STATEMENTS_END,
};
// clang-format on

/* Loads row set `set` from stmt with reader rd and returns the status. */
#define LOAD_ROWS(c, stmt, np, p, set, rd)                                                         \
	do {                                                                                       \
		void *rows_;                                                                       \
		db_status st_ = db_load(c, stmt, np, p, sizeof *(set)->rows, rd, &(set)->res,      \
		                        &(set)->n, &rows_);                                        \
		(set)->rows = rows_;                                                               \
		return st_;                                                                        \
	} while (0)

/* Runs an insert that answers "id, inserted" (invitation_insert, claim_insert). */
static db_status insert_or_existing(db_conn *c, const char *stmt, int np, const char *const *p,
                                    char out_id[DB_LG_ID_MAX + 1], bool *inserted)
{
	PGresult *r;
	out_id[0] = '\0';
	*inserted = false;
	db_status st = db_run(c, stmt, np, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) >= 1) {
		db_col_copy(r, 0, INSERTED_ID, out_id, DB_LG_ID_MAX + 1);
		*inserted = db_col_bool(r, 0, INSERTED_INSERTED);
	} else {
		st = DB_FAIL; /* one of the two halves always answers */
	}
	PQclear(r);
	return st;
}

static db_status deleted_count(db_conn *c, const char *stmt, int np, const char *const *p,
                               bool *deleted)
{
	int n;
	db_status st = db_run_count(c, stmt, np, p, &n);
	*deleted = st == DB_OK && n > 0;
	return st;
}

/* ---- invitations ---- */

db_status db_invitation_insert(db_conn *c, const char *id, const char *league, const char *account,
                               const char *role, const char *name, const char *member,
                               const char *by, char out_id[DB_LG_ID_MAX + 1], bool *inserted)
{
	const char *p[7] = {id, league, account, role, name, member, by};
	return insert_or_existing(c, "invitation_insert", 7, p, out_id, inserted);
}

static void read_invitation(const PGresult *r, int i, void *row)
{
	db_invitation_row *x = row;
	INVITATIONS_OF_ACCOUNT_COLUMNS(DB_READ_COLUMN)
}

db_status db_invitations_of_account(db_conn *c, const char *account, db_invitation_rows *out)
{
	const char *p[1] = {account};
	LOAD_ROWS(c, "invitations_of_account", 1, p, out, read_invitation);
}

static void read_league_invitation(const PGresult *r, int i, void *row)
{
	db_league_invitation_row *x = row;
	INVITATIONS_OF_LEAGUE_COLUMNS(DB_READ_COLUMN)
}

db_status db_invitations_of_league(db_conn *c, const char *league, db_league_invitation_rows *out)
{
	const char *p[1] = {league};
	LOAD_ROWS(c, "invitations_of_league", 1, p, out, read_league_invitation);
}

static void read_invitation_one(const PGresult *r, int i, void *row)
{
	db_invitation *x = row;
	INVITATION_GET_COLUMNS(DB_COPY_COLUMN)
}

db_status db_invitation_get(db_conn *c, const char *id, db_invitation *out)
{
	const char *p[1] = {id};
	memset(out, 0, sizeof *out);
	return db_get_one(c, "invitation_get", 1, p, read_invitation_one, out, &out->found);
}

db_status db_invitation_delete(db_conn *c, const char *id, const char *league, bool *deleted)
{
	const char *p[2] = {id, league};
	return deleted_count(c, "invitation_delete", 2, p, deleted);
}

/* ---- claims ---- */

db_status db_claim_insert(db_conn *c, const char *id, const char *league, const char *guest,
                          const char *account, char out_id[DB_LG_ID_MAX + 1], bool *inserted)
{
	const char *p[4] = {id, league, guest, account};
	return insert_or_existing(c, "claim_insert", 4, p, out_id, inserted);
}

static void read_claim(const PGresult *r, int i, void *row)
{
	db_claim_row *x = row;
	CLAIMS_OF_LEAGUE_COLUMNS(DB_READ_COLUMN)
}

db_status db_claims_of_league(db_conn *c, const char *league, const char *account,
                              db_claim_rows *out)
{
	const char *p[2] = {league, account};
	LOAD_ROWS(c, "claims_of_league", 2, p, out, read_claim);
}

static void read_claim_one(const PGresult *r, int i, void *row)
{
	db_claim *x = row;
	CLAIM_GET_COLUMNS(DB_COPY_COLUMN)
}

db_status db_claim_get(db_conn *c, const char *id, const char *league, db_claim *out)
{
	const char *p[2] = {id, league};
	memset(out, 0, sizeof *out);
	return db_get_one(c, "claim_get", 2, p, read_claim_one, out, &out->found);
}

db_status db_claim_delete(db_conn *c, const char *id, const char *league, const char *account,
                          bool *deleted)
{
	const char *p[3] = {id, league, account};
	return deleted_count(c, "claim_delete", 3, p, deleted);
}

db_status db_claims_drop_guest(db_conn *c, const char *guest)
{
	const char *p[1] = {guest};
	return db_run_count(c, "claims_drop_guest", 1, p, NULL);
}

/* ---- merges ---- */

db_status db_merge_insert(db_conn *c, const char *id, const char *league, const char *from,
                          const char *into, const char *by)
{
	const char *p[5] = {id, league, from, into, by};
	int n;
	db_status st = db_run_count(c, "merge_insert", 5, p, &n);
	return st == DB_OK && n != 1 ? DB_FAIL : st;
}

static void read_merge(const PGresult *r, int i, void *row)
{
	db_merge_row *x = row;
	MERGES_OF_LEAGUE_COLUMNS(DB_READ_COLUMN)
}

db_status db_merges_of_league(db_conn *c, const char *league, db_merge_rows *out)
{
	const char *p[1] = {league};
	LOAD_ROWS(c, "merges_of_league", 1, p, out, read_merge);
}

static void read_merge_one(const PGresult *r, int i, void *row)
{
	db_merge *x = row;
	MERGE_GET_COLUMNS(DB_COPY_COLUMN)
}

db_status db_merge_get(db_conn *c, const char *id, const char *league, db_merge *out)
{
	const char *p[2] = {id, league};
	memset(out, 0, sizeof *out);
	return db_get_one(c, "merge_get", 2, p, read_merge_one, out, &out->found);
}

db_status db_merge_restore_member(db_conn *c, const char *id, const char *league, bool clash,
                                  bool *restored)
{
	const char *p[3] = {id, league, clash ? "true" : "false"};
	int n;
	db_status st = db_run_count(c, "merge_restore_member", 3, p, &n);
	*restored = st == DB_OK && n == 1;
	return st;
}

db_status db_merge_restore_results(db_conn *c, const char *id)
{
	const char *p[1] = {id};
	return db_run_count(c, "merge_restore_results", 1, p, NULL);
}

db_status db_merge_unlink_into(db_conn *c, const char *id, char account[DB_LG_ID_MAX + 1])
{
	const char *p[1] = {id};
	PGresult *r;
	account[0] = '\0';
	db_status st = db_run(c, "merge_unlink_into", 1, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1)
		db_col_copy(r, 0, MERGE_UNLINK_INTO_FROM_ACCOUNT, account, DB_LG_ID_MAX + 1);
	PQclear(r);
	return DB_OK;
}

db_status db_merge_delete(db_conn *c, const char *id)
{
	const char *p[1] = {id};
	return db_run_count(c, "merge_delete", 1, p, NULL);
}
