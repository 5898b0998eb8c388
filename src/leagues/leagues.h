/* Leagues (api.md "Leagues and history"): leagues, owners, members, seasons, plays,
 * ratings, standings, head-to-head, player history; export and import (leagues/import.c).
 *
 * Who may do what: every league route needs a session (401 without); reading a league needs
 * its ownership or a member entry linked to the account (403 otherwise); owners change
 * membership, seasons and owners and delete plays; members record plays and edit the plays
 * they entered (owners edit any). */
#ifndef API_LEAGUES_H
#define API_LEAGUES_H

#include "accounts/accounts.h"
#include "base/sbuf.h"
#include "db/db.h"
#include "http/http.h"
#include "rules/rating.h"

#include <stdbool.h>

/* Records a finished table game as a play of its league, exactly once (plays.game_id is
 * unique: a second call for the same game changes nothing), inside the caller's transaction
 * (the one that finishes the game). kind is "er", "dh" or "clinic"; result_json is what
 * games.result stores: {"standings": [{"seat", "name", "bot", "score", "rank", "breakdown"?}],
 * "created_at"?, "finished_at"?} (RFC 3339). Seats map to league members by name (new names
 * become guest members); bots are not players of the league (a game with one human is solo).
 * The league's ratings are recomputed. Returns 0 (DB_OK: recorded, already recorded, or
 * nothing to record — an unknown league is logged and skipped), or a db_status (DB_RETRY,
 * DB_FAIL, DB_UNAVAILABLE) after which the caller must roll back (DB_RETRY: retry). */
int leagues_record_game(db_conn *c, const char *game_id, const char *league_id, const char *kind,
                        const char *result_json);

/* The same as a table_finish_hook (engine/table.h): 0, or -1 to roll back. api_init.c
 * registers it with table_set_finish_hook. */
int leagues_table_hook(void *c, const char *game_id, const char *league, const char *kind,
                       const char *result_json);
/* A table_recorded_hook (engine/table.h; api_init.c registers it): after the commit that
 * recorded a finished game as a play, the request's session (its cookie, if any) reads its
 * write from then on, as after a league write (league_wrote). */
void leagues_table_recorded(const http_req *req, void *c);

/* For the table engine when a game is created with "league": may this request record games
 * in that league? True when it carries the session of an owner or a member of the league;
 * otherwise false with 401/403/404 (or 503) filled into resp. The engine asks it
 * (table_set_league_check, api_init.c) before creating a game with "league". */
bool leagues_may_record(const http_req *req, http_resp *resp, db_conn *c, const char *league);

/* The standings of a league (optionally one season and/or one game) as GET …/standings
 * answers them: {"league","season","game","standings":[…]} (caller owns), or NULL with *st
 * (for the league report PDF and any other reader; no access check here). */
struct json_object *leagues_standings_json(db_conn *c, const char *league, const char *season,
                                           const char *game, db_status *st);

/* ---- shared with leagues/import.c ---- */

/* The caller's rights in a league. */
typedef struct {
	account acc;
	bool owner;
	char member[ID_LEN + 1]; /* the account's member entry, "" if none */
	long long version;       /* the league's version (bumped by every change of the league) */
} league_access;

/* Frees the standings/history cache (at shutdown). */
void leagues_shutdown(void);

/* Session + league lookup: true when the caller may read the league (owner or linked
 * member), with *a filled; else replies 401/403/404/503 and returns false. With owner, only
 * owners pass (403 "not-owner" for members). */
bool league_access_check(const http_req *req, http_resp *resp, db_conn *c, const char *league,
                         bool owner, league_access *a);

/* A read handler's work on connection c (a standby's or the primary's) for the session's
 * account acc (checked on the primary): replies through resp. Runs twice when the standby's
 * reply is a 5xx: keep it free of side effects but the reply. */
typedef int (*league_read_fn)(const http_req *req, http_resp *resp, db_conn *c, const account *acc);
/* Checks the session on the primary (it refreshes the idle clock: a write), then runs fn on
 * the thread's standby connection when one may answer the session, else on the primary; a 5xx
 * from the standby is forgotten and fn runs again on the primary. The reply's X-Read-From says
 * which answered ("replica" or "primary"). */
int league_read(const http_req *req, http_resp *resp, league_read_fn fn);
/* league_read for a player's read (params[0] a member id): the session is checked against the
 * player's league. */
