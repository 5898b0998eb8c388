/* Load generator for ER games through the API (tests/bench/games.sh): N tables x 4 seats play
 * complete table-deck games concurrently, in one thread (epoll, HTTP/1.1 keep-alive, one
 * connection per seat). Every move is chosen LOCALLY with the rules library (er_move_options on
 * the seat's sheet, which the client tracks by applying its own moves with er_move_apply): no
 * options request per move, and response bodies are skipped except the create reply and, once
 * per game, the final chief move's reply (to check the server's sheet equals the local one).
 *
 * A table: POST /api/v1/er/games (4 players, "deck":"table", fixed specialists); per turn the
 * host reveals (POST …/turns {"turn","card","dice"}: the client flips an unused card and rolls),
 * the chief (seat (turn-1)%4+1) moves, then the three others move concurrently; after the last
 * turn the table starts a new game.
 *
 * Open loop (--rate R > 0): moves are sent at scheduled instants t0 + k/R, FIFO across the
 * tables that have a move ready; a move's latency is measured from its scheduled instant (no
 * coordinated omission); a slot that finds no move ready is "starved". Reveals and creates are
 * sent as soon as possible and timed separately.
 * Closed loop (--rate 0): every table sends its next request as soon as the previous answered.
 *
 * Setup (unmeasured): every table's first game is created and table i is played, as fast as
 * answers come, up to turn i*turns/N, so that the tables' games do not all end (and new games
 * start) at the same moment. Then both modes run for --duration seconds; figures cover the window
 * [t0 + warmup, t0 + duration] (moves/s: moves answered in it; latencies: moves scheduled in
 * it); requests in flight at the end are drained. Prints one JSON object on stdout.
 *
 * usage: games_load --port P [--tables N] [--rate R] [--seed S] [--duration SEC]
 *                   [--warmup SEC] [--duration-cap SEC]
 * Needs templates/er/ (or $TEMPLATES_DIR) for the rules data. Exit status 1 if any error.
 * With GAMES_LOAD_TRACE=FILE, every answer after t0 is also written to FILE, a line each: kind,
 * table, seat, status, and the instants (s from t0) it was due, sent and answered.
 *
 * This file: the arguments, the event loop and the report. games_load_game.c plays the tables'
 * games and keeps the open loop's schedule, over the HTTP connections of games_load_conn.c;
 * games_load_stats.c holds the clock, the percentiles and the errors. */
#include "games_load_conn.h"
#include "games_load_game.h"
#include "games_load_stats.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>

/* the settings of main's own: the server's port, the cap on the run's wall time */
static struct {
	int port;
	double cap;
} A;

static void usage(void)
{
	fprintf(stderr, "usage: games_load --port P [--tables N] [--rate R] [--seed S] "
	                "[--duration SEC] [--warmup SEC] [--duration-cap SEC]\n");
}

static int parse_args(int argc, char **argv)
{
	G.ntables = 48;
	G.rate = 500;
	G.seed = 1;
	G.duration = 10;
	G.warmup = 1;
	A.cap = 120;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (i + 1 >= argc) {
			usage();
			return -1;
		}
		const char *v = argv[++i];
		char *end;
		double x = strtod(v, &end);
		if (*v == '\0' || *end != '\0' || x < 0) {
			fprintf(stderr, "games_load: bad value for %s: %s\n", a, v);
			return -1;
		}
		if (strcmp(a, "--port") == 0)
			A.port = (int)x;
		else if (strcmp(a, "--tables") == 0)
			G.ntables = (int)x;
		else if (strcmp(a, "--rate") == 0)
			G.rate = x;
		else if (strcmp(a, "--seed") == 0)
			G.seed = (uint64_t)x;
		else if (strcmp(a, "--duration") == 0)
			G.duration = x;
		else if (strcmp(a, "--warmup") == 0)
			G.warmup = x;
		else if (strcmp(a, "--duration-cap") == 0)
			A.cap = x;
		else {
			usage();
			return -1;
		}
	}
	if (A.port < 1 || A.port > 65535 || G.ntables < 1 || G.duration <= 0 ||
	    G.warmup >= G.duration) {
		usage();
		return -1;
	}
	return 0;
}

/* Runs the event loop on ep until pred() is false or the deadline passes. */
static int loop_until(int ep, bool (*pred)(void), double deadline)
{
	struct epoll_event evs[256];
	while (pred()) {
		double left = deadline - now_s();
		if (left <= 0)
			return -1;
		int ms = (int)(left * 1000) + 1;
		int n = epoll_wait(ep, evs, 256, ms > 100 ? 100 : ms);
		if (n < 0 && errno != EINTR)
			return -1;
		for (int i = 0; i < n; i++) {
			if (evs[i].data.ptr == NULL) { /* the schedule timer */
				if (game_timer() != 0)
					return -1;
				continue;
			}
			conn_event(evs[i].data.ptr, evs[i].events);
		}
		if (G.running && G.t0 > 0 && now_s() >= G.t0 + G.duration)
			G.running = false;
	}
	return 0;
}

