/* The connection layer's internals, shared by its files and by nothing outside src/db/:
 *   connect.c  the one connect path (db_connect: roles, timeouts, which server was reached);
 *   conn.c     connections: each thread's, a read replica's, the statements prepared on each;
 *   exec.c     the statement runner (db_exec), results classified, errors logged;
 *   tx.c       the transaction runner (db_tx);
 *   health.c   the availability flag, the health thread that probes the database, db_init.
 * See db.h for the interface. */
#ifndef DB_CONN_H
#define DB_CONN_H

#include "db/db.h"

#include <stdbool.h>
#include <stddef.h>

enum { DB_LOCK_UNKNOWN = -1, DB_LOCK_ROLE = 0, DB_LOCK_NOWAIT = 1 };

struct db_conn {
	PGconn *pg;
	bool broken;        /* connection failure seen: reconnect before the next use */
	bool saw_retryable; /* a statement of the current transaction got 40001 / 40P01 */
	bool fatal_notice;  /* the server announced it is closing this connection */
	bool busy;          /* the last statement was cancelled by one of our timeouts */
	bool standalone;    /* a read replica's (db_conn_open): failures touch no global flag */
	unsigned seed;      /* backoff jitter */
	/* BEGIN not sent yet: it goes out in one pipeline with the transaction's first statement
	 * (one round trip fewer per transaction); NULL when none is pending */
	const char *begin_pending;
	bool nowait; /* db_conn_nowait: lock waits cut short */
	/* The session's lock_timeout: DB_LOCK_ROLE (the role's, as connected), DB_LOCK_NOWAIT (the
	 * short one of db_conn_nowait) or DB_LOCK_UNKNOWN (a transaction that may have set it
	 * failed): exec.c changes it only where a statement needs the other one */
	signed char lock_session;
	bool
	    lock_in_tx; /* lock_session was set inside the current transaction (BEGIN's pipeline) */
	bool lock_refused; /* the last statement was refused a lock under nowait (55P03) */
};

/* Makes c usable: checks the cached connection without a round trip, reconnects when needed
 * (every statement prepared). Without force, fails fast while the database is known to be down
 * and the health thread watches it (conn.c). */
bool db_conn_ensure(db_conn *c, bool force);

/* conninfo given to db_init (NULL or "": libpq's PG* environment); health.c owns it. */
const char *db_conninfo(void);

/* A worker's new connection, notices logged (caller owns it, PQfinish), or NULL with the
 * availability flag lowered (conn.c). */
PGconn *db_connect_worker(const char *conninfo);

/* Lowers the availability flag (the reason logged once, the health thread woken) / lifts it;
 * is the health thread running? (health.c) */
void db_mark_unavailable(const char *why);
void db_mark_available(void);
bool db_health_running(void);

/* Copies libpq's message into buf on one line, without its trailing newline (exec.c). */
void db_one_line(char *buf, size_t len, const char *msg);
/* Logs a failed result: as a bug for SQLSTATEs our own SQL causes, else as a warning. */
void db_log_result_error(const char *what, const PGresult *r);

#endif
