/* The coach's searches in flight: each analysis of a stored game's seat that was asked for and
 * is not stored yet, from the ask that started it (answered 202) to the moment it is stored.
 *
 * A search is keyed by (game, seat, width). The first ask queues it (the asker's reply then
 * runs coach_runs_take's search after it is sent, on the job thread: http_resp.after); every
 * ask meanwhile is told it runs; the search stores its analysis and ends, and asks read the
 * store again. A search that failed (the database went away) is told to the next ask, once,
 * and forgotten; an untold failure is forgotten after COACH_RUNS_FAILED_S.
 *
 * Thread-safe (one mutex, held for a table walk). Ownership: a queued search owns its game
 * (taken by coach_runs_ask, handed to the taker by coach_runs_take). */
#ifndef ER_COACH_RUNS_H
#define ER_COACH_RUNS_H

#include "rules/er_coach.h"

#include <stddef.h>

enum {
	COACH_RUNS_MAX = 32,      /* searches queued, running or failed at once */
	COACH_RUNS_FAILED_S = 60, /* an untold failure is forgotten after this long */
	COACH_RUNS_GAME_ID = 64,  /* a game id's bytes, NUL included */
	COACH_RUNS_DETAIL = 128,  /* a failure's sentence, NUL included */
};

typedef struct {
	char game[COACH_RUNS_GAME_ID];
	int seat, width;
} coach_run_key;

typedef enum {
	COACH_RUN_ABSENT,  /* none in flight: *g was NULL (load the game and ask again) */
	COACH_RUN_STARTED, /* queued by this ask (it took *g): run coach_runs_take after the reply
	                    */
	COACH_RUN_RUNNING, /* queued or running already */
	COACH_RUN_FAILED,  /* the last one failed: its status and detail are the reply */
	COACH_RUN_FULL,    /* COACH_RUNS_MAX in flight: try again shortly */
} coach_run_state;

/* A failure told to an ask. */
typedef struct {
	int status; /* an HTTP status: 503, 500 */
	char detail[COACH_RUNS_DETAIL];
} coach_run_failure;

/* Asks for key's search. *g: NULL to ask whether one is in flight, or the seat's game
 * (malloc'ed), taken (set to NULL) when this call queues the search. fail is filled for
 * COACH_RUN_FAILED. */
coach_run_state coach_runs_ask(const coach_run_key *key, er_coach_game **g,
                               coach_run_failure *fail);

/* Takes the oldest queued search and marks it running: *key filled and its game returned (the
 * caller owns it and calls coach_runs_end), or NULL when none is queued. */
er_coach_game *coach_runs_take(coach_run_key *key);

/* key's running search ended: fail NULL when its analysis is stored (the search is forgotten),
 * else the failure the next ask is told. */
void coach_runs_end(const coach_run_key *key, const coach_run_failure *fail);

/* Forgets every search and frees the queued games (a unit test's fresh start). */
void coach_runs_reset(void);

#endif
