/* The game side of the load generator (games_load_game.h): the tables, the requests of their
 * games and what each reply starts next, the open loop's schedule, and the run's set-up. */
#include "games_load_game.h"

#include "er_fixture.h"
#include "games_load_conn.h"
#include "rules/er.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

typedef enum { REQ_NONE, REQ_CREATE, REQ_REVEAL, REQ_MOVE } req_kind;

typedef struct table {
	int idx;
	conn c[SEATS]; /* seat s+1's connection: its moves; seat 1's also create and reveal */
	uint64_t rng;
	char id[64], host[128], tok[SEATS][128];
	int turns, turn, chief, pending, games;
	int prefill; /* turns of the first game played before t0 (desynchronises the tables) */
	int cards[ER_CARDS];
	er_sheet sheet[SEATS];
	er_turn base; /* card and dice of this turn */
	er_colour chief_die;
	char move_json[SEATS][512];
	er_move move[SEATS];
	bool dead;
} table;

typedef struct {
	table *t;
	int seat;
} ready_move;

load_run G;

static struct {
	er_data d;
	table *tables;
	int tfd; /* the open loop's timer */
	/* open loop: the moves ready, FIFO across the tables, and the next slot */
	ready_move *fifo;
	size_t fhead, fcount, fcap;
	uint64_t k;
} S = {.tfd = -1};

static uint64_t rnd(uint64_t *s) /* splitmix64 */
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static int rnd_below(uint64_t *s, int n)
{
	return (int)(rnd(s) % (uint64_t)n);
}

/* ---- the game ---- */

static void next_turn(table *t);
static void start_game(table *t);
static void move_ready(table *t, int seat);

static const char *colour(er_colour c)
{
	return er_colour_name(c);
}

static void table_fail(table *t)
{
	if (!t->dead)
		G.alive--;
	t->dead = true;
}

static void request_failed(conn *c, const char *why)
{
	static const char *const kinds[] = {"none", "create", "reveal", "move"};
	record_error(kinds[c->kind], 0, why, strlen(why));
	c->kind = REQ_NONE;
	G.inflight--;
	table_fail(c->owner);
}

/* Sends a request of the game on c (seat 1's carries create and reveal); its reply comes to
 * response_done, its loss to request_failed. */
static void start_request(conn *c, req_kind kind, const char *path, const char *token,
                          const char *body, bool want_body, double sched)
{
	c->kind = kind;
	c->sched = sched;
	c->sent = now_s();
	G.inflight++;
	const char *why =
	    conn_request(c, path, token, body, kind == REQ_CREATE ? 201 : 200, want_body);
	if (why)
		request_failed(c, why);
}

