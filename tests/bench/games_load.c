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
 * Needs templates/er/ (or $TEMPLATES_DIR) for the rules data. Exit status 1 if any error. */
#include "er_fixture.h"
#include "rules/er.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

enum { SEATS = 4, MAX_ERRORS_KEPT = 3, HDR_MAX = 8192, REQ_MAX = 2048 };

typedef enum { REQ_NONE, REQ_CREATE, REQ_REVEAL, REQ_MOVE } req_kind;

struct table;

typedef struct {
	int fd;
	struct table *t;
	int seat; /* 1..4: whose connection (create/reveal go over seat 1's) */
	/* request in flight */
	req_kind kind;
	int move_seat;
	bool want_body;
	double sched, sent;
	char out[REQ_MAX];
	size_t outlen, outoff;
	bool used;    /* has carried a complete exchange: may have gone stale */
	bool retried; /* this request was re-sent on a fresh connection once */
	size_t got;   /* response bytes received for this request */
	/* response */
	char hdr[HDR_MAX];
	size_t hlen;
	bool in_body;
	int status;
	bool close_after;
	size_t body_left;
	char *body;
	size_t blen, bcap;
} conn;

typedef struct table {
	int idx;
	conn c[SEATS];
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
	double *v;
	size_t n, cap;
} vec;

typedef struct {
	table *t;
	int seat;
} ready_move;

static struct {
	int port;
	int ntables;
	double rate, duration, warmup, cap;
	uint64_t seed;
	er_data d;
	table *tables;
	int ep, tfd;
	bool running; /* inside [t0, t0+duration]: new requests may start */
	double t0, wstart, wend;
	/* open loop */
	ready_move *fifo;
	size_t fhead, fcount, fcap;
	uint64_t k, slots, starved;
	/* stats */
	vec move_lat, svc_lat, reveal_lat, create_lat;
	uint64_t moves_total, moves_window, reveals, creates, games_completed;
	uint64_t connections, reconnects, verified, verify_failed;
	int errors;
	json_object *first_errors;
	int inflight;
	int alive; /* tables that have not failed */
} G;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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

static int vec_push(vec *v, double x)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 4096;
		double *nv = realloc(v->v, cap * sizeof *nv);
		if (nv == NULL)
			return -1;
		v->v = nv;
		v->cap = cap;
	}
	v->v[v->n++] = x;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Same rule as games_load.py: sorted[round(p/100*(n-1))]; NaN if empty. */
static double pct(vec *v, double p)
{
	if (v->n == 0)
		return NAN;
	qsort(v->v, v->n, sizeof *v->v, cmp_double);
	size_t i = (size_t)llround(p / 100.0 * (double)(v->n - 1));
	return v->v[i < v->n ? i : v->n - 1];
}

static void record_error(const char *what, int status, const char *detail, size_t len)
{
	G.errors++;
	if ((int)json_object_array_length(G.first_errors) >= MAX_ERRORS_KEPT)
		return;
	json_object *e = json_object_new_array();
	json_object_array_add(e, json_object_new_string(what));
	json_object_array_add(e, json_object_new_int(status));
	json_object_array_add(
	    e, json_object_new_string_len(detail ? detail : "",
	                                  detail ? (int)(len > 400 ? 400 : len) : 0));
	json_object_array_add(G.first_errors, e);
}

/* ---- connections ---- */

static void conn_close(conn *c)
{
	if (c->fd >= 0) {
		epoll_ctl(G.ep, EPOLL_CTL_DEL, c->fd, NULL);
		close(c->fd);
	}
	c->fd = -1;
	c->used = false;
}

static int conn_open(conn *c)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)G.port)};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* loopback: a blocking connect returns at once; the socket is non-blocking afterwards */
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(fd);
		return -1;
	}
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (fcntl(fd, F_SETFL, O_NONBLOCK) != 0) {
		close(fd);
		return -1;
	}
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
	if (epoll_ctl(G.ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
		close(fd);
		return -1;
	}
	c->fd = fd;
	c->used = false;
	G.connections++;
	return 0;
}

static void conn_want_out(conn *c, bool on)
{
	struct epoll_event ev = {.events = EPOLLIN | (on ? EPOLLOUT : 0u), .data.ptr = c};
	epoll_ctl(G.ep, EPOLL_CTL_MOD, c->fd, &ev);
}

static void request_failed(conn *c, const char *why);

