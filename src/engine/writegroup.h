/* Write groups: the optimistic writes that libmicrohttpd threads hand over (their replies
 * parked, http_park), sent by a few threads of their own, as many games as are waiting in ONE
 * statement that commits by itself (db_events_append_group). Under load PostgreSQL then pays for
 * one statement, one commit and one WAL flush per group instead of per move; each write still
 * has its own checks, is durable before its reply, and is written or not on its own.
 *
 * A write is a wg_write the caller owns until its `done` runs: on a group's thread, after the
 * statement, with the connection it ran on (NULL: none could be had) and the statement's
 * status (w.applied says whether this write was written); `done` finishes the request and frees
 * what it owns. Writes of one game never wait in the queue as two entries (the caller holds
 * the game's write turn until `done`): a later write of a game whose write waits is chained to
 * that one (writegroup_chain) and goes in the same entry of the statement. */
#ifndef ENGINE_WRITEGROUP_H
#define ENGINE_WRITEGROUP_H

#include "db/db.h"
#include "db/games.h"

#include <stdbool.h>

enum { WRITE_GROUP_MAX = 64 }; /* entries (games) in one statement at most */

typedef struct wg_write {
	db_append_one w; /* w.next: the writes chained to it, which its done answers too */
	void (*done)(struct wg_write *self, db_conn *c, db_status st);
	struct wg_write *next; /* the queue's */
} wg_write;

/* Starts `threads` group threads (0: none; writes are then not grouped). 0, or -1 when no
 * thread could start. */
int writegroup_start(unsigned threads);
/* Whether writes may be handed over (the threads run). */
bool writegroup_on(void);
/* Queues w; a group thread sends it with the others waiting and runs w->done. */
void writegroup_push(wg_write *w);
/* Whether a write of game id waits in the queue (its statement not sent yet). */
bool writegroup_waiting(const char *id);
/* Runs chain(w, arg) with the queue held, w the write of game id that waits in the queue: chain
 * may add a write to w's entry (w->w.next …), sure that w is not being sent meanwhile. Returns
 * chain's answer (true: it chained one), false when no write of id waits. chain must be quick
 * and take no lock of the queue's. */
bool writegroup_chain(const char *id, bool (*chain)(wg_write *w, void *arg), void *arg);
/* The writes waiting in the queue now, chained ones included (GET /api/v1/health shows it). */
unsigned long writegroup_queued(void);
/* Sends what is queued, then stops the threads: after the last request (http_stop). */
void writegroup_stop(void);

#endif