int league_read_player(const http_req *req, http_resp *resp, league_read_fn fn);
/* The league and name of member as of league version (version < 0: whatever is kept, for its
 * league alone, which never changes): kept by this process (acct_member_get), else read on c
 * and kept. DB_OK with out->found false when there is no such member. */
db_status league_member_at(db_conn *c, const char *member, int64_t version, db_member_league *out);
/* league_access_check for a session already checked (acc, copied into *a). */
bool league_access_as(http_resp *resp, db_conn *c, const account *acc, const char *league,
                      bool owner, league_access *a);

/* The opening of a handler that changes league params[0]: the CSRF check (json: the body must be
 * JSON) and the caller's access into *a (owner: owners only). The thread's connection, or NULL
 * after a reply. */
db_conn *league_open_write(const http_req *req, http_resp *resp, bool json, bool owner,
                           league_access *a);
/* The same with a JSON body: the CSRF check, the
 * caller's access into *a (owner: owners only) and the body into *root (the caller puts it).
 * The thread's connection, or NULL after a reply. */
db_conn *league_open_body(const http_req *req, http_resp *resp, bool owner, league_access *a,
                          struct json_object **root);

/* Locks the league row for a write (FOR UPDATE): serialises the league's writers. */
db_status league_lock(db_conn *c, const char *league);
/* league_lock for the writer whose rights a holds (checked before the transaction), read
 * again once the lock is held: a member removed, or an owner demoted, while the write waited
 * writes nothing. DB_ABORT after replying 404 (no such league) or 403 as league_access_check
 * (owner: owners only); *a holds the rights as they stand. */
db_status league_lock_as(db_conn *c, const char *league, bool owner, league_access *a,
                         http_resp *resp);

/* The member id of name in league, created as a guest when new (*created set). */
db_status league_member_by_name(db_conn *c, const char *league, const char *name,
                                char id[ID_LEN + 1], bool *created);

/* Recomputes which game each play is (league_game_names) and every rating of the league in one
 * pass (plays in order), and stores what changed. */
db_status league_recompute(db_conn *c, const char *league);
/* league_recompute after a change of play alone (an edit, a deletion): the league's rows kept
 * since its last change (kept.c), with that play's read again, when there are; else the whole
 * league read. league_recompute_added does the same for a play added before others. */
db_status league_recompute_play(db_conn *c, const char *league, const char *play);
/* league_recompute after adding play: when it is the league's last play and nothing else
 * changed, only it is rated, from the kept state (scopes.c league_scopes_append). */
db_status league_recompute_added(db_conn *c, const char *league, const char *play);

/* The largest UTC offset a date may carry, in minutes: ±15:59, PostgreSQL's own limit. */
enum { LEAGUE_MAX_OFFSET_MIN = 15 * 60 + 59 };

/* A local date or time as other apps write it ("YYYY-MM-DD", "YYYY-MM-DD HH:MM[:SS]", or
 * with "T") → a timestamptz literal of that wall time at offset 0 (BG Stats' playDate is the
 * phone's local time, a BGG date a local date); a time with a zone names that instant. false
 * when malformed, not a calendar date, a leap second or an offset beyond ±15:59. */
bool league_parse_when(const char *s, char out[64]);

/* Strict RFC 3339 (section 5.6: "T" or "t", seconds required, "Z", "z" or ±HH:MM up to
 * ±15:59, no leap second) or a bare date "YYYY-MM-DD" (local midnight, offset 0) → a timestamptz
 * literal of the instant into out and the offset in minutes into *offset_min. */
bool league_parse_rfc3339(const char *s, char out[64], int *offset_min);

/* A play's result as stored: which member, where they sat, score (has_score), rank, winner. */
typedef struct {
	char member[ID_LEN + 1];
	double score;
	bool has_score, has_rank, winner, has_winner;
	int rank;
	const char *breakdown;   /* JSON text or NULL (borrowed) */
	const char *score_text;  /* the score as typed in another app ("20+16+16") or NULL */
	const char *extra;       /* JSON text or NULL: the source playerScore's other members */
	const char *player_uuid; /* the source file's player object (league_players) or NULL */
	bool unrated; /* a seat nothing identifies (an anonymous player): kept in the play, out
	               * of standings and ratings */
} league_result;

