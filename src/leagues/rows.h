/* A league's results as rows in play order, rated from default ratings (rows.c): what the
 * recompute, the kept state, the scopes and the standings read. A member's standing over a
 * set of rows; the ratings after one play, appended to its players' lines; stored numbers
 * and ratings as JSON; Postgres array literals. */
#ifndef LEAGUES_ROWS_H
#define LEAGUES_ROWS_H

#include "base/sbuf.h"
#include "db/db.h"
#include "db/leagues.h"
#include "rules/rating.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

/* Results per play (a rating's limit) and players of a head-to-head table, at most. */
enum { MAX_RESULTS = RATING_MAX_PLAYERS, H2H_MAX_PLAYERS = 1024 };

typedef struct {
	const char *play, *member, *name;
	int m;       /* member index 0..nmembers-1 */
	int64_t seq; /* the play's seq (plays.seq): a play's rows share it, each play its own */
	int64_t at;  /* the play's played_at, µs since 1970 (rows_load_keyed), else 0 */
	int rank;
	double score;
	bool has_score, winner, coop;
	const char *team; /* the seat's team in a game played in teams, or NULL: alone */
	rating after; /* after this row, in the set last rated (a scope's rating overwrites it) */
	rating line;  /* after this row in the whole league (rows_rate*): its member's line */
	bool rated;
	const char *key, *date; /* game key and local date (rows_load_keyed), else NULL */
} league_row;

typedef struct {
	db_league_results set; /* owns the strings of rows */
	league_row *rows;
	int nrows, nmembers;
} league_rows;

/* The teams of one play's n seats for rating_rate_teams: id[k] is the first seat with seat k's
 * team (team[k] NULL: k itself, alone). */
void rows_team_ids(const char *const *team, int n, int *id);

/* Are the two seats of one play teammates (the same team, not NULL)? */
bool rows_teammates(const char *a, const char *b);

/* Loads the league's results in play order (season/game filters may be NULL). */
db_status rows_load(db_conn *c, const char *league, const char *season, const char *game,
                    league_rows *s);

/* Every result of the league in play order, each with its game's key and local date (for
 * the kept scopes: ratings_recompute). */
db_status rows_load_keyed(db_conn *c, const char *league, league_rows *s);

/* Rates the rows in order from default ratings: each row's after, line and rated; cur[m] ends
 * as each member's final rating (cur has nmembers entries, caller-owned). */
void rows_rate(league_rows *s, rating *cur);

/* The same from row from on (the first row of a play): rows [0, from) were rated by an earlier
 * rows_rate* of the same rows and have not changed since, so each member's rating before
 * row from is the line of the member's last row before it; only rows [from, nrows) are rated. */
void rows_rate_from(league_rows *s, int from, rating *cur);

/* The same over the rows idx[0..n) only (in play order; a play's rows all in or all out). */
void rows_rate_some(league_rows *s, const int *idx, int n, rating *cur);

void rows_free(league_rows *s);

/* A member's standing over a set of rows: what rows_standing_add summed, and the rating. */
typedef struct {
	const char *member, *name; /* borrowed */
	int games, wins, scored;
	int64_t rank_sum;
	double score_sum, best;
	bool has_best;
	rating r;
	bool rated; /* played at least one rated play */
} league_standing;

/* Adds row x (rated by rows_rate*) to its member's standing p. */
void rows_standing_add(league_standing *p, const league_row *x);

/* The ratings after one play of its rated results, to append to their members' lines
 * (member_lines_append): members as an array literal, the ratings as binary arrays in the same
 * order. A zeroed batch is empty. */
typedef struct {
	sbuf members;
	db_f8array mus, sigmas;
	int n;
} league_rating_batch;

/* Adds member's rating r after the play. */
void rows_batch_add(league_rating_batch *b, const char *member, rating r);

/* Appends play to the lines of its players with the batch's ratings when st is DB_OK (one
 * statement), frees the batch; returns the statement's status, or st. */
db_status rows_batch_append(db_conn *c, const char *league, const char *play,
                            league_rating_batch *b, db_status st);

/* Appends v (NULL: SQL NULL) to a Postgres array literal being built in a: "{" before the
 * first element, "," before the others; the caller closes it with "}". */
void rows_array_elem(sbuf *a, bool first, const char *v);

/* A stored number (score) as JSON: an integer when it is one, null when absent. */
json_object *rows_num_json(bool has, double d);

json_object *rows_rating_json(rating r);

#endif
