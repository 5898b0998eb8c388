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

/* Runs fn in a transaction and maps a failure to a reply (fn replies itself on DB_ABORT). */
void league_run_tx(db_conn *c, db_tx_fn fn, void *arg, http_resp *resp);
/* A stored number (score) as JSON: an integer when it is one, null when absent. */
json_object *league_num_json(bool has, double d);
json_object *league_rating_json(rating r);
/* The reply for a database failure (503 while it is away, else 500). */
int league_reply_status(http_resp *resp, db_status st);

/* ---- ratings.c: the league's result rows (ratings, standings, head-to-head) ---- */

typedef struct {
	const char *play, *member, *name;
	int m; /* member index 0..nmembers-1 */
	int rank;
	double score;
	bool has_score, winner, coop;
	bool has_stored;
	rating stored, after;
	bool rated;
} league_row;

typedef struct {
	db_league_results set; /* owns the strings of rows */
	league_row *rows;
	int nrows, nmembers;
} league_rows;

/* Loads the league's results in play order (season/game filters may be NULL). */
db_status league_rows_load(db_conn *c, const char *league, const char *season, const char *game,
                           league_rows *s);
/* Rates the rows in order from the starting ratings cur (one per member), updating cur. */
void league_rows_rate(league_rows *s, rating *cur);
void league_rows_free(league_rows *s);

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
 * a spreadsheet would run as a formula (= + - @ first) get a leading apostrophe. */
void lio_csv_cell(sbuf *s, const char *v, bool text);
/* A number column as text (NULL: SQL NULL) as an integer, 0 when NULL. */
int64_t lio_int_text(const char *v);
/* A stored number as text (NULL: SQL NULL), or NULL when it is not a finite number: a double
 * precision column takes 'Infinity' and 'NaN', which neither JSON nor a score can carry. */
const char *lio_finite_text(const char *v);
json_object *lio_num_text(const char *v);
/* A score as BG Stats writes it: a string ("45", "" for none). */
json_object *lio_score_string(const char *v);
/* Reply body of another content type (text owned by the caller, copied). */
int lio_reply_file(http_resp *resp, const char *ctype, const char *filename, char *body,
                   size_t len);
/* The league's export rows into *rows (caller clears), or false after a reply: every play,
 * a play without results (a BGG play logged without players) as one row with has_result
 * false. */
bool lio_export_rows_all(const http_req *req, http_resp *resp, db_conn *c, league_access *a,
                         db_export_rows *rows);
/* The same, the rows of results only: a play without results is left out. */
bool lio_export_rows(const http_req *req, http_resp *resp, db_conn *c, league_access *a,
                     db_export_rows *rows);
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
/* Ranks an imported play: given ranks as they are; else from the scores (highest first, or
 * lowest first when the file says so, or when that is what its winner flags say); else from
 * the winner flags. field names the play for an error. */
int lio_rank(league_import *im, imp_play *ip, bool lowest_wins, const char *field);
int lio_check_names(league_import *im, imp_play *ip, const char *field);
/* bgstats.c */
int league_parse_bgstats(league_import *im);
/* backup.c */
int league_parse_backup(league_import *im);
/* bggxml.c */
int league_parse_bggxml(league_import *im, const char *body, size_t len);

#endif
