/* A league challenge's board and its closing (challboard.c): the ranking as members finish,
 * every sheet once closed, the top finisher's game for the coach; and the one transaction
 * that closes a challenge and records it as one play of the league, exactly once. */
#ifndef LEAGUES_CHALLBOARD_H
#define LEAGUES_CHALLBOARD_H

#include "leagues/access.h"
#include "db/challenges.h"
#include "http/http.h"

#include <json-c/json.h>
#include <stdbool.h>

/* In a transaction: takes league's lock (as `as` with its rights, an owner's when owner, read
 * again under the lock; NULL: no one's), then challenge id's row into *ch. DB_ABORT after a 404
 * when the league has no such challenge, or after access_lock_as's refusal. */
db_status challboard_lock(db_conn *c, const char *league, const char *id, league_access *as,
                          bool owner, db_challenge *ch, http_resp *resp);

/* Closes challenge `id` of league when it is due (by_time) or at once (an owner: a non-NULL
 * owner's rights, read again under the league's lock), in one transaction under the league's
 * lock and the challenge's row lock: the finished attempts become one league play, rated, and
 * the challenge keeps that play. A challenge already closed is left as it is (a second close,
 * at once or later, records nothing). Replies only on failure (or defers the request: see
 * resp->defer); returns true when the caller may go on. */
bool challboard_close(db_conn *c, const char *league, const char *id, bool by_time,
                      league_access *owner, const account *writer, http_resp *resp);

/* The board of challenge ch as `member` (a league member's id, or "" for a guest or an owner
 * without an entry) sees it; with_code: the reply carries the guest link's code. NULL after
 * replying a failure. */
json_object *challboard_json(db_conn *c, const db_challenge *ch, const char *member, bool with_code,
                             http_resp *resp);

#endif
