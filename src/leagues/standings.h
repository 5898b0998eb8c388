/* Standings, head-to-head and a player's history (standings.c), answered from the cache. */
#ifndef LEAGUES_STANDINGS_H
#define LEAGUES_STANDINGS_H

#include "db/db.h"
#include "http/http.h"
#include "leagues/rows.h"

/* The standings reply of league (season, game: the filters or NULL; all borrowed) from
 * t[0..n), which it sorts (best ordinal first, then wins, then name); members without games
 * are left out. */
json_object *standings_reply(const char *league, const char *season, const char *game,
                             league_standing *t, int n);

/* The standings of a league (optionally one season and/or one game) as GET …/standings
 * answers them: {"league","season","game","standings":[…]} (caller owns), or NULL with *st
 * (for the league report PDF and any other reader; no access check here). */
struct json_object *standings_json(db_conn *c, const char *league, const char *season,
                                   const char *game, db_status *st);

int api_league_standings(const http_req *req, http_resp *resp);

int api_league_head_to_head(const http_req *req, http_resp *resp);

int api_player_history(const http_req *req, http_resp *resp);

#endif
