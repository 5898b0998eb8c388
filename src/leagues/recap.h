/* A season's recap (recap.c): its champion, climb, most played game, closest play and
 * longest streak, with its pictures; the route replies it and the recap PDF draws it. */
#ifndef LEAGUES_RECAP_H
#define LEAGUES_RECAP_H

#include "db/db.h"
#include "http/http.h"

#include <stdbool.h>

struct json_object;

/* The recap of a season of the league as GET …/seasons/{season}/recap answers it (caller
 * owns), or NULL with *st; *found false (and NULL) when the league has no such season. */
struct json_object *recap_json(db_conn *c, const char *league, const char *season, bool *found,
                               db_status *st);

/* GET /api/v1/leagues/{id}/seasons/{season}/recap */
int api_league_recap(const http_req *req, http_resp *resp);

#endif