/* Builds seat's move for this turn from a random legal option, into t->move / t->move_json. */
static int choose_move(table *t, int seat)
{
	er_turn tu = t->base;
	tu.chief = seat == t->chief;
	tu.chief_die = tu.chief ? ER_NO_COLOUR : t->chief_die;
	static er_option opts[ER_MAX_OPTIONS];
	int n = er_move_options(&S.d, &tu, &t->sheet[seat - 1], false, opts, ER_MAX_OPTIONS);
	er_move m = {.die = ER_NO_COLOUR};
	const er_card *card = &S.d.cards[tu.card - 1];
	if (n > 0) {
		er_move_from_option(&S.d, &tu, &opts[rnd_below(&t->rng, n)], &m);
	} else {
		er_colour free[ER_DICE];
		int nf = 0;
		for (int c = 0; c < ER_DICE; c++)
			if (tu.chief || c != (int)tu.chief_die)
				free[nf++] = (er_colour)c;
		m.die = free[rnd_below(&t->rng, nf)];
		m.steps[m.nsteps++] = (er_step){
		    .kind = ER_STEP_MORGUE, .patient = ER_PT_DIE, .recolour = ER_NO_COLOUR};
		if (card->bay[m.die].kind == ER_BONUS_EXTRA)
			m.steps[m.nsteps++] = (er_step){.kind = ER_STEP_MORGUE,
			                                .patient = ER_PT_EXTRA,
			                                .recolour = ER_NO_COLOUR};
	}
	er_sheet s = t->sheet[seat - 1];
	er_result r = er_move_apply(&S.d, &tu, &m, false, &s);
	if (r.rule) {
		record_error("local", 0, r.detail, strlen(r.detail));
		return -1;
	}
	t->move[seat - 1] = m;
	/* JSON (api.md): wards 1..7 */
	char *p = t->move_json[seat - 1];
	size_t cap = sizeof t->move_json[seat - 1], len = 0;
	len += (size_t)snprintf(p + len, cap - len,
	                        "{\"turn\":%d,\"move\":{\"die\":\"%s\",\"steps\":[", t->turn,
	                        colour(m.die));
	for (int i = 0; i < m.nsteps && len < cap; i++) {
		const er_step *st = &m.steps[i];
		const char *sep = i ? "," : "";
		const char *pt = st->patient == ER_PT_DIE ? "die" : "extra";
		if (st->kind == ER_STEP_SCREEN)
			len += (size_t)snprintf(p + len, cap - len, "%s{\"screen\":%d}", sep,
			                        st->ward + 1);
		else if (st->kind == ER_STEP_MORGUE)
			len +=
			    (size_t)snprintf(p + len, cap - len, "%s{\"morgue\":\"%s\"}", sep, pt);
		else if (st->recolour == ER_NO_COLOUR)
			len += (size_t)snprintf(
			    p + len, cap - len,
			    "%s{\"admit\":\"%s\",\"ward\":%d,\"value\":%d,\"recolour\":null}", sep,
			    pt, st->ward + 1, st->value);
		else
			len += (size_t)snprintf(
			    p + len, cap - len,
			    "%s{\"admit\":\"%s\",\"ward\":%d,\"value\":%d,\"recolour\":\"%s\"}",
			    sep, pt, st->ward + 1, st->value, colour(st->recolour));
	}
	if (len < cap)
		len += (size_t)snprintf(p + len, cap - len, "]}}");
	if (len >= cap) {
		record_error("local", 0, "move JSON too long", 18);
		return -1;
	}
	return 0;
}

static void send_move(table *t, int seat, double sched)
{
	char path[160];
	snprintf(path, sizeof path, "/api/v1/er/games/%s/seats/%d/moves", t->id, seat);
	conn *c = &t->c[seat - 1];
	/* the last turn's chief reply carries the sheets: checked against the local one */
	bool verify = seat == t->chief && t->turn == t->turns;
	start_request(c, REQ_MOVE, path, t->tok[seat - 1], t->move_json[seat - 1], verify, sched);
}

static void move_ready(table *t, int seat)
{
	if (!G.running)
		return;
	if (G.rate > 0 && G.t0 > 0) {
		if (S.fcount == S.fcap) { /* cannot happen: ≤ 3 ready moves per table */
			record_error("local", 0, "ready queue full", 16);
			return;
		}
		S.fifo[(S.fhead + S.fcount++) % S.fcap] = (ready_move){t, seat};
	} else {
		send_move(t, seat, now_s());
	}
}

static void start_game(table *t)
{
	if (!G.running && G.t0 > 0)
		return;
	char body[512];
	int n = snprintf(body, sizeof body, "{\"players\":[");
	for (int s = 1; s <= SEATS; s++)
		n += snprintf(body + n, sizeof body - (size_t)n, "%s{\"name\":\"T%dG%dS%d\"}",
		              s > 1 ? "," : "", t->idx, t->games, s);
	snprintf(body + n, sizeof body - (size_t)n,
	         "],\"deck\":\"table\",\"specialists\":{\"cardiologists\":[\"stethoscopes-8\","
	         "\"nurses-3\"],\"radiologist\":\"xray-high-values\",\"epidemiologist\":"
	         "\"line-of-3\"}}");
	t->games++;
	start_request(&t->c[0], REQ_CREATE, "/api/v1/er/games", NULL, body, true, now_s());
}

static int copy_str(json_object *o, const char *key, char *dst, size_t cap)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return -1;
	const char *s = json_object_get_string(v);
	if (strlen(s) >= cap)
		return -1;
	strcpy(dst, s);
	return 0;
}

