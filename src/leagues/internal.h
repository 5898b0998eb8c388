/* What the files of src/leagues/ share and nobody else uses. */
#ifndef LEAGUES_INTERNAL_H
#define LEAGUES_INTERNAL_H

#include "base/sbuf.h"
#include "db/db.h"
#include "http/http.h"
#include "leagues/leagues.h"
#include "rules/rating.h"

#include "leagues/import.h"

#include <json-c/json.h>
#include <stdbool.h>

enum { MAX_RESULTS = RATING_MAX_PLAYERS, NOTES_MAX = 4096, GAME_MAX = 256, H2H_MAX_PLAYERS = 1024 };

#include "db/leagues.h"

/* ---- leagues.c ---- */

/* Runs fn in a transaction (db_tx; c NULL: DB_UNAVAILABLE) and, once it committed, keeps the
 * league rows its recompute used (kept.c). Every league write's transaction runs here. */
db_status league_tx(db_conn *c, db_tx_fn fn, void *arg);
/* Runs fn in a transaction and maps a failure to a reply (fn replies itself on DB_ABORT); once
 * it committed, league_wrote(c, writer). */
/* Account by id or e-mail: true with id filled; else false after a reply (503, or 422
 * unknown-account naming /account). */
bool league_find_account(db_conn *c, const char *key, char id[ID_LEN + 1], http_resp *resp);
void league_run_tx(db_conn *c, const account *writer, db_tx_fn fn, void *arg, http_resp *resp);
/* After a league write by writer's session committed on c (the primary): remembers how far the
 * primary's WAL was, so that the session's next reads on a standby wait for it or go to the
 * primary (db/readpool.h). Nothing without DATABASE_READ_URL. */
void league_wrote(db_conn *c, const account *writer);

/* A stored number (score) as JSON: an integer when it is one, null when absent. */
json_object *league_num_json(bool has, double d);
json_object *league_rating_json(rating r);
/* The reply for a database failure (503 while it is away, else 500). */
int league_reply_status(http_resp *resp, db_status st);

/* ---- leagues.c: pages of the lists that grow (plays, history) and conditional reads ---- */

enum { PAGE_DEFAULT = 50, PAGE_MAX = 500, LEAGUE_ETAG_LEN = 48 };

/* A page of a list: ?limit= (1 to PAGE_MAX, default PAGE_DEFAULT) and ?offset= (0 or more,
 * default 0), and their text for the SQL parameters. */
typedef struct {
	long long limit, offset;
	char limit_text[24], offset_text[24];
} league_page;
/* Reads the page of the request into *pg: true, or false after a 400 whose field names the
 * parameter ("/limit", "/offset"). */
bool league_page_read(const http_req *req, http_resp *resp, league_page *pg);
/* While items remain after this page (offset + limit < total), the Link header's value for
 * the next one (caller frees; NULL when none): </api/v1/{kind}/{id}/{list}?limit=L&offset=O+L
 * [&season=…][&game=…]>; rel="next", id and the filters (NULL: none) percent-encoded. */
char *league_page_link(const char *kind, const char *id, const char *list, const league_page *pg,
                       long long total, const char *season, const char *game);

/* The ETag of a league read (out: LEAGUE_ETAG_LEN bytes): the league's version, which every
 * change of the league bumps (plays, members, owners, seasons), and what was asked (key:
 * the route and its parameters, plus the account when the reply depends on it). */
void league_etag(char out[LEAGUE_ETAG_LEN], long long version, const char *key);
/* Does the request's If-None-Match name etag? Then resp is a 304 (no body) with the ETag and
 * Cache-Control headers, and the handler is done. */
bool league_not_modified(const http_req *req, http_resp *resp, const char *etag);
/* The headers of a league read's 200: ETag and Cache-Control: private, no-cache (the reply
 * depends on the session; a client revalidates before every use). */
void league_tag_reply(http_resp *resp, const char *etag);

/* ---- standings.c: replies kept per (what was asked, the league's version) ---- */

enum { LCACHE_KEY = 400 };
/* The cache key (and ETag key) of what was asked, printf-style, into out: the text itself when
 * it fits, else "#" and the BLAKE2b-256 of all of it in hex; never cut, so two requests
 * differing anywhere never share a kept reply or an ETag. */
