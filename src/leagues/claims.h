/* Claims of a guest ("this is me") an owner approves or refuses, and merges of two members,
 * kept so that an owner can undo them (claims.c). */
#ifndef LEAGUES_CLAIMS_H
#define LEAGUES_CLAIMS_H

#include "engine/tokens.h"
#include "db/db.h"
#include "db/leagues.h"
#include "http/http.h"

/* Moves every result of member `from` of league to `into`, removes `from` (its account, when it
 * has one, goes to `into`) and recomputes the league; the merge is kept (merge_id receives its
 * id) so that consent_undo can reverse it. The caller locked the league and checked that the
 * two never sat in one play and do not both have an account. */
db_status claims_merge_members(db_conn *c, const char *league, const char *from,
                               const char *from_account, const char *into, const char *by,
                               char merge_id[ID_LEN + 1]);

int api_league_member_link(const http_req *req, http_resp *resp);

int api_league_claims(const http_req *req, http_resp *resp);

int api_league_claim_approve(const http_req *req, http_resp *resp);

int api_league_claim_delete(const http_req *req, http_resp *resp);

int api_league_merges(const http_req *req, http_resp *resp);

int api_league_merge_undo(const http_req *req, http_resp *resp);

#endif
