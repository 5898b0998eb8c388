/* The pictures of a league (stats.c, recap.c): one pass over the rows of db_league_stat_rows
 * builds a `stats` (ratings, members in standings order, head-to-head), and the JSON of each
 * route is read off it.
 *
 * Ratings: nothing is rated per request. Without filters, each row's rating is the one stored
 * after its play (the member's line, member_lines, written by the recompute); with a season or
 * game filter, the rating after each row of the filter's scope, kept by the recompute too
 * (league_scope_lines, scopes.c), so the player page shows the rating the filtered standings
 * show. Only a scope that is not kept (a season added since the last change of the plays, a
 * game filter naming several games) has its plays rated here, as its standings are. */
#ifndef LEAGUES_PICTURES_H
#define LEAGUES_PICTURES_H

#include "db/leagues.h"
#include "rules/rating.h"

#include <json-c/json.h>
#include <stdbool.h>

enum {
	STATS_POINTS = 200, /* a line's points on the league page, at most */
	STATS_VALUES = 200, /* scores listed per game, at most */
	STATS_TOP = 5,      /* players drawn on the league page's rating chart */
	STATS_RIVALS = 3,   /* plays together before a nemesis or a victim is named */
};

typedef struct {
	const db_stat_row *y; /* borrowed from the row set */
	rating after;         /* the player's rating after this play */
	bool rated;
} srow;

typedef struct {
	const char *member, *name; /* borrowed; NULL: no row of this member */
	int games, wins, streak, longest, npoints;
	rating r;
} smember;

typedef struct {
	int games, above, below, ties; /* as opponents */
	int teammate;                  /* plays on one team */
} sh2h;

typedef struct {
	srow *rows; /* owned */
	int n, nm, ng;
	smember *mem; /* owned; nm, by the rows' member index */
	int *order;   /* owned; member indexes with rows, in standings order */
	int nplayers; /* entries of order */
	sh2h *h2h;    /* owned; nm × nm, or NULL past H2H_MAX_PLAYERS */
} stats;

/* Builds s from rows[0..n) (borrowed; all of one league, in play order, member and game
 * indexes below nm and ng). filtered: a season or game filter applies, whose kept line is
 * line (empty when the scope is not kept: its plays are rated here). */
void pictures_build(stats *s, const db_stat_row *const *rows, int n, int nm, int ng, bool filtered,
                    const db_scope_line *line);
void pictures_free(stats *s);
/* How many members and games the rows of set index (nm, ng). */
void pictures_counts(const db_stat_rows *set, int *nm, int *ng);
/* The league page's pictures of s: players with their rating lines, scores, head-to-head,
 * months (caller owns). */
json_object *pictures_league_json(const stats *s);
/* Member m's rating points as a JSON array (caller owns): every one (cap 0), or at most cap
 * evenly thinned, the first and the last kept. A point: play, date, [game and rank: full],
 * mu, sigma, ordinal, [provisional: full]. */
json_object *pictures_points_json(const stats *s, int m, int cap, bool full);
/* The rows of the pictures (filters season and game: NULL for none) and the kept line of the
 * scope of line_season and game, read in one snapshot: the rows, the members' lines and the
 * scope's line of one version of the league. On success the caller clears *set and frees
 * *line (pictures_line_free); on failure both are empty. */
db_status pictures_read(db_conn *c, const char *league, const char *season, const char *game,
                        const char *line_season, db_stat_rows *set, db_scope_line *line);
void pictures_line_free(db_scope_line *l);

#endif
