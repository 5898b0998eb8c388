/* The pictures of a league: a player's page, the league's page and a season recap (api.md
 * "Leagues and history", static/openapi.json). One computation from the rows of
 * league_stat_rows; the routes reply its JSON, and the PDFs (report.c) draw the same JSON. */
#ifndef LEAGUES_STATS_H
#define LEAGUES_STATS_H

#include "db/db.h"
#include "http/http.h"

struct json_object;

/* The league page's data of GET …/stats under the filters (season, game: NULL for none):
 * {"players","scores","head_to_head","months"} (caller owns), or NULL with *st. No access
 * check here. */
struct json_object *league_stats_json(db_conn *c, const char *league, const char *season,
                                      const char *game, db_status *st);

/* The recap of a season of the league as GET …/seasons/{season}/recap answers it (caller
 * owns), or NULL with *st; *found false (and NULL) when the league has no such season. */
struct json_object *league_recap_json(db_conn *c, const char *league, const char *season,
                                      bool *found, db_status *st);

/* GET /api/v1/leagues/{id}/players/{player}/stats?season=&game= */
int api_league_player_stats(const http_req *req, http_resp *resp);
/* GET /api/v1/leagues/{id}/stats?season=&game= */
int api_league_stats(const http_req *req, http_resp *resp);
/* GET /api/v1/leagues/{id}/seasons/{season}/recap */
int api_league_recap(const http_req *req, http_resp *resp);

#endif
