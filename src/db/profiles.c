/* Typed rows of the stored scoring profiles (see profiles.h; SQL in statements.c). */
#include "db/profiles.h"

#include "base/oom.h"
#include "db/rows.h"

#include <stdio.h>
#include <stdlib.h>

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
		*body = xstrdup(PQgetvalue(r, 0, 0));
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
		fn(PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), PQgetvalue(r, i, 2),
		   PQgetisnull(r, i, 3) ? NULL : PQgetvalue(r, i, 3), PQgetvalue(r, i, 4), arg);
	PQclear(r);
	return DB_OK;
}
