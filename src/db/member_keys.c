/* The start-up pass that keys members' names (member_keys.h).
 *
 * A migration is SQL and the key is computed in C (base/names.c: PostgreSQL 15 has no Unicode
 * case folding), so the migration adds the column and this pass fills it: the runner calls it
 * after the migrations, under their advisory lock, on its own connection. Rows are read and
 * written with the table locked against other writers (SHARE ROW EXCLUSIVE: reads go on), so
 * a member added meanwhile by another server cannot slip between the ranking and the update. */
#include "base/log.h"
#include "base/names.h"
#include "db/f8array.h"
#include "db/member_keys.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Does the column exist (migration 0020 applied)? */
static const char SQL_HAS_KEYS[] = "SELECT 1\n"
                                   "  FROM pg_attribute\n"
                                   " WHERE attrelid = to_regclass('league_members')\n"
                                   "   AND attname = 'name_key'\n"
                                   "   AND NOT attisdropped";

/* Is a row left to key? */
static const char SQL_ANY_UNKEYED[] = "SELECT 1\n"
                                      "  FROM league_members\n"
                                      " WHERE name_key IS NULL\n"
                                      " LIMIT 1";

static const char SQL_LOCK[] = "LOCK TABLE league_members IN SHARE ROW EXCLUSIVE MODE";

/* The rows to key: id, name. */
enum { UNKEYED_ID, UNKEYED_NAME }; /* SQL_UNKEYED's columns */
static const char SQL_UNKEYED[] = "SELECT id,\n"
                                  "       name\n"
                                  "  FROM league_members\n"
                                  " WHERE name_key IS NULL";

/* $1 ids, $2 their keys (text[] each). In each league and key, the member that keeps the name
 * for matching: one keyed before (already matched by it), else one not marked, else one with
 * an account, else the one with most results, else the oldest; the others are marked. */
static const char SQL_STORE[] =
    "WITH k AS (\n"
    "    SELECT u.id,\n"
    "           u.key\n"
    "      FROM unnest($1::text[], $2::text[]) AS u (id, key)\n"
    "), ranked AS (\n"
    "    SELECT m.id,\n"
    "           row_number() OVER (\n"
    "               PARTITION BY m.league_id, coalesce(k.key, m.name_key)\n"
    "               ORDER BY k.id IS NOT NULL,\n"
    "                        m.name_clash,\n"
    "                        m.account_id IS NULL,\n"
    "                        (SELECT count(*)\n"
    "                           FROM play_results r\n"
    "                          WHERE r.member_id = m.id) DESC,\n"
    "                        m.created_at,\n"
    "                        m.id) AS n\n"
    "      FROM league_members m\n"
    "      LEFT JOIN k ON k.id = m.id\n"
    "     WHERE m.league_id IN (SELECT x.league_id\n"
    "                             FROM league_members x\n"
    "                             JOIN k ON k.id = x.id)\n"
    ")\n"
    "UPDATE league_members m\n"
    "   SET name_key = k.key,\n"
    "       name_clash = ranked.n > 1\n"
    "  FROM k\n"
    "  JOIN ranked ON ranked.id = k.id\n"
    " WHERE m.id = k.id\n"
    "RETURNING m.name_clash";
enum { STORE_NAME_CLASH }; /* SQL_STORE's column */

/* Runs sql (params: text[] in binary, or none); the result when its status is want, else NULL
 * after logging what failed. */
static PGresult *run(PGconn *pg, const char *sql, ExecStatusType want, int n,
                     const char *const *values, const int *lengths, const char *what)
{
	static const int binary[2] = {1, 1};
	PGresult *r = PQexecParams(pg, sql, n, NULL, values, lengths, n ? binary : NULL, 0);
	if (r && PQresultStatus(r) == want)
		return r;
	log_warn("migrate: member name keys: %s failed: %s", what,
	         r ? PQresultErrorMessage(r) : PQerrorMessage(pg));
	PQclear(r);
	return NULL;
}

/* Is there a row for sql? 1, 0, or -1 (logged). */
static int exists(PGconn *pg, const char *sql, const char *what)
{
	PGresult *r = run(pg, sql, PGRES_TUPLES_OK, 0, NULL, NULL, what);
	if (!r)
		return -1;
	int n = PQntuples(r) > 0;
	PQclear(r);
	return n;
}

/* Keys every unkeyed row (the table locked); 0 or -1 (logged). */
static int key_rows(PGconn *pg)
{
	PGresult *rows = run(pg, SQL_UNKEYED, PGRES_TUPLES_OK, 0, NULL, NULL, "reading names");
	if (!rows)
		return -1;
	db_f8array ids = {.oid = DB_ARRAY_TEXT}, keys = {.oid = DB_ARRAY_TEXT};
	int n = PQntuples(rows);
	for (int i = 0; i < n; i++) {
		char *display, *key;
		name_forms(PQgetvalue(rows, i, UNKEYED_NAME), &display, &key);
		const char *id = PQgetvalue(rows, i, UNKEYED_ID);
		db_f8array_text(&ids, id, strlen(id));
		db_f8array_text(&keys, key, strlen(key));
		free(display);
		free(key);
	}
	PQclear(rows);
	int lengths[2];
	const char *values[2] = {db_f8array_done(&ids, &lengths[0]),
	                         db_f8array_done(&keys, &lengths[1])};
	PGresult *r = run(pg, SQL_STORE, PGRES_TUPLES_OK, 2, values, lengths, "storing keys");
	db_f8array_free(&ids);
	db_f8array_free(&keys);
	if (!r)
		return -1;
	int marked = 0;
	for (int i = 0; i < PQntuples(r); i++)
		marked += strcmp(PQgetvalue(r, i, STORE_NAME_CLASH), "t") == 0;
	log_info("migrate: keyed the names of %d members; %d share a name with another member of "
	         "their league, marked name_clash",
	         PQntuples(r), marked);
	PQclear(r);
	return 0;
}

int db_member_keys_fill(PGconn *pg)
{
	PGresult *b = run(pg, "BEGIN", PGRES_COMMAND_OK, 0, NULL, NULL, "BEGIN");
	if (!b)
		return -1;
	PQclear(b);
	int has = exists(pg, SQL_HAS_KEYS, "looking for the column");
	int any = has == 1 ? exists(pg, SQL_ANY_UNKEYED, "looking for unkeyed rows") : has;
	int rc = any < 0 ? -1 : 0;
	if (any == 1) {
		PGresult *l = run(pg, SQL_LOCK, PGRES_COMMAND_OK, 0, NULL, NULL, "locking");
		rc = l ? key_rows(pg) : -1;
		PQclear(l);
	}
	PGresult *e =
	    run(pg, rc == 0 ? "COMMIT" : "ROLLBACK", PGRES_COMMAND_OK, 0, NULL, NULL, "COMMIT");
	if (!e || strcmp(PQcmdStatus(e), rc == 0 ? "COMMIT" : "ROLLBACK") != 0)
		rc = -1;
	PQclear(e);
	return rc;
}
