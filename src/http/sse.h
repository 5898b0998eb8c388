/* Server-sent events on suspended libmicrohttpd connections (no thread per client).
 *
 * A stream is a subscriber to a topic (a game id). Its bytes come from a fill callback that the
 * layer calls on the connection's thread when the stream starts and after each wake-up; when it
 * has nothing to send the connection is suspended until sse_wake() names its topic, a
 * heartbeat falls due (a comment line every SSE_HEARTBEAT_S, which also finds peers that went
 * away), or the server stops. A probe every second looks at every suspended stream's socket and
 * ends the streams whose peer closed or vanished (TCP keep-alive and TCP_USER_TIMEOUT on the
 * socket report a silent peer within SSE_DEAD_S), so their slots and memory are released.
 * Streams are capped per topic and per owner (a token): beyond a cap, 429 problem+json.
 *
 * Ownership: sse_open copies the strings of its arguments; cls belongs to the stream from the
 * call on (cls_free runs when the stream ends, or at once when it is refused). */
#ifndef HTTP_SSE_H
#define HTTP_SSE_H

#include "http/http.h"

#include <stdbool.h>
#include <stddef.h>

enum {
	SSE_HEARTBEAT_S = 15, /* a ": keep-alive" comment at least this often */
	SSE_DEAD_S = 10,      /* a closed or vanished peer is found within this */
};

/* Writes at most room bytes of what comes next into buf; returns the count (0: nothing new).
 * Set *again when more is ready than fitted (it is called again at once after a send).
 * Returns -1 to end the stream. */
typedef long (*sse_fill_fn)(void *cls, char *buf, size_t room, bool *again);

typedef struct {
	const char *topic; /* wake-ups are addressed to it (≤ 63 bytes) */
	const char *owner; /* per-owner cap key (≤ 127 bytes); NULL: not capped per owner */
	const char *first; /* sent before anything else (retry:, hello); may be NULL */
	sse_fill_fn fill;
	void *cls;
	void (*cls_free)(void *cls);
} sse_open_args;

typedef struct {
	unsigned per_topic; /* 0: unlimited */
	unsigned per_owner; /* 0: unlimited */
} sse_limits;

/* Sets the caps and starts the probe thread (http_start calls it). 0 or -1. */
int sse_start(const sse_limits *limits);
/* Ends every stream (resuming suspended connections, as libmicrohttpd requires before it
 * stops) and stops the probe thread. Idempotent; http_stop calls it. */
void sse_stop(void);

/* Turns resp into a text/event-stream on req's connection, or into 429 (a cap is reached) or
 * 503 (stopping) problem+json. Always returns 0 (the handler's contract). */
int sse_open(const http_req *req, http_resp *resp, const sse_open_args *a);

/* Wakes the streams of topic (NULL: every stream) so their fill runs again. Any thread. */
void sse_wake(const char *topic);

#endif
