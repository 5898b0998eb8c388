/* PostgreSQL through libpq: one connection per worker thread, statements prepared once per
 * connection (the tables listed in statements.c), a transaction runner that retries serialization
 * failures and deadlocks, reconnection after the database restarts, and the migration runner.
 *
 * Connection settings come from DATABASE_URL, or libpq's PG* environment when it is unset. */
#ifndef DB_H
#define DB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <libpq-fe.h>

typedef struct db_conn db_conn;

/* The server-side timeouts of our sessions, milliseconds (0: off). Every connection the server
 * opens goes through db_connect, which sets the ones that fit its role. */
typedef struct {
	unsigned statement_ms; /* statement_timeout: one statement may run this long */
	unsigned lock_ms;      /* lock_timeout: one lock wait may last this long */
	unsigned idle_tx_ms;   /* idle_in_transaction_session_timeout */
} db_timeouts;
enum {
	DB_STATEMENT_TIMEOUT_MS = 5000,
	DB_LOCK_TIMEOUT_MS = 2000,
	DB_IDLE_TX_TIMEOUT_MS = 10000,
};
/* Sets the timeouts of connections opened from now on (the defaults above until called); call
 * before any thread uses the module. */
void db_set_timeouts(const db_timeouts *t);
db_timeouts db_get_timeouts(void);

/* What a connection is for: its application name and the timeouts it gets (connect.c says why). */
typedef enum {
	DB_ROLE_WORKER,
	DB_ROLE_LISTEN,
	DB_ROLE_NOTIFY,
	DB_ROLE_MIGRATE,
	DB_ROLE_READ, /* a read replica's connection (readpool.c): a worker's timeouts */
} db_role;

/* A new connection for role from conninfo (NULL or "": libpq's PG* environment), with
 * connect_timeout, fallback_application_name (the conninfo may override both) and the role's
 * session settings; the caller owns it (PQfinish). NULL when it fails, the reason (one line) in
 * err. Neither logs nor touches the availability flag: callers that retry decide what to say. */
PGconn *db_connect(const char *conninfo, db_role role, char *err, size_t errlen);

/* Global setup (conninfo string is copied). */
int db_init(const char *conninfo);
void db_shutdown(void);

/* This thread's connection (connected lazily, reconnected when broken, statements prepared on
 * every new connection). NULL when the database is unreachable. */
db_conn *db_thread_conn(void);
void db_thread_release(void); /* closes this thread's connection */

/* A connection of role DB_ROLE_READ outside the per-thread one (a read replica's, readpool.c),
 * every statement prepared; the caller owns it (db_conn_free) and keeps it to one thread at a
 * time. Its failures mark only itself broken: never the availability flag, which is the
 * primary's. NULL when it fails, the reason (one line) in err. */
db_conn *db_conn_open(const char *conninfo, char *err, size_t errlen);
/* true when c may run a statement now: not broken, and nothing (a termination notice, EOF)
 * arrived on it while idle. No round trip. */
bool db_conn_usable(db_conn *c);
void db_conn_free(db_conn *c); /* closes and frees c; NULL is fine */

/* false once a connection attempt or a query found the database down; true again after a
 * successful connection. Used by the HTTP layer to answer 503 quickly. */
bool db_available(void);

/* Which database server this process talks to, as a number that changes each time a new
 * connection reaches another server than the one before (a promoted standby after a failover,
 * a restarted server). State read from the database under one epoch may be gone from the server
 * of the next (a commit the old primary showed but no standby received): caches keyed by the
 * database's own versions are dropped when it changes (src/engine/game_cache.c). */
unsigned db_server_epoch(void);

/* Runs a prepared statement by name (statements.c). Caller PQclear()s the result.
 * NULL on a connection failure (the connection is marked broken). */
PGresult *db_exec(db_conn *c, const char *stmt, int nparams, const char *const *params);
/* db_exec with each parameter's length and format (1: binary, as db/f8array.h builds; 0:
 * text, whose length is not read); lengths and formats may be NULL (all text). */
PGresult *db_exec_bin(db_conn *c, const char *stmt, int nparams, const char *const *params,
                      const int *lengths, const int *formats);

/* DB_BUSY: the server cancelled the statement on one of our timeouts (statement_timeout 57014,
 * lock_timeout 55P03, idle_in_transaction_session_timeout 25P03): nothing was written, the
 * database is up, and the same request may well succeed a moment later; handlers answer it 503
 * with Retry-After, like DB_UNAVAILABLE. */
typedef enum { DB_OK = 0, DB_RETRY, DB_FAIL, DB_UNAVAILABLE, DB_ABORT, DB_BUSY } db_status;

/* true when the last statement this thread ran was cancelled by a timeout (DB_BUSY): for
 * replies built after the status itself is gone. Cleared by every statement. */
bool db_thread_busy(void);
/* true when this thread's connection was lost or found unusable (a read-only session) and not
 * replaced since (DB_UNAVAILABLE): for replies built after the status itself is gone, which must
 * not read the availability flag alone (another thread may have raised it meanwhile). */
bool db_thread_lost(void);

/* While on, c waits for no lock another session holds: each transaction begun from then on,
 * and each statement run outside one, gets the shortest lock timeout (1 ms, sent in the same
 * round trip as BEGIN or the statement), so a row held elsewhere ends the statement with
 * DB_BUSY and db_conn_lock_refused(c) true, nothing written. For the libmicrohttpd threads,
 * which must not wait (http/http.h, http_defer): the caller runs the work again where waiting
 * is allowed. Set it outside a transaction; db_thread_conn turns it off. */
void db_conn_nowait(db_conn *c, bool on);
/* Was the last statement on c (or the transaction db_tx ended) refused a lock under nowait? */
bool db_conn_lock_refused(const db_conn *c);

/* Runs fn inside BEGIN ISOLATION LEVEL <level> … COMMIT, retrying on 40001 / 40P01 up to
 * DB_TX_RETRIES times. fn returns DB_OK to commit, DB_ABORT to roll back (its own decision, e.g.
 * a 409), DB_RETRY to force a retry, DB_FAIL on error. */
enum { DB_TX_RETRIES = 8 };
typedef db_status (*db_tx_fn)(db_conn *c, void *arg);
db_status db_tx(db_conn *c, bool serializable, db_tx_fn fn, void *arg);
/* The same for reads that must see one state of the database: fn's statements run in one
 * read-only transaction with one snapshot (REPEATABLE READ READ ONLY). */
db_status db_tx_snapshot(db_conn *c, db_tx_fn fn, void *arg);

/* One round trip to the database (statement health_ping): true when it answers 1. */
bool db_ping(db_conn *c);

/* Classifies a result: DB_OK, DB_RETRY (serialization failure / deadlock), DB_UNAVAILABLE
 * (connection lost), DB_BUSY (a timeout cancelled it), DB_FAIL. */
db_status db_result_status(db_conn *c, const PGresult *r);

/* Applies migrations/NNNN_*.sql not yet in schema_migrations, each in one transaction, under
 * an advisory lock so concurrent servers apply each exactly once. Returns 0, -1 (logged), or
 * DB_MIGRATE_STOPPED when one of the signals in `stop` (may be NULL) became pending: the
 * statement running then is cancelled and its transaction rolled back, so every migration is
 * either applied and recorded or neither. The caller blocks those signals. */
enum { DB_MIGRATE_STOPPED = -2 };
int db_migrate(const char *conninfo, const char *dir, const sigset_t *stop);

#endif