static int on_created(table *t, const char *body)
{
	json_object *o = json_tokener_parse(body);
	int rc = -1;
	if (o == NULL)
		return -1;
	json_object *seats, *v;
	if (copy_str(o, "id", t->id, sizeof t->id) != 0 ||
	    copy_str(o, "host_token", t->host, sizeof t->host) != 0 ||
	    !json_object_object_get_ex(o, "turns", &v) ||
	    !json_object_object_get_ex(o, "seats", &seats) ||
	    json_object_array_length(seats) != SEATS)
		goto out;
	t->turns = json_object_get_int(v);
	if (t->turns < 1 || t->turns > ER_CARDS)
		goto out;
	for (int s = 0; s < SEATS; s++) {
		json_object *so = json_object_array_get_idx(seats, (size_t)s), *sn;
		if (!json_object_object_get_ex(so, "seat", &sn) ||
		    json_object_get_int(sn) != s + 1 ||
		    copy_str(so, "seat_token", t->tok[s], sizeof t->tok[s]) != 0)
			goto out;
		er_sheet_init(&t->sheet[s], &S.d, false, 0);
	}
	for (int i = 0; i < ER_CARDS; i++)
		t->cards[i] = i + 1;
	for (int i = ER_CARDS - 1; i > 0; i--) {
		int j = rnd_below(&t->rng, i + 1), x = t->cards[i];
		t->cards[i] = t->cards[j];
		t->cards[j] = x;
	}
	t->turn = 0;
	t->prefill = G.t0 > 0 ? 0 : t->idx * t->turns / G.ntables;
	rc = 0;
out:
	json_object_put(o);
	return rc;
}

static int jint(json_object *o, const char *key, int *out)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return -1;
	*out = json_object_get_int(v);
	return 0;
}

static bool jbool(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

/* The server's sheet of seat (1-based) in a game state equals the local one (cardiologist
 * points, added by the server at turn close, excepted). */
static bool sheet_matches(const char *body, int seat, const er_sheet *s)
{
	json_object *o = json_tokener_parse(body), *seats, *so, *sh, *wards, *v;
	bool ok = false;
	int x, y;
	if (o == NULL || !json_object_object_get_ex(o, "seats", &seats) ||
	    (so = json_object_array_get_idx(seats, (size_t)seat - 1)) == NULL ||
	    !json_object_object_get_ex(so, "sheet", &sh) ||
	    !json_object_object_get_ex(sh, "wards", &wards) ||
	    json_object_array_length(wards) != ER_WARDS)
		goto out;
	for (int w = 0; w < ER_WARDS; w++) {
		json_object *wa = json_object_array_get_idx(wards, (size_t)w);
		if ((int)json_object_array_length(wa) != s->count[w])
			goto out;
		for (int i = 0; i < s->count[w]; i++) {
			json_object *p = json_object_array_get_idx(wa, (size_t)i);
			const er_patient *lp = &s->ward[w][i];
			if (jint(p, "value", &x) != 0 || x != lp->value ||
			    jbool(p, "critical") != lp->critical ||
			    jbool(p, "screen") != lp->screen)
				goto out;
		}
	}
	if (!json_object_object_get_ex(sh, "nurses_crossed", &v))
		goto out;
	bool crossed[ER_WARDS] = {false};
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		int w = json_object_get_int(json_object_array_get_idx(v, i));
		if (w < 1 || w > ER_WARDS)
			goto out;
		crossed[w - 1] = true;
	}
	for (int w = 0; w < ER_WARDS; w++)
		if (crossed[w] != s->nurse_crossed[w])
			goto out;
	if (jint(sh, "nurse_track", &x) != 0 || x != s->nurse_track ||
	    jint(sh, "morgue", &x) != 0 || x != s->morgue)
		goto out;
	if (!json_object_object_get_ex(sh, "stethoscopes", &v) || jint(v, "circled", &x) != 0 ||
	    jint(v, "used", &y) != 0 || x != s->steth_circled || y != s->steth_used)
		goto out;
	if (!json_object_object_get_ex(sh, "blood_bags", &v) || jint(v, "circled", &x) != 0 ||
	    jint(v, "used", &y) != 0 || x != s->blood_circled || y != s->blood_used)
		goto out;
	ok = true;
out:
	json_object_put(o);
	return ok;
}

