/* League challenges (challenges.c; src/leagues/README.md "Challenges"): an owner opens one ER
 * draw that every member plays once on their own phone between its opening and closing; the
 * routes. */
#ifndef LEAGUES_CHALLENGES_H
#define LEAGUES_CHALLENGES_H

#include "http/http.h"

/* The guests' rate limit (challenges_init: 0, or -1 out of memory) and its end. */
int challenges_init(void);
void challenges_shutdown(void);

/* POST /api/v1/leagues/{id}/challenges {"name", "opens", "closes", "solo", "alicat_modifiers",
 * "specialists", "seed"} (an owner) → 201 the board. */
int api_league_challenge_create(const http_req *req, http_resp *resp);
/* GET /api/v1/leagues/{id}/challenges (a member): the league's challenges; those due close. */
int api_league_challenges(const http_req *req, http_resp *resp);
/* GET /api/v1/leagues/{id}/challenges/{challenge} (a member): the board. */
int api_league_challenge_get(const http_req *req, http_resp *resp);
/* POST /api/v1/leagues/{id}/challenges/{challenge}/games (a member, once) → 201 the ER game
 * (as POST /er/games answers, without the seed). */
int api_league_challenge_play(const http_req *req, http_resp *resp);
/* POST /api/v1/leagues/{id}/challenges/{challenge}/close (an owner) → 200 the board. */
int api_league_challenge_close(const http_req *req, http_resp *resp);
/* GET /api/v1/challenges/{code}: the board as a guest with the link sees it. */
int api_challenge_by_code(const http_req *req, http_resp *resp);
/* POST /api/v1/challenges/{code}/games {"name"}: a guest's attempt, as a guest member. */
int api_challenge_guest_play(const http_req *req, http_resp *resp);

#endif
