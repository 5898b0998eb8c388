/* The pictures of a league's page and of a player's page (stats.c; api.md "Leagues and history",
 * static/openapi.json), read off pictures.h; the routes reply its JSON, and the PDFs (report.c)
 * draw the same JSON. */
#ifndef LEAGUES_STATS_H
#define LEAGUES_STATS_H

#include "db/db.h"
#include "http/http.h"

struct json_object;

/* The league page's data of GET …/stats under the filters (season, game: NULL for none):
 * {"players","scores","head_to_head","months"} (caller owns), or NULL with *st. No access
 * check here. */
struct json_object *stats_json(db_conn *c, const char *league, const char *season, const char *game,
                               db_status *st);

/* GET /api/v1/leagues/{id}/players/{player}/stats?season=&game= */
int api_league_player_stats(const http_req *req, http_resp *resp);

/* GET /api/v1/leagues/{id}/stats?season=&game= */
int api_league_stats(const http_req *req, http_resp *resp);

#endif
