/* A league's members (members.c): guests known by name and accounts' entries, added,
 * renamed, invited, merged. */
#ifndef LEAGUES_MEMBERS_H
#define LEAGUES_MEMBERS_H

#include "engine/tokens.h"
#include "db/db.h"
#include "db/leagues.h"
#include "http/http.h"

#include <stdbool.h>

/* The member id of name in league, created as a guest when new (*created set). */
db_status members_by_name(db_conn *c, const char *league, const char *name, char id[ID_LEN + 1],
                          bool *created);

int api_league_member_add(const http_req *req, http_resp *resp);

/* PATCH …/members/{member} {"name"?, "account"?}: rename, link a guest to an account. */
int api_league_member_update(const http_req *req, http_resp *resp);

/* POST …/members/{member}/merge {"into"}: one person's two entries become one. */
int api_league_member_merge(const http_req *req, http_resp *resp);

#endif
