/* Notifications after commit (PostgreSQL NOTIFY), sent in batches by one thread with a
 * connection of its own.
 *
 * Why not NOTIFY inside the writing transaction: PostgreSQL takes a database-wide lock at the
 * commit of a transaction that notifies and holds it until that commit is flushed to disk, so
 * every notifying commit waits for the previous one's flush — group commit is lost and the
 * writes of every game queue up behind each other (README, "the table engine" benchmark). So
 * the table engine commits first and posts "id:version" here; this thread sends whatever has
 * piled up within DB_NOTIFY_WINDOW_MS of the first payload as one statement, in a transaction
 * of its own with synchronous_commit off (notifications do not survive a database restart
 * anyway: there is nothing to flush for). A phone hears of a move a few milliseconds later
 * than it would otherwise; under load one statement carries dozens of changes.
 *
 * Nothing is dropped silently: when the queue overflows, or a batch may not have gone out (the
 * connection failed), the next batch carries DB_NOTIFY_ALL, on which every listener refreshes
 * all its subscribers (db/listen.h). A process that dies between a commit and its batch leaves
 * the other servers' streams to find the change at their next heartbeat (http/sse.h).
 *
 * Ownership: payloads are copied when posted. Thread-safe: post from any thread. */
#ifndef DB_NOTIFY_H
#define DB_NOTIFY_H

#include <stdbool.h>

/* The catch-all payload: "refresh everything". */
#define DB_NOTIFY_ALL "*"

enum {
	DB_NOTIFY_PAYLOAD_MAX = 96, /* bytes of one payload, with its terminator */
	DB_NOTIFY_QUEUE_MAX = 4096, /* payloads waiting; beyond, the catch-all replaces them */
	DB_NOTIFY_BATCH_MAX = 512,  /* payloads per statement */
	DB_NOTIFY_WINDOW_MS = 5,    /* a batch gathers for this long after its first payload */
};

/* Starts the thread on channel (a plain identifier, copied) with a connection from conninfo
 * (copied; "" → libpq's PG* environment). 0, or -1 (logged). One notifier per process. */
int db_notify_start(const char *conninfo, const char *channel);
/* Queues payload (< DB_NOTIFY_PAYLOAD_MAX bytes; longer ones become the catch-all). Never
 * waits for the database. Does nothing when the notifier is not running. */
void db_notify_post(const char *payload);
/* Sends what is queued (if the database answers) and stops the thread. Idempotent. */
void db_notify_stop(void);
/* What the notifier has done and holds (tests, benchmarks). */
typedef struct {
	unsigned long sent;    /* payloads sent since the start */
	unsigned long batches; /* statements that sent them */
	unsigned long queued;  /* payloads waiting */
	bool catch_all;        /* the next batch carries DB_NOTIFY_ALL */
} db_notify_stats;
void db_notify_stats_get(db_notify_stats *out);

#endif
