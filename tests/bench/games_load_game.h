/* The game side of the load generator (tests/bench/games_load.c): N tables x 4 seats play
 * complete table-deck ER games through the API, each seat on a connection of its own
 * (games_load_conn.h), every move chosen locally with the rules library; the open loop's
 * schedule of moves; the figures of the measured window. */
#ifndef GAMES_LOAD_GAME_H
#define GAMES_LOAD_GAME_H

#include "games_load_stats.h"

#include <stdbool.h>
#include <stdint.h>

enum { SEATS = 4 };

typedef struct {
	/* settings, filled before game_setup */
	int ntables;
	double rate; /* moves/s on the open loop's schedule; 0: closed loop */
	double duration, warmup;
	uint64_t seed;
	/* the run: new requests may start while running (inside [t0, t0+duration] once t0 is
	 * set); figures cover [wstart, wend] */
	bool running;
	double t0, wstart, wend;
	/* open loop */
	uint64_t slots, starved;
	/* figures */
	vec move_lat, svc_lat, reveal_lat, create_lat;
	uint64_t moves_total, moves_window, reveals, creates, games_completed;
	uint64_t verified, verify_failed;
	int inflight; /* requests in flight */
	int alive;    /* tables that have not failed */
} load_run;

extern load_run G;

/* Loads the rules data from templates/er/ (or $TEMPLATES_DIR): 0, or -1 after printing why. */
int game_load_data(void);

/* The tables, their connections to 127.0.0.1:port on ep, and the schedule's timer (on ep with
 * data.ptr NULL): 0, or -1. */
int game_setup(int ep, int port);

/* Starts the run: every table creates its first game and plays it, as fast as answers come, up
 * to turn i*turns/N for table i, so that the tables' games do not all end together. */
void game_start(void);

/* Opens the measured window at now: t0, the window, every table's next turn, and on the open
 * loop the schedule. */
void game_open_window(void);

/* The schedule's timer fired: sends the moves whose instants have come. 0, or -1. */
int game_timer(void);

/* Closes every connection and frees the tables and the figures. */
void game_free(void);

#endif
