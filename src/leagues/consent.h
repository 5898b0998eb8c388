/* Consent (api.md "Conventions"): nobody is put into a league, made co-owner or given a guest's
 * history without the account's consent. An owner's invitation waits until the account accepts
 * it; a member's claim of a guest ("this is me") waits until an owner approves it; and every
 * merge of two members is kept, so that an owner can undo it (src/leagues/README.md
 * "Invitations, claims and merges"; migrations/0021_consent.sql). */
#ifndef LEAGUES_CONSENT_H
#define LEAGUES_CONSENT_H

#include "db/leagues.h"
#include "leagues/leagues.h"

/* Invites the account acc_id into league as a member: a new entry named name, or (member non-NULL)
 * the guest entry `member`. Replies 202 with the invitation, or 409 (member-exists: the account
 * has an entry here, or another member has the name) on resp; DB_ABORT after a refusal. */
db_status consent_invite_member(db_conn *c, http_resp *resp, const char *league, const char *by,
                                const char *acc_id, const char *name, const char *member,
                                char invitation[ID_LEN + 1]);

/* Moves every result of member `from` of league to `into`, removes `from` (its account, when it
 * has one, goes to `into`) and recomputes the league; the merge is kept (merge_id receives its
 * id) so that consent_undo can reverse it. The caller locked the league and checked that the
 * two never sat in one play and do not both have an account. */
db_status league_merge_members(db_conn *c, const char *league, const char *from,
                               const char *from_account, const char *into, const char *by,
                               char merge_id[ID_LEN + 1]);

/* The routes (static/openapi.json). */
int api_invitations_list(const http_req *req, http_resp *resp);
int api_invitation_accept(const http_req *req, http_resp *resp);
int api_invitation_decline(const http_req *req, http_resp *resp);
int api_league_invitations(const http_req *req, http_resp *resp);
int api_league_invitation_withdraw(const http_req *req, http_resp *resp);
int api_league_owner_add(const http_req *req, http_resp *resp);
int api_league_member_link(const http_req *req, http_resp *resp);
int api_league_claims(const http_req *req, http_resp *resp);
int api_league_claim_approve(const http_req *req, http_resp *resp);
int api_league_claim_delete(const http_req *req, http_resp *resp);
int api_league_merges(const http_req *req, http_resp *resp);
int api_league_merge_undo(const http_req *req, http_resp *resp);

#endif