static bool busy(void)
{
	return G.inflight > 0;
}

static bool run_phase(void)
{
	return (G.running && G.alive > 0) || G.inflight > 0;
}

static double ms(double s)
{
	return isnan(s) ? NAN : round(s * 100000.0) / 100.0;
}

static void add_ms(json_object *o, const char *k, double s)
{
	double v = ms(s);
	json_object_object_add(o, k, isnan(v) ? NULL : json_object_new_double(v));
}

int main(int argc, char **argv)
{
	int rc = 1;
	if (parse_args(argc, argv) != 0)
		return 2;
	if (game_load_data() != 0)
		return 2;
	errors_init();
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0) {
		perror("games_load: setup");
		goto out;
	}
	if (game_setup(ep, A.port) != 0)
		goto out;
	struct rusage ru0, ru1;
	getrusage(RUSAGE_SELF, &ru0);
	double wall0 = now_s();

	/* setup (outside the window): every table's first game, table i played up to turn
	 * i*turns/tables so that the tables do not all finish their games together */
	game_start();
	if (loop_until(ep, busy, wall0 + 30) != 0) {
		fprintf(stderr, "games_load: creating the games timed out\n");
		goto report;
	}

	game_open_window();
	if (loop_until(ep, run_phase, wall0 + A.cap) != 0)
		fprintf(stderr, "games_load: stopped at the duration cap (%.0f s)\n", A.cap);

report:;
	double wall = now_s() - wall0;
	getrusage(RUSAGE_SELF, &ru1);
	double cpu = (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) +
	             (double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) * 1e-6 +
	             (double)(ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
	             (double)(ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) * 1e-6;
	double window = G.duration - G.warmup;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "mode", json_object_new_string(G.rate > 0 ? "open" : "closed"));
	json_object_object_add(o, "offered_rate", json_object_new_double(G.rate));
	json_object_object_add(o, "tables", json_object_new_int(G.ntables));
	json_object_object_add(o, "seats", json_object_new_int(SEATS));
	json_object_object_add(o, "duration_s", json_object_new_double(G.duration));
	json_object_object_add(o, "warmup_s", json_object_new_double(G.warmup));
	json_object_object_add(o, "games_created", json_object_new_int64((int64_t)G.creates));
	json_object_object_add(o, "games_completed",
	                       json_object_new_int64((int64_t)G.games_completed));
	json_object_object_add(o, "moves", json_object_new_int64((int64_t)G.moves_window));
	json_object_object_add(o, "moves_total", json_object_new_int64((int64_t)G.moves_total));
	json_object_object_add(o, "wall_s", json_object_new_double(round(wall * 100) / 100));
	json_object_object_add(
	    o, "moves_per_s",
	    json_object_new_double(round((double)G.moves_window / window * 10) / 10));
	add_ms(o, "p50_ms", pct(&G.move_lat, 50));
	add_ms(o, "p90_ms", pct(&G.move_lat, 90));
	add_ms(o, "p99_ms", pct(&G.move_lat, 99));
	add_ms(o, "max_ms", pct(&G.move_lat, 100));
	add_ms(o, "send_to_reply_p50_ms", pct(&G.svc_lat, 50));
	add_ms(o, "send_to_reply_p99_ms", pct(&G.svc_lat, 99));
	add_ms(o, "reveal_p50_ms", pct(&G.reveal_lat, 50));
	add_ms(o, "reveal_p99_ms", pct(&G.reveal_lat, 99));
	add_ms(o, "create_p50_ms", pct(&G.create_lat, 50));
	add_ms(o, "create_p99_ms", pct(&G.create_lat, 99));
	json_object_object_add(o, "reveals", json_object_new_int64((int64_t)G.reveals));
	json_object_object_add(o, "starved_slots", json_object_new_int64((int64_t)G.starved));
	json_object_object_add(o, "slots", json_object_new_int64((int64_t)G.slots));
	json_object_object_add(o, "connections", json_object_new_int64((int64_t)conn_opened()));
	json_object_object_add(o, "reconnects", json_object_new_int64((int64_t)conn_reconnects()));
	json_object_object_add(o, "sheets_verified", json_object_new_int64((int64_t)G.verified));
	json_object_object_add(o, "client_cpu_s", json_object_new_double(round(cpu * 100) / 100));
	json_object_object_add(o, "errors", json_object_new_int(errors_count()));
	json_object_object_add(o, "first_errors", json_object_get(errors_first()));
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	rc = errors_count() ? 1 : 0;
out:
	game_free();
	errors_free();
	if (ep >= 0)
		close(ep);
	return rc;
}