/* A play to store (all strings borrowed). */
typedef struct {
	const char *game;
	int64_t bgg_id; /* 0: none */
	char when[64];
	int64_t duration_min; /* -1: unknown */
	const char *notes, *location;
	bool cooperative;
	int utc_offset_min;    /* the players' clock: local time = when + this */
	bool ignored;          /* kept and shown, left out of standings and ratings */
	bool incomplete;       /* not played to the end: out of standings and ratings too */
	int64_t bgg_play_id;   /* the BoardGameGeek play this is, 0: none */
	const char *source;    /* "hand", "table", "bgstats", "bggxml" */
	const char *uuid;      /* NULL: generated */
	const char *game_id;   /* NULL unless source is "table" */
	const char *extra;     /* JSON text or NULL: the source play's members we do not model */
	const char *game_uuid; /* the file's game object the play named (BG Stats), or NULL */
	league_result *results;
	int nresults;
} league_play;

/* Derives missing ranks (from scores, else from winner flags) and winners (rank 1); false with
 * a detail when the results cannot be ranked (some ranks given, others not). A cooperative
 * play keeps each player's winner flag (some may win and others lose: a traitor, Mysterium's
 * culprits); winners rank 1, the others 2, and a player without a flag shares the first
 * flag's outcome. */
bool league_play_rank(league_play *p, const char **detail);

/* Inserts a play (new id into id) with its results. DB_ABORT when a play of the same uuid
 * (or game_id) is already in the league (nothing stored). Does not recompute ratings. */
db_status league_play_insert(db_conn *c, const char *league, const char *author,
                             const league_play *p, char id[ID_LEN + 1]);

/* Rewrites play's columns and results as p holds them (an edit), in the caller's transaction.
 * Does not recompute ratings. */
db_status league_play_update(db_conn *c, const char *league, const char *play, const league_play *p);

/* Many plays stored in two statements (an import): each league_batch_add gives the play its
 * id and copies its columns and results; league_batch_store inserts them all, in the order
 * added, as plays of league by author. The caller has made sure no uuid is already in the
 * league or twice in the batch. Does not recompute ratings. Zero-initialise; free with
 * league_batch_free. */
enum { BATCH_PLAY_COLS = 16, BATCH_RESULT_COLS = 11 };
typedef struct {
	sbuf play[BATCH_PLAY_COLS];
	sbuf res[BATCH_RESULT_COLS];
	int nplays, nresults;
} league_batch;
void league_batch_add(league_batch *b, const league_play *p, char id[ID_LEN + 1]);
db_status league_batch_store(db_conn *c, const char *league, const char *author, league_batch *b);
void league_batch_free(league_batch *b);

/* ---- handlers ---- */
int api_league_create(const http_req *req, http_resp *resp);
int api_league_list(const http_req *req, http_resp *resp);
int api_league_get(const http_req *req, http_resp *resp);
int api_league_member_add(const http_req *req, http_resp *resp);
int api_league_member_delete(const http_req *req, http_resp *resp);
/* PATCH …/members/{member} {"name"?, "account"?}: rename, link a guest to an account. */
int api_league_member_update(const http_req *req, http_resp *resp);
/* POST …/members/{member}/merge {"into"}: one person's two entries become one. */
int api_league_member_merge(const http_req *req, http_resp *resp);
int api_league_season_add(const http_req *req, http_resp *resp);
int api_league_play_add(const http_req *req, http_resp *resp);
int api_league_play_list(const http_req *req, http_resp *resp);
int api_league_play_get(const http_req *req, http_resp *resp);
int api_league_play_edit(const http_req *req, http_resp *resp);
int api_league_play_delete(const http_req *req, http_resp *resp);
int api_league_log(const http_req *req, http_resp *resp);
int api_league_standings(const http_req *req, http_resp *resp);
int api_league_head_to_head(const http_req *req, http_resp *resp);
int api_player_history(const http_req *req, http_resp *resp);
/* leagues/import.c */
int api_league_export_json(const http_req *req, http_resp *resp);
int api_league_export_csv(const http_req *req, http_resp *resp);
int api_league_backup(const http_req *req, http_resp *resp);
int api_league_import(const http_req *req, http_resp *resp);
/* The import's pre-body check (http_route.pre_body): Origin, session and ownership from the
 * headers, so a refused client never gets 16 MiB buffered. */
int api_league_import_pre_body(const http_req *req, http_resp *resp);

/* ---- for the league report PDF (leagues/report.c) ---- */
/* ?season=&game= as GET …/standings reads them (empty = none; an unknown season is a 404 in
 * resp and false). */
bool leagues_read_filters(const http_req *req, http_resp *resp, db_conn *c, const char **season,
                          const char **game);

#endif
