/* Invitations an account accepts or declines (invitations.c): to join a league as a member,
 * to take a guest over, to co-own it. Nobody is put into a league, made co-owner or given a
 * guest's history without the consent of the account concerned (src/leagues/README.md
 * "Invitations, claims and merges"; migrations/0021_consent.sql). */
#ifndef LEAGUES_INVITATIONS_H
#define LEAGUES_INVITATIONS_H

#include "engine/tokens.h"
#include "db/db.h"
#include "db/leagues.h"
#include "http/http.h"

#include <stdbool.h>

/* Account by id or e-mail: true with id filled; else false after a reply (503, or 422
 * unknown-account naming /account). */
bool invitations_find_account(db_conn *c, const char *key, char id[ID_LEN + 1], http_resp *resp);

/* Invites the account acc_id into league as a member: a new entry named name, or (member non-NULL)
 * the guest entry `member`. Replies 202 with the invitation, or 409 (member-exists: the account
 * has an entry here, or another member has the name) on resp; DB_ABORT after a refusal. */
db_status invitations_invite_member(db_conn *c, http_resp *resp, const char *league, const char *by,
                                    const char *acc_id, const char *name, const char *member,
                                    char invitation[ID_LEN + 1]);

/* The routes (static/openapi.json). */
int api_invitations_list(const http_req *req, http_resp *resp);

int api_invitation_accept(const http_req *req, http_resp *resp);

int api_invitation_decline(const http_req *req, http_resp *resp);

int api_league_invitations(const http_req *req, http_resp *resp);

int api_league_invitation_withdraw(const http_req *req, http_resp *resp);

int api_league_owner_add(const http_req *req, http_resp *resp);

#endif