void league_cache_key(char out[LCACHE_KEY], const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Answers resp from the cache when it holds key at version (its Link header too), gzip-
 * compressed when req's Accept-Encoding takes it and the reply is long enough. A miss
 * makes the caller the one computing (key, version): other requests for it wait (at most
 * 10 s) instead of computing it too, until the caller ends with league_cache_put, or with
 * league_cache_done when it could not compute it. On a thread that may not wait
 * (http_may_wait: a libmicrohttpd thread) such a request is deferred instead (http_defer):
 * true with resp marked, and the caller returns; it runs again on a waiting thread. */
bool league_cache_get(const http_req *req, const char *key, long long version, http_resp *resp);
void league_cache_done(const char *key, long long version);
/* Replies o (taking it) with its Link header (NULL: none; borrowed) and keeps both under
 * (key, version). */
int league_cache_put(const char *key, long long version, http_resp *resp, json_object *o,
                     const char *link);

/* A reply built on a miss of the cache (NULL with *st: a database failure). */
typedef json_object *(*cache_build_fn)(db_conn *c, const http_req *req, const char *season,
                                       const char *game, db_status *st);
/* The reply of key at the league's version with its ETag (a 304 when the client has it), from
 * the cache, else built by build(c, req, season, game) and kept. Returns 0. */
int cache_reply(const http_req *req, http_resp *resp, db_conn *c, long long version, const char *key,
                cache_build_fn build, const char *season, const char *game);

/* ---- ratings.c: the league's result rows (ratings, standings, head-to-head) ---- */

typedef struct {
	const char *play, *member, *name;
	int m;       /* member index 0..nmembers-1 */
	int64_t seq; /* the play's seq (plays.seq): a play's rows share it, each play its own */
	int64_t at;  /* the play's played_at, µs since 1970 (league_rows_load_keyed), else 0 */
	int rank;
	double score;
	bool has_score, winner, coop;
	rating after; /* after this row, in the set last rated (a scope's rating overwrites it) */
	rating line; /* after this row in the whole league (league_rows_rate*): its member's line */
	bool rated;
	const char *key, *date; /* game key and local date (league_rows_load_keyed), else NULL */
} league_row;

typedef struct {
	db_league_results set; /* owns the strings of rows */
	league_row *rows;
	int nrows, nmembers;
} league_rows;

/* Loads the league's results in play order (season/game filters may be NULL). */
db_status league_rows_load(db_conn *c, const char *league, const char *season, const char *game,
                           league_rows *s);
/* Every result of the league in play order, each with its game's key and local date (for
 * the kept scopes: league_recompute). */
db_status league_rows_load_keyed(db_conn *c, const char *league, league_rows *s);
/* Rates the rows in order from default ratings: each row's after, line and rated; cur[m] ends
 * as each member's final rating (cur has nmembers entries, caller-owned). */
void league_rows_rate(league_rows *s, rating *cur);
/* The same from row from on (the first row of a play): rows [0, from) were rated by an earlier
 * league_rows_rate* of the same rows and have not changed since, so each member's rating before
 * row from is the line of the member's last row before it; only rows [from, nrows) are rated. */
void league_rows_rate_from(league_rows *s, int from, rating *cur);
/* The same over the rows idx[0..n) only (in play order; a play's rows all in or all out). */
void league_rows_rate_some(league_rows *s, const int *idx, int n, rating *cur);
void league_rows_free(league_rows *s);

/* A member's standing over a set of rows: what league_standing_add summed, and the rating. */
typedef struct {
	const char *member, *name; /* borrowed */
	int games, wins, scored;
	int64_t rank_sum;
	double score_sum, best;
	bool has_best;
	rating r;
	bool rated; /* played at least one rated play */
} league_standing;
/* Adds row x (rated by league_rows_rate*) to its member's standing p. */
void league_standing_add(league_standing *p, const league_row *x);
/* The standings reply of league (season, game: the filters or NULL; all borrowed) from
 * t[0..n), which it sorts (best ordinal first, then wins, then name); members without games
 * are left out. */
json_object *league_standings_reply(const char *league, const char *season, const char *game,
                                    league_standing *t, int n);

/* ---- plays.c ---- */

/* Appends v (NULL: SQL NULL) to a Postgres array literal being built in a: "{" before the
 * first element, "," before the others; the caller closes it with "}". */
void league_array_elem(sbuf *a, bool first, const char *v);

/* ---- kept.c: a league's rating input kept between its changes ---- */

/* Where a change of one play fell: its game key and local date before (if it was rated) and
 * after (if it is), borrowed from the rows. Only the scopes holding one of them changed. */
typedef struct {
	const char *key[2], *date[2];
	int n;
} league_touch;

typedef struct kept_league kept_league;
/* A kept entry of league (borrowed) made of s (league_rows_load_keyed, then rated by
 * league_rows_rate; taken, s is emptied). */
kept_league *kept_from_rows(const char *league, league_rows *s);
/* Its rows (rated in place by the caller). */
league_rows *kept_rows(kept_league *k);
/* How many of its first rows are as the last rating left them (none changed, moved or added
 * since): a rating may start there (league_rows_rate_from). */
int kept_rated(const kept_league *k);
/* Its rows were all rated again (league_rows_rate_from). */
void kept_rated_all(kept_league *k);
/* Where the last kept_splice's play was and is. */
const league_touch *kept_touch(const kept_league *k);
/* Replaces play's rows in k by rows (league_play_rows_keyed of it; taken; none: the play is
 * gone or no longer rated), placed in play order. False (rows freed, k as it was but to be
 * dropped) when k has taken too many plays already: read the league again. */
bool kept_splice(kept_league *k, const char *play, db_league_results *rows);
/* The entry of league kept at version under this database server, taken out of the table (the
 * caller owns it), or NULL. A stale entry of league is dropped. */
kept_league *kept_take(const char *league, long long version);
void kept_free(kept_league *k);
/* The thread's pending entry, for version (the league's version the transaction wrote; k
 * taken, replaces any). Only between kept_pending_begin and kept_pending_end (league_tx): an
 * entry set elsewhere is dropped at once. kept_pending_end keeps it when the transaction
 * committed, else drops it. */
void kept_pending_set(kept_league *k, long long version);
void kept_pending_begin(void);
void kept_pending_end(bool committed);

/* ---- ratings.c: the ratings after a play added after every other ---- */

/* The ratings after one play of its rated results, to append to their members' lines
 * (member_lines_append): members as an array literal, the ratings as binary arrays in the same
 * order. A zeroed batch is empty. */
typedef struct {
	sbuf members;
	db_f8array mus, sigmas;
	int n;
} league_rating_batch;
/* Adds member's rating r after the play. */
void league_rating_batch_add(league_rating_batch *b, const char *member, rating r);
/* Appends play to the lines of its players with the batch's ratings when st is DB_OK (one
 * statement), frees the batch; returns the statement's status, or st. */
db_status league_rating_batch_append(db_conn *c, const char *league, const char *play,
                                     league_rating_batch *b, db_status st);

/* ---- scopes.c: the kept standings of every scope ---- */

/* Rewrites the kept standings of every scope of the league (the whole league, each season,
 * each game, each season's game) from its rows s (league_rows_load_keyed), rated in order by
 * league_rows_rate with all (nmembers) the final ratings; each other scope's rows are rated
 * again here, scope by scope. With touch (not NULL: one play changed, the scopes kept are
 * those of the rows before it), only the whole league and the scopes holding the play before
 * or after are rewritten. Inside league_recompute's transaction. */
db_status league_scopes_keep(db_conn *c, const char *league, league_rows *s, const rating *all,
                             const league_touch *touch);
/* When play (just added) comes after every other play of the league and the league's scopes
 * are kept: rates it from its players' kept standings in each scope it is in, updates those,
 * appends to the scopes' lines and stores its results' ratings (*done true). Otherwise
 * nothing is written (*done false): the caller rates the whole league. */
db_status league_scopes_append(db_conn *c, const char *league, const char *play, bool *done);

/* ---- io.c: exports and imports ---- */

enum {
	IMPORT_MAX_BODY = 16 * 1024 * 1024,
	IMPORT_MAX_PLAYS = 100000,
	IMPORT_MAX_RESULTS = RATING_MAX_PLAYERS,
	NAME_MAX_BYTES = 256,
};

#define BACKUP_FORMAT "dicehospital-league-backup"

/* io.c */
/* A CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. Text cells that
 * a spreadsheet would run as a formula (= + - @ TAB CR first) get a leading apostrophe. */
void lio_csv_cell(sbuf *s, const char *v, bool text);
/* A number column as text (NULL: SQL NULL) as an integer, 0 when NULL. */
int64_t lio_int_text(const char *v);
/* A stored number as text (NULL: SQL NULL), or NULL when it is not a finite number: a double
 * precision column takes 'Infinity' and 'NaN', which neither JSON nor a score can carry. */
const char *lio_finite_text(const char *v);
json_object *lio_num_text(const char *v);
enum { LIO_NUM_MAX = 64, LIO_UUID_LEN = 36 };
/* The shortest decimal that reads back to d: "45", "0.1" (not "0.10000000000000001"), "-2.5". */
void lio_shortest(double d, char buf[LIO_NUM_MAX]);
/* A score as typed in BG Stats: a decimal number or a sum of them ("20+16+16", "-10+7+22"),
 * the trailing sign of a sum left unfinished ignored ("86+84+"); spaces between the parts.
 * True with the total in *out; false for anything else (words, "", "1e400", "12,5"). */
bool lio_score_parse(const char *s, double *out);
/* A score as BG Stats writes it: what was typed (text), else the shortest decimal of the
 * stored number (v: its text from the database, NULL for none), else null. */
json_object *lio_score_json(const char *v, const char *text);
/* Is s a UUID in RFC 4122 text form: 8-4-4-4-12 hex digits (either case)? */
bool lio_is_uuid(const char *s);
/* A UUID of version 4's form derived from (kind, a, b; b may be NULL): the same inputs give the
 * same UUID in every process, so an export names a play, player, game or location of ours the
 * same way each time and an import can recognise it. */
void lio_derived_uuid(const char *kind, const char *a, const char *b, char out[LIO_UUID_LEN + 1]);
/* A stored play's uuid as an export writes it: itself when in RFC 4122 form, else derived. */
void lio_play_uuid(const char *stored, char out[LIO_UUID_LEN + 1]);
/* Reply body of another content type (text owned by the caller, copied). */
int lio_reply_file(http_resp *resp, const char *ctype, const char *filename, char *body,
                   size_t len);
/* The league's export rows into *rows (caller clears), or false after a reply: every play,
 * a play without results (a BGG play logged without players) as one row with has_result
 * false. */
bool lio_export_rows_all(const http_req *req, http_resp *resp, db_conn *c, const account *acc,
                         league_access *a, db_export_rows *rows);
/* The same, the rows of results only: a play without results is left out. */
bool lio_export_rows(const http_req *req, http_resp *resp, db_conn *c, const account *acc,
                     league_access *a, db_export_rows *rows);
/* Index of s in the list (appending it when new); 1-based (BG Stats ids). */
int lio_intern(const char ***list, int *n, const char *s);
const char *lio_dup(league_import *im, const char *s);
int lio_fail(league_import *im, const char *field, const char *detail);
/* Lists play index of the file (its id in the file or NULL, borrowed) as skipped for reason
 * (a static stable id) with a sentence (copied). */
void lio_skip(league_import *im, int index, const char *id, const char *reason, const char *detail);
/* A new play of the file (index: its position in the file's list of plays) with room for
 * nres results. */
imp_play *lio_new_play(league_import *im, int index, int nres);
/* Ranks an imported play: ranks given for every player as they are (ranks given for only some
 * are dropped); else from the scores (highest first, or lowest first when the file says so, or
 * when that is what its winner flags say); else, or when the winner flags agree with the scores
 * neither way, from the winner flags. field names the play for an error. */
int lio_rank(league_import *im, imp_play *ip, bool lowest_wins, const char *field);
int lio_check_names(league_import *im, imp_play *ip, const char *field);
/* bgstats.c */
int league_parse_bgstats(league_import *im);
/* backup.c */
int league_parse_backup(league_import *im);
/* bggxml.c */
int league_parse_bggxml(league_import *im, const char *body, size_t len);

#endif
