/* What the files of src/leagues/ share and nobody else uses. */
#ifndef LEAGUES_INTERNAL_H
#define LEAGUES_INTERNAL_H

#include "base/sbuf.h"
#include "db/db.h"
#include "http/http.h"
#include "leagues/leagues.h"
#include "rules/rating.h"

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

#endif