static void next_turn(table *t)
{
	if (t->dead)
		return;
	if (t->turn >= t->turns) {
		G.games_completed++;
		start_game(t);
		return;
	}
	if (!G.running || (G.t0 == 0 && t->turn >= t->prefill))
		return;
	t->turn++;
	t->base = (er_turn){.card = t->cards[t->turn - 1], .chief_die = ER_NO_COLOUR};
	for (int c = 0; c < ER_DICE; c++)
		t->base.dice[c] = (int8_t)(1 + rnd_below(&t->rng, 6));
	t->chief = (t->turn - 1) % SEATS + 1; /* seat 1 first, then clockwise */
	t->chief_die = ER_NO_COLOUR;
	char path[128], body[128];
	snprintf(path, sizeof path, "/api/v1/er/games/%s/turns", t->id);
	snprintf(body, sizeof body,
	         "{\"turn\":%d,\"card\":%d,\"dice\":{\"red\":%d,\"yellow\":%d,\"green\":%d}}",
	         t->turn, t->base.card, t->base.dice[0], t->base.dice[1], t->base.dice[2]);
	start_request(&t->c[0], REQ_REVEAL, path, t->host, body, false, now_s());
}

static bool in_window(double x)
{
	return x >= G.wstart && x <= G.wend;
}

/* With GAMES_LOAD_TRACE=FILE, a line per answer: its kind, table and seat, status, and the
 * instants (seconds from t0) it was scheduled (moves; otherwise sent), sent and answered, so
 * that a tail can be set beside the server's log. Opened at the first answer, closed at exit. */
static void trace(const conn *c, const table *t, int kind, double now)
{
	static FILE *f;
	static bool tried;
	if (!tried) {
		tried = true;
		const char *path = getenv("GAMES_LOAD_TRACE");
		if (path && *path && !(f = fopen(path, "w")))
			perror("games_load: GAMES_LOAD_TRACE");
	}
	if (!f || G.t0 <= 0)
		return;
	static const char *const kinds[] = {"none", "create", "reveal", "move"};
	double sched = kind == REQ_MOVE ? c->sched : c->sent;
	fprintf(f, "%s %d %d %d %.6f %.6f %.6f\n", kinds[kind], t->idx, c->seat, c->status,
	        sched - G.t0, c->sent - G.t0, now - G.t0);
}

static void response_done(conn *c)
{
	table *t = c->owner;
	double now = now_s();
	req_kind kind = c->kind;
	int expect = kind == REQ_CREATE ? 201 : 200;
	trace(c, t, kind, now);
	c->kind = REQ_NONE;
	G.inflight--;
	if (c->status != expect) {
		static const char *const kinds[] = {"none", "create", "reveal", "move"};
		record_error(kinds[kind], c->status, c->body, c->blen);
		table_fail(t);
		return;
	}
	switch (kind) {
	case REQ_CREATE:
		if (in_window(c->sent))
			vec_push(&G.create_lat, now - c->sent);
		G.creates++;
		if (on_created(t, c->body ? c->body : "") != 0) {
			record_error("create", c->status, "unexpected create reply", 23);
			table_fail(t);
			return;
		}
		next_turn(t);
		break;
	case REQ_REVEAL:
		if (in_window(c->sent))
			vec_push(&G.reveal_lat, now - c->sent);
		G.reveals++;
		if (choose_move(t, t->chief) != 0) {
			table_fail(t);
			return;
		}
		move_ready(t, t->chief);
		break;
	case REQ_MOVE: {
		int seat = c->seat; /* a seat's moves go on its own connection */
		er_turn tu = t->base;
		tu.chief = seat == t->chief;
		tu.chief_die = tu.chief ? ER_NO_COLOUR : t->chief_die;
		er_result r =
		    er_move_apply(&S.d, &tu, &t->move[seat - 1], false, &t->sheet[seat - 1]);
		if (r.rule) { /* checked in choose_move: cannot happen */
			record_error("local", 0, r.detail, strlen(r.detail));
			table_fail(t);
			return;
		}
		G.moves_total++;
		if (in_window(now))
			G.moves_window++;
		if (in_window(c->sched)) {
			vec_push(&G.move_lat, now - c->sched);
			vec_push(&G.svc_lat, now - c->sent);
		}
		if (c->want_body) {
			if (sheet_matches(c->body ? c->body : "", seat, &t->sheet[seat - 1])) {
				G.verified++;
			} else {
				G.verify_failed++;
				record_error("verify", c->status, "final sheet differs from local",
				             30);
			}
		}
		if (seat == t->chief) {
			t->chief_die = t->move[seat - 1].die;
			t->pending = SEATS - 1;
			for (int s = 1; s <= SEATS; s++) {
				if (s == t->chief)
					continue;
				if (choose_move(t, s) != 0) {
					table_fail(t);
					return;
				}
			}
			for (int s = 1; s <= SEATS; s++)
				if (s != t->chief)
					move_ready(t, s);
		} else if (--t->pending == 0) {
			next_turn(t);
		}
		break;
	}
	case REQ_NONE:
		break;
	}
}

