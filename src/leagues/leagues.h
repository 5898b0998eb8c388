/* Leagues (leagues.c; api.md "Leagues and history"): a league created, listed, read.
 *
 * Who may do what: every league route needs a session (401 without); reading a league needs
 * its ownership or a member entry linked to the account (403 otherwise); owners change
 * membership, seasons and owners and delete plays; members record plays and edit the plays
 * they entered (owners edit any). */
#ifndef LEAGUES_LEAGUES_H
#define LEAGUES_LEAGUES_H

#include "http/http.h"

int api_league_create(const http_req *req, http_resp *resp);

int api_league_list(const http_req *req, http_resp *resp);

int api_league_get(const http_req *req, http_resp *resp);

#endif
