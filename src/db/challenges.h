/* Typed rows of league challenges (migrations/0030_er_challenges.sql; run by
 * src/leagues/challenges.c): the challenge, its attempts (one ER game per member), and its
 * closing. Single rows fill caller-owned structs; row sets own their result and their rows
 * borrow its strings until db_rowset_clear. Parameters are text (NULL for SQL NULL). */
#ifndef DB_CHALLENGES_H
#define DB_CHALLENGES_H

#include "db/leagues.h"

/* challenge_insert: a new challenge (opens NULL: now); *inserted false when it would close
 * before it opens. */
db_status db_challenge_insert(db_conn *c, const char *id, const char *league, const char *name,
                              const char *body, bool solo, const char *opens, const char *closes,
                              const char *code, const char *by, bool *inserted);

/* challenge_get / challenge_by_code / challenge_lock (FOR UPDATE): one challenge with what the
 * clock says of it now (found false when there is none). `body` is the create body of its
 * games (the seed: never sent to a client); `ends` is when it ends as a play (its closing
 * time, or now when closed earlier). */
typedef struct {
	bool found, solo, open, due, closed;
	char id[DB_LG_ID_MAX + 1], league[DB_LG_ID_MAX + 1], league_name[DB_LG_NAME_MAX + 1];
	char name[DB_LG_NAME_MAX + 1], code[DB_LG_ID_MAX + 1];
	char opens[DB_LG_TIME_MAX + 1], closes[DB_LG_TIME_MAX + 1], closed_at[DB_LG_TIME_MAX + 1];
	char ends[DB_LG_TIME_MAX + 1], play[DB_LG_ID_MAX + 1], best_game[DB_LG_ID_MAX + 1];
	char best_token[128];
	char body[1024];
} db_challenge;
db_status db_challenge_get(db_conn *c, const char *id, const char *league, db_challenge *out);
db_status db_challenge_by_code(db_conn *c, const char *code, db_challenge *out);
db_status db_challenge_lock(db_conn *c, const char *id, db_challenge *out);

/* challenges_of_league: the league's challenges, the latest opening first, with the clock's
 * word on each and how many attempts finished. */
typedef struct {
	const char *id, *name, *opens, *closes, *closed_at;
	bool solo, open, due, closed;
	long long finished, started;
} db_challenge_row;
typedef DB_ROWSET(db_challenge_row) db_challenge_rows;
db_status db_challenges_of_league(db_conn *c, const char *league, db_challenge_rows *out);

/* challenge_attempt_insert: member's attempt (game); *inserted false when the member has one. */
db_status db_challenge_attempt_insert(db_conn *c, const char *challenge, const char *member,
                                      const char *game, bool *inserted);

/* challenge_attempts: every attempt, finished ones first by score (best first), then by start:
 * member, its name, the game, its join code, whether it finished before the challenge ended
 * (its closing time, or when it was closed: a game finished later counts for nothing), the
 * seat's score and the time it finished ("" while playing). */
typedef struct {
	const char *member, *name, *game, *code, *finished_at;
	bool finished;
	double score;
} db_attempt_row;
typedef DB_ROWSET(db_attempt_row) db_attempt_rows;
db_status db_challenge_attempts(db_conn *c, const char *challenge, db_attempt_rows *out);

/* challenge_close: closed now, with the league play it became (NULL: none finished) and the
 * top finisher's game and read token (NULL: none). */
db_status db_challenge_close(db_conn *c, const char *id, const char *play, const char *best_game,
                             const char *best_token);

/* challenge_counted: game's attempt counted in the play of challenge id (its closing). */
db_status db_challenge_counted(db_conn *c, const char *id, const char *game);

/* challenges_due: challenges past their closing time and not closed yet, the earliest first
 * (at most 100 a call), in every league. */
typedef struct {
	const char *league, *id;
} db_due_challenge;
typedef DB_ROWSET(db_due_challenge) db_due_challenges;
db_status db_challenges_due(db_conn *c, db_due_challenges *out);

#endif