/* ---- open-loop schedule ---- */

static void arm_timer(double at)
{
	struct timespec ts = {.tv_sec = (time_t)at, .tv_nsec = (long)((at - floor(at)) * 1e9)};
	if (ts.tv_sec == 0 && ts.tv_nsec == 0)
		ts.tv_nsec = 1;
	struct itimerspec it = {.it_value = ts};
	timerfd_settime(S.tfd, TFD_TIMER_ABSTIME, &it, NULL);
}

static void run_slots(void)
{
	double now = now_s();
	for (;;) {
		double at = G.t0 + (double)S.k / G.rate;
		if (at >= G.t0 + G.duration) {
			G.running = false;
			return;
		}
		if (at > now) {
			arm_timer(at);
			return;
		}
		S.k++;
		G.slots++;
		if (S.fcount == 0) {
			G.starved++;
			continue;
		}
		ready_move r = S.fifo[S.fhead];
		S.fhead = (S.fhead + 1) % S.fcap;
		S.fcount--;
		send_move(r.t, r.seat, at);
	}
}

/* ---- the run ---- */

int game_load_data(void)
{
	return er_fixture_load(&S.d);
}

int game_setup(int ep, int port)
{
	conn_setup(ep, port, response_done, request_failed);
	S.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	S.tables = calloc((size_t)G.ntables, sizeof *S.tables);
	S.fcap = (size_t)G.ntables * SEATS;
	S.fifo = calloc(S.fcap, sizeof *S.fifo);
	if (S.tfd < 0 || S.tables == NULL || S.fifo == NULL) {
		perror("games_load: setup");
		return -1;
	}
	struct epoll_event tev = {.events = EPOLLIN, .data.ptr = NULL};
	if (epoll_ctl(ep, EPOLL_CTL_ADD, S.tfd, &tev) != 0) {
		perror("games_load: epoll");
		return -1;
	}
	uint64_t seed = G.seed * 0x9E3779B97F4A7C15ull + 1;
	G.alive = G.ntables;
	for (int i = 0; i < G.ntables; i++) {
		table *t = &S.tables[i];
		t->idx = i;
		t->rng = rnd(&seed);
		for (int s = 0; s < SEATS; s++)
			t->c[s] = (conn){.fd = -1, .owner = t, .seat = s + 1};
	}
	return 0;
}

void game_start(void)
{
	G.running = true;
	for (int i = 0; i < G.ntables; i++)
		start_game(&S.tables[i]);
}

void game_open_window(void)
{
	G.t0 = now_s();
	G.wstart = G.t0 + G.warmup;
	G.wend = G.t0 + G.duration;
	for (int i = 0; i < G.ntables; i++)
		next_turn(&S.tables[i]);
	if (G.rate > 0)
		run_slots();
}

int game_timer(void)
{
	uint64_t exp;
	if (read(S.tfd, &exp, sizeof exp) < 0 && errno != EAGAIN)
		return -1;
	run_slots();
	return 0;
}

void game_free(void)
{
	if (S.tables)
		for (int i = 0; i < G.ntables; i++)
			for (int s = 0; s < SEATS; s++)
				conn_free(&S.tables[i].c[s]);
	free(S.tables);
	free(S.fifo);
	free(G.move_lat.v);
	free(G.svc_lat.v);
	free(G.reveal_lat.v);
	free(G.create_lat.v);
	if (S.tfd >= 0)
		close(S.tfd);
}
