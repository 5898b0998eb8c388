/* HTTP/1.1 client connections of the load generator (tests/bench/games_load.c): keep-alive
 * connections to 127.0.0.1, non-blocking on the caller's epoll set, one POST in flight per
 * connection, no pipelining. A reply is read by its status line, Content-Length and
 * "Connection: close"; its body is kept when the caller asked for it or when the status is not
 * the expected one. A request that finds its kept-alive connection closed before the first byte
 * of the reply is sent again once on a fresh connection. The caller hears of each reply and each
 * lost request through the two functions given to conn_setup; the connection layer calls
 * nothing else of the caller's. */
#ifndef GAMES_LOAD_CONN_H
#define GAMES_LOAD_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { CONN_HDR_MAX = 8192, CONN_REQ_MAX = 2048 };

typedef struct conn conn;

/* A whole reply arrived (c->status, and c->body[0..c->blen) when kept); c is idle again. */
typedef void (*conn_done_fn)(conn *c);
/* The request in flight on c is lost (why: a short reason); c is idle again. */
typedef void (*conn_failed_fn)(conn *c, const char *why);

struct conn {
	int fd;         /* -1: closed */
	bool busy;      /* a request is in flight */
	bool want_body; /* keep the reply's body */
	int expect;     /* the status the request expects */
	char out[CONN_REQ_MAX];
	size_t outlen, outoff;
	bool used;    /* has carried a complete exchange: may have gone stale */
	bool retried; /* this request was re-sent on a fresh connection once */
	size_t got;   /* response bytes received for this request */
	/* response */
	char hdr[CONN_HDR_MAX];
	size_t hlen;
	bool in_body;
	int status;
	bool close_after;
	size_t body_left;
	char *body;
	size_t blen, bcap;
	/* the caller's, never read here: whose connection, what its request is for, and when the
	 * request was scheduled and sent */
	void *owner;
	int seat;
	int kind;
	double sched, sent;
};

/* Connections go to 127.0.0.1:port and wait on ep (epoll, data.ptr = the conn); done and
 * failed are called for every request that conn_request started. */
void conn_setup(int ep, int port, conn_done_fn done, conn_failed_fn failed);

/* Sends POST path (with "Authorization: Bearer token" unless token is NULL) with the JSON body
 * on c, opening the connection if needed. NULL when the request is in flight, or why nothing
 * is ("request too large", "cannot connect/send"). */
const char *conn_request(conn *c, const char *path, const char *token, const char *body, int expect,
                         bool want_body);

/* Handles the epoll events of c: writes what remains of the request, reads the reply. */
void conn_event(conn *c, uint32_t events);

/* Closes c's socket (the next request opens a new one). */
void conn_close(conn *c);

/* Closes c and frees its reply buffer. */
void conn_free(conn *c);

/* Connections opened, and requests sent again on a fresh connection. */
uint64_t conn_opened(void);
uint64_t conn_reconnects(void);

#endif
