/* PostgreSQL through libpq: one connection per worker thread, statements prepared once per
 * connection (the table in statements.c), a transaction runner that retries serialization
 * failures and deadlocks, reconnection after the database restarts, and the migration runner.
 *
 * Connection settings come from DATABASE_URL, or libpq's PG* environment when it is unset. */
#ifndef DB_H
#define DB_H

#include <stdbool.h>
#include <libpq-fe.h>

typedef struct db_conn db_conn;

/* Global setup (conninfo string is copied). */
int db_init(const char *conninfo);
void db_shutdown(void);

/* This thread's connection (connected lazily, reconnected when broken, statements prepared on
 * every new connection). NULL when the database is unreachable. */
db_conn *db_thread_conn(void);
void db_thread_release(void); /* closes this thread's connection */
PGconn *db_pg(db_conn *c);

/* false once a connection attempt or a query found the database down; true again after a
 * successful connection. Used by the HTTP layer to answer 503 quickly. */
bool db_available(void);

/* Runs a prepared statement by name (statements.c). Caller PQclear()s the result.
 * NULL on a connection failure (the connection is marked broken). */
PGresult *db_exec(db_conn *c, const char *stmt, int nparams, const char *const *params);

typedef enum { DB_OK = 0, DB_RETRY, DB_FAIL, DB_UNAVAILABLE, DB_ABORT } db_status;

/* Runs fn inside BEGIN ISOLATION LEVEL <level> … COMMIT, retrying on 40001 / 40P01 up to
 * DB_TX_RETRIES times. fn returns DB_OK to commit, DB_ABORT to roll back (its own decision, e.g.
 * a 409), DB_RETRY to force a retry, DB_FAIL on error. */
enum { DB_TX_RETRIES = 8 };
typedef db_status (*db_tx_fn)(db_conn *c, void *arg);
db_status db_tx(db_conn *c, bool serializable, db_tx_fn fn, void *arg);

/* One round trip to the database (statement health_ping): true when it answers 1. */
bool db_ping(db_conn *c);

/* Classifies a result: DB_OK, DB_RETRY (serialization failure / deadlock), DB_UNAVAILABLE
 * (connection lost), DB_FAIL. */
db_status db_result_status(db_conn *c, const PGresult *r);

/* The statement table (statements.c): every statement db_exec can run, prepared under its name
 * on every new connection. Static data; db_statement_find returns a row of it or NULL. */
typedef struct {
	const char *name; /* "resource_action", unique */
	const char *sql;  /* parameters $1…$nparams, all sent as text */
	int nparams;
} db_statement;
extern const db_statement db_statements[];
extern const size_t db_nstatements;
const db_statement *db_statement_find(const char *name);

/* Applies migrations/NNNN_*.sql not yet in schema_migrations, each in one transaction, under
 * an advisory lock so concurrent servers apply each exactly once. Returns 0 or -1 (logged). */
int db_migrate(const char *conninfo, const char *dir);

#endif