/* Writes what remains of the request; 0, or -1 (connection broken). */
static int conn_flush(conn *c)
{
	while (c->outoff < c->outlen) {
		ssize_t n = write(c->fd, c->out + c->outoff, c->outlen - c->outoff);
		if (n > 0) {
			c->outoff += (size_t)n;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			conn_want_out(c, true);
			return 0;
		} else {
			return -1;
		}
	}
	return 0;
}

static void conn_reset_response(conn *c)
{
	c->hlen = 0;
	c->in_body = false;
	c->status = 0;
	c->close_after = false;
	c->body_left = 0;
	c->blen = 0;
	c->got = 0;
}

/* (Re)sends c->out on c, opening the connection if needed. 0, or -1 (nothing in flight). */
static int conn_send(conn *c)
{
	conn_reset_response(c);
	c->outoff = 0;
	if (c->fd < 0 && conn_open(c) != 0)
		return -1;
	if (conn_flush(c) != 0) {
		conn_close(c);
		if (conn_open(c) != 0 || (c->outoff = 0, conn_flush(c)) != 0)
			return -1;
		G.reconnects++;
	}
	return 0;
}

static void start_request(conn *c, req_kind kind, const char *path, const char *token,
                          const char *body, bool want_body, double sched)
{
	size_t blen = strlen(body);
	int n = snprintf(c->out, sizeof c->out,
	                 "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
	                 "application/json\r\nContent-Length: %zu\r\n%s%s%s\r\n%s",
	                 path, blen, token ? "Authorization: Bearer " : "", token ? token : "",
	                 token ? "\r\n" : "", body);
	c->kind = kind;
	c->want_body = want_body;
	c->retried = false;
	c->sched = sched;
	c->sent = now_s();
	G.inflight++;
	if (n < 0 || (size_t)n >= sizeof c->out) {
		request_failed(c, "request too large");
		return;
	}
	c->outlen = (size_t)n;
	if (conn_send(c) != 0)
		request_failed(c, "cannot connect/send");
}

static int body_append(conn *c, const char *p, size_t n)
{
	if (c->blen + n + 1 > c->bcap) {
		size_t cap = c->bcap ? c->bcap : 16384;
		while (cap < c->blen + n + 1)
			cap *= 2;
		char *nb = realloc(c->body, cap);
		if (nb == NULL)
			return -1;
		c->body = nb;
		c->bcap = cap;
	}
	memcpy(c->body + c->blen, p, n);
	c->blen += n;
	c->body[c->blen] = '\0';
	return 0;
}

/* Parses the status line and the headers we need. 0, or -1. */
static int parse_head(conn *c, size_t hend)
{
	c->hdr[hend] = '\0';
	if (strncmp(c->hdr, "HTTP/1.", 7) != 0)
		return -1;
	const char *sp = strchr(c->hdr, ' ');
	if (sp == NULL)
		return -1;
	c->status = atoi(sp + 1);
	bool has_len = false;
	for (char *line = strstr(c->hdr, "\r\n"); line && line[2];
	     line = strstr(line + 2, "\r\n")) {
		const char *h = line + 2;
		if (strncasecmp(h, "Content-Length:", 15) == 0) {
			c->body_left = (size_t)strtoull(h + 15, NULL, 10);
			has_len = true;
		} else if (strncasecmp(h, "Connection:", 11) == 0) {
			const char *v = h + 11;
			while (*v == ' ')
				v++;
			if (strncasecmp(v, "close", 5) == 0)
				c->close_after = true;
		} else if (strncasecmp(h, "Transfer-Encoding:", 18) == 0) {
			return -1; /* chunked replies are not expected */
		}
	}
	return has_len ? 0 : -1;
}

static void response_done(conn *c);

/* Feeds received bytes; returns -1 on a protocol error. */
static int conn_feed(conn *c, const char *p, size_t n)
{
	c->got += n;
	while (n > 0) {
		if (!c->in_body) {
			size_t take = n;
			if (c->hlen + take > HDR_MAX - 1)
				take = HDR_MAX - 1 - c->hlen;
			if (take == 0)
				return -1;
			size_t old = c->hlen;
			memcpy(c->hdr + c->hlen, p, take);
			c->hlen += take;
			c->hdr[c->hlen] = '\0';
			/* look for the blank line, starting a little before the new bytes */
			size_t from = old > 3 ? old - 3 : 0;
			char *e = strstr(c->hdr + from, "\r\n\r\n");
			if (e == NULL) {
				p += take;
				n -= take;
				continue;
			}
			size_t hend = (size_t)(e - c->hdr) + 4;
			size_t used = hend - old;
			p += used;
			n -= used;
			if (parse_head(c, hend - 2) != 0)
				return -1;
			c->in_body = true;
			if (c->status != (c->kind == REQ_CREATE ? 201 : 200))
				c->want_body = true;
		}
		if (c->in_body) {
			size_t take = n < c->body_left ? n : c->body_left;
			if (c->want_body && body_append(c, p, take) != 0)
				return -1;
			c->body_left -= take;
			p += take;
			n -= take;
			if (c->body_left == 0) {
				if (n != 0)
					return -1; /* no pipelining: nothing may follow */
				response_done(c);
				return 0;
			}
		}
	}
	return 0;
}

