/* Typed rows of consent: invitations to a league, claims of a guest's history, and the merges
 * of members kept so that each can be undone (migrations/0021_consent.sql; SQL in
 * statements.c, under the names given beside each accessor; src/leagues/consent.c uses them).
 *
 * Ownership as in db/leagues.h: single rows fill caller-owned structs; row sets own their
 * result, their rows borrow its strings until db_rowset_clear. Parameters are text (NULL for
 * SQL NULL). */
#ifndef DB_CONSENT_H
#define DB_CONSENT_H

#include "db/leagues.h"

/* ---- invitations ---- */

/* invitation_insert: stores the invitation `id` unless (league, account, role) has one:
 * out_id receives the id of the one that stands, *inserted whether it is this one. name (a new
 * entry) or member (a guest to link) for role "member"; both NULL for "owner". */
db_status db_invitation_insert(db_conn *c, const char *id, const char *league, const char *account,
                               const char *role, const char *name, const char *member,
                               const char *by, char out_id[DB_LG_ID_MAX + 1], bool *inserted);

/* invitations_of_account: the account's pending invitations: id, league, league name, role,
 * member name ("" for an owner's), guest member id ("" unless a guest is to be linked), who
 * invited ("" when that account is gone), created_at (RFC 3339). */
typedef struct {
	const char *id, *league, *league_name, *role, *name, *member, *by, *at;
} db_invitation_row;
typedef DB_ROWSET(db_invitation_row) db_invitation_rows;
db_status db_invitations_of_account(db_conn *c, const char *account, db_invitation_rows *out);

/* invitations_of_league: a league's pending invitations: id, account, its e-mail and display
 * name, role, member name, guest member id (as above), created_at. */
typedef struct {
	const char *id, *account, *email, *display_name, *role, *name, *member, *at;
} db_league_invitation_row;
typedef DB_ROWSET(db_league_invitation_row) db_league_invitation_rows;
db_status db_invitations_of_league(db_conn *c, const char *league, db_league_invitation_rows *out);

/* invitation_get: one invitation (found false when there is none). */
typedef struct {
	bool found;
	char league[DB_LG_ID_MAX + 1], account[DB_LG_ID_MAX + 1], role[8];
	char name[DB_LG_NAME_MAX + 1]; /* "" when none */
	char member[DB_LG_ID_MAX + 1]; /* "" when none */
} db_invitation;
db_status db_invitation_get(db_conn *c, const char *id, db_invitation *out);
/* invitation_delete … RETURNING id: *deleted when it was the league's and is gone. */
db_status db_invitation_delete(db_conn *c, const char *id, const char *league, bool *deleted);

/* ---- claims ---- */

/* claim_insert: as invitation_insert, one claim per (guest, account). */
db_status db_claim_insert(db_conn *c, const char *id, const char *league, const char *guest,
                          const char *account, char out_id[DB_LG_ID_MAX + 1], bool *inserted);
/* claims_of_league: the league's pending claims (account non-NULL: that account's only): id,
 * guest, guest's name, guest's plays, account, its display name, the account's member entry
 * here and its name ("" when none), created_at. */
typedef struct {
	const char *id, *guest, *guest_name, *account, *display_name, *member, *member_name, *at;
	long long plays;
} db_claim_row;
typedef DB_ROWSET(db_claim_row) db_claim_rows;
db_status db_claims_of_league(db_conn *c, const char *league, const char *account,
                              db_claim_rows *out);
/* claim_get: the claim's guest and account (found false when the league has no such claim). */
typedef struct {
	bool found;
	char guest[DB_LG_ID_MAX + 1], account[DB_LG_ID_MAX + 1];
} db_claim;
db_status db_claim_get(db_conn *c, const char *id, const char *league, db_claim *out);
/* claim_delete … RETURNING id (account non-NULL: only that account's claim). */
db_status db_claim_delete(db_conn *c, const char *id, const char *league, const char *account,
                          bool *deleted);
/* claims_drop_guest: every claim of guest (once it is linked to an account). */
db_status db_claims_drop_guest(db_conn *c, const char *guest);

/* ---- merges ---- */

/* merge_insert: records that member `from` of league is about to be merged into `into` by
 * account `by` (its entry as it is, and the plays of its results). Run before the results
 * move. */
db_status db_merge_insert(db_conn *c, const char *id, const char *league, const char *from,
                          const char *into, const char *by);
/* merges_of_league: id, from id, from name, into id, into name, plays moved, by (display name
 * or ""), at; newest first. */
typedef struct {
	const char *id, *from, *from_name, *into, *into_name, *by, *at;
	long long plays;
} db_merge_row;
typedef DB_ROWSET(db_merge_row) db_merge_rows;
db_status db_merges_of_league(db_conn *c, const char *league, db_merge_rows *out);
/* merge_get: from id, from name, into id (found false when the league has no such merge). */
typedef struct {
	bool found;
	char from[DB_LG_ID_MAX + 1], into[DB_LG_ID_MAX + 1];
	char from_name[DB_LG_NAME_MAX + 1];
} db_merge;
db_status db_merge_get(db_conn *c, const char *id, const char *league, db_merge *out);
/* merge_restore_member: the removed entry again, under its id (clash: marked name_clash);
 * *restored false when its name (or, with clash false, its name key) is taken. */
db_status db_merge_restore_member(db_conn *c, const char *id, const char *league, bool clash,
                                  bool *restored);
/* merge_restore_results: the moved results back to the restored entry. */
db_status db_merge_restore_results(db_conn *c, const char *id);
/* merge_unlink_into: when the account moved with the merge, the surviving entry lets it go:
 * account receives it ("" when nothing moved). */
db_status db_merge_unlink_into(db_conn *c, const char *id, char account[DB_LG_ID_MAX + 1]);
/* merge_delete. */
db_status db_merge_delete(db_conn *c, const char *id);

#endif