static void conn_readable(conn *c)
{
	char buf[65536];
	for (;;) {
		ssize_t n = read(c->fd, buf, sizeof buf);
		if (n > 0) {
			if (c->kind == REQ_NONE) { /* unsolicited bytes */
				conn_close(c);
				return;
			}
			if (conn_feed(c, buf, (size_t)n) != 0) {
				conn_close(c);
				request_failed(c, "malformed response");
				return;
			}
			if (c->fd < 0)
				return;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		/* EOF or error */
		bool stale = c->used && c->got == 0 && !c->retried;
		conn_close(c);
		if (c->kind == REQ_NONE)
			return;
		if (stale) { /* the keep-alive race: resend once on a fresh connection */
			c->retried = true;
			G.reconnects++;
			if (conn_send(c) == 0)
				return;
		}
		request_failed(c, "connection closed");
		return;
	}
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
	table_fail(c->t);
}

/* Builds seat's move for this turn from a random legal option, into t->move / t->move_json. */
static int choose_move(table *t, int seat)
{
	er_turn tu = t->base;
	tu.chief = seat == t->chief;
	tu.chief_die = tu.chief ? ER_NO_COLOUR : t->chief_die;
	static er_option opts[ER_MAX_OPTIONS];
	int n = er_move_options(&G.d, &tu, &t->sheet[seat - 1], false, opts, ER_MAX_OPTIONS);
	er_move m = {.die = ER_NO_COLOUR};
	const er_card *card = &G.d.cards[tu.card - 1];
	if (n > 0) {
		er_move_from_option(&G.d, &tu, &opts[rnd_below(&t->rng, n)], &m);
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
	er_result r = er_move_apply(&G.d, &tu, &m, false, &s);
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
	c->move_seat = seat;
	start_request(c, REQ_MOVE, path, t->tok[seat - 1], t->move_json[seat - 1], verify, sched);
}

static void move_ready(table *t, int seat)
{
	if (!G.running)
		return;
	if (G.rate > 0 && G.t0 > 0) {
		if (G.fcount == G.fcap) { /* cannot happen: ≤ 3 ready moves per table */
			record_error("local", 0, "ready queue full", 16);
			return;
		}
		G.fifo[(G.fhead + G.fcount++) % G.fcap] = (ready_move){t, seat};
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
		er_sheet_init(&t->sheet[s], &G.d, false, 0);
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

static void response_done(conn *c)
{
	table *t = c->t;
	double now = now_s();
	req_kind kind = c->kind;
	int expect = kind == REQ_CREATE ? 201 : 200;
	c->kind = REQ_NONE;
	c->used = true;
	G.inflight--;
	if (c->close_after)
		conn_close(c);
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
		int seat = c->move_seat;
		er_turn tu = t->base;
		tu.chief = seat == t->chief;
		tu.chief_die = tu.chief ? ER_NO_COLOUR : t->chief_die;
		er_result r =
		    er_move_apply(&G.d, &tu, &t->move[seat - 1], false, &t->sheet[seat - 1]);
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
	timerfd_settime(G.tfd, TFD_TIMER_ABSTIME, &it, NULL);
}

static void run_slots(void)
{
	double now = now_s();
	for (;;) {
		double at = G.t0 + (double)G.k / G.rate;
		if (at >= G.t0 + G.duration) {
			G.running = false;
			return;
		}
		if (at > now) {
			arm_timer(at);
			return;
		}
		G.k++;
		G.slots++;
		if (G.fcount == 0) {
			G.starved++;
			continue;
		}
		ready_move r = G.fifo[G.fhead];
		G.fhead = (G.fhead + 1) % G.fcap;
		G.fcount--;
		send_move(r.t, r.seat, at);
	}
}

/* ---- main ---- */

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
	G.cap = 120;
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
			G.port = (int)x;
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
			G.cap = x;
		else {
			usage();
			return -1;
		}
	}
	if (G.port < 1 || G.port > 65535 || G.ntables < 1 || G.duration <= 0 ||
	    G.warmup >= G.duration) {
		usage();
		return -1;
	}
	return 0;
}

/* Runs the event loop until pred() is false or the deadline passes. */
static int loop_until(bool (*pred)(void), double deadline)
{
	struct epoll_event evs[256];
	while (pred()) {
		double left = deadline - now_s();
		if (left <= 0)
			return -1;
		int ms = (int)(left * 1000) + 1;
		int n = epoll_wait(G.ep, evs, 256, ms > 100 ? 100 : ms);
		if (n < 0 && errno != EINTR)
			return -1;
		for (int i = 0; i < n; i++) {
			if (evs[i].data.ptr == NULL) { /* the schedule timer */
				uint64_t exp;
				if (read(G.tfd, &exp, sizeof exp) < 0 && errno != EAGAIN)
					return -1;
				run_slots();
				continue;
			}
			conn *c = evs[i].data.ptr;
			if (c->fd < 0)
				continue;
			if ((evs[i].events & EPOLLOUT) && c->kind != REQ_NONE) {
				if (conn_flush(c) != 0) {
					conn_close(c);
					request_failed(c, "write failed");
					continue;
				}
				if (c->outoff == c->outlen)
					conn_want_out(c, false);
			}
			if (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
				conn_readable(c);
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
	if (er_fixture_load(&G.d) != 0)
		return 2;
	G.first_errors = json_object_new_array();
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
	G.ep = epoll_create1(EPOLL_CLOEXEC);
	G.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	G.tables = calloc((size_t)G.ntables, sizeof *G.tables);
	G.fcap = (size_t)G.ntables * SEATS;
	G.fifo = calloc(G.fcap, sizeof *G.fifo);
	if (G.ep < 0 || G.tfd < 0 || G.tables == NULL || G.fifo == NULL) {
		perror("games_load: setup");
		goto out;
	}
	struct epoll_event tev = {.events = EPOLLIN, .data.ptr = NULL};
	if (epoll_ctl(G.ep, EPOLL_CTL_ADD, G.tfd, &tev) != 0) {
		perror("games_load: epoll");
		goto out;
	}
	uint64_t seed = G.seed * 0x9E3779B97F4A7C15ull + 1;
	G.alive = G.ntables;
	for (int i = 0; i < G.ntables; i++) {
		table *t = &G.tables[i];
		t->idx = i;
		t->rng = rnd(&seed);
		for (int s = 0; s < SEATS; s++)
			t->c[s] = (conn){.fd = -1, .t = t, .seat = s + 1};
	}
	struct rusage ru0, ru1;
	getrusage(RUSAGE_SELF, &ru0);
	double wall0 = now_s();

	/* setup (outside the window): every table's first game, table i played up to turn
	 * i*turns/tables so that the tables do not all finish their games together */
	G.running = true;
	for (int i = 0; i < G.ntables; i++)
		start_game(&G.tables[i]);
	if (loop_until(busy, wall0 + 30) != 0) {
		fprintf(stderr, "games_load: creating the games timed out\n");
		goto report;
	}

	G.t0 = now_s();
	G.wstart = G.t0 + G.warmup;
	G.wend = G.t0 + G.duration;
	for (int i = 0; i < G.ntables; i++)
		next_turn(&G.tables[i]);
	if (G.rate > 0)
		run_slots();
	if (loop_until(run_phase, wall0 + G.cap) != 0)
		fprintf(stderr, "games_load: stopped at the duration cap (%.0f s)\n", G.cap);

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
	json_object_object_add(o, "connections", json_object_new_int64((int64_t)G.connections));
	json_object_object_add(o, "reconnects", json_object_new_int64((int64_t)G.reconnects));
	json_object_object_add(o, "sheets_verified", json_object_new_int64((int64_t)G.verified));
	json_object_object_add(o, "client_cpu_s", json_object_new_double(round(cpu * 100) / 100));
	json_object_object_add(o, "errors", json_object_new_int(G.errors));
	json_object_object_add(o, "first_errors", json_object_get(G.first_errors));
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	rc = G.errors ? 1 : 0;
out:
	if (G.tables)
		for (int i = 0; i < G.ntables; i++)
			for (int s = 0; s < SEATS; s++) {
				conn_close(&G.tables[i].c[s]);
				free(G.tables[i].c[s].body);
			}
	free(G.tables);
	free(G.fifo);
	free(G.move_lat.v);
	free(G.svc_lat.v);
	free(G.reveal_lat.v);
	free(G.create_lat.v);
	json_object_put(G.first_errors);
	if (G.tfd >= 0)
		close(G.tfd);
	if (G.ep >= 0)
		close(G.ep);
	return rc;
}
