/* PostgreSQL connections: one per thread, the availability flag and its health thread, the
 * statement runner and the transaction runner. See db.h for the interface.
 *
 * Ownership and lifetime:
 *   - g_conninfo is a copy made by db_init and freed by db_shutdown; it is written only while no
 *     other thread uses the module (before the server starts, after it stopped).
 *   - Each thread's db_conn (and its PGconn) belongs to that thread: created by db_thread_conn,
 *     freed by db_thread_release or, for threads that simply exit (libmicrohttpd's pool), by the
 *     pthread key destructor. A db_conn pointer must never be handed to another thread.
 *   - The health thread owns its own PGconn, closed when db_shutdown stops it.
 *
 * Availability: g_available starts true; it turns false when a connection attempt or a query finds
 * the database gone, and true again when a connection succeeds. While it is false (and the health
 * thread runs), db_thread_conn fails fast instead of stalling a request thread for the connect
 * timeout: the health thread alone probes the database (every 1 s while down, every 5 s while up,
 * at once when a request thread reports a failure) and lifts the flag. */
#include "base/log.h"
#include "base/oom.h"
#include "db/db.h"
#include "db/rows.h"
#include "db/statements.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
	bool nowait;       /* db_conn_nowait: lock waits cut short */
	bool lock_refused; /* the last statement was refused a lock under nowait (55P03) */
};

enum {
	HEALTH_UP_INTERVAL_S = 5,
	HEALTH_DOWN_INTERVAL_S = 1,
};

static char *g_conninfo; /* NULL or "": libpq's PG* environment */
static atomic_bool g_available = true;

static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t g_key;
static bool g_key_ok;
static _Thread_local db_conn *t_conn;

static pthread_mutex_t g_health_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_health_cv;
static pthread_t g_health_thread;
static bool g_health_running; /* guarded by g_health_mu */
static bool g_health_stop;    /* guarded by g_health_mu */
static bool g_health_kick;    /* guarded by g_health_mu */

/* ---- logging ---- */

/* Copies libpq's message without its trailing newline. */
static void one_line(char *buf, size_t len, const char *msg)
{
	snprintf(buf, len, "%s", msg && *msg ? msg : "(no message)");
	size_t n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
}

static void log_result_error(const char *what, const PGresult *r)
{
	char msg[512];
	const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	one_line(msg, sizeof msg, PQresultErrorMessage(r));
	/* Classes the server's code can produce with correct SQL and valid input are plain errors;
	 * syntax, undefined objects, data exceptions and unknown statements are our bugs. */
	bool bug = !state || strncmp(state, "42", 2) == 0 || strncmp(state, "26", 2) == 0 ||
	           strncmp(state, "22", 2) == 0 || strncmp(state, "0A", 2) == 0;
	if (bug)
		log_bug("db: %s failed: SQLSTATE %s: %s", what, state ? state : "-----", msg);
	else
		log_warn("db: %s failed: SQLSTATE %s: %s", what, state ? state : "-----", msg);
}

/* ---- availability ---- */

static void health_kick(void)
{
	pthread_mutex_lock(&g_health_mu);
	if (g_health_running) {
		g_health_kick = true;
		pthread_cond_signal(&g_health_cv);
	}
	pthread_mutex_unlock(&g_health_mu);
}

static void mark_unavailable(const char *why)
{
	if (atomic_exchange(&g_available, false)) {
		char msg[512];
		one_line(msg, sizeof msg, why);
		log_warn("db: database unavailable: %s", msg);
		health_kick();
	}
}

static void mark_available(void)
{
	if (!atomic_exchange(&g_available, true))
		log_info("db: database available again");
}

bool db_available(void)
{
	return atomic_load(&g_available);
}

static bool health_running(void)
{
	pthread_mutex_lock(&g_health_mu);
	bool running = g_health_running;
	pthread_mutex_unlock(&g_health_mu);
	return running;
}

/* ---- connections ---- */

/* Notices and warnings go to stderr with our prefix. A FATAL message that arrives while the
 * connection is idle (the server shutting down or terminating the backend: 57P01 …) comes through
 * here too: it marks the connection for replacement before a request stumbles on it. */
static void notice_receiver(void *arg, const PGresult *r)
{
	db_conn *c = arg;
	const char *sev = PQresultErrorField(r, PG_DIAG_SEVERITY_NONLOCALIZED);
	if (c && sev && (strcmp(sev, "FATAL") == 0 || strcmp(sev, "PANIC") == 0))
		c->fatal_notice = true;
	char msg[512];
	one_line(msg, sizeof msg, PQresultErrorMessage(r));
	log_warn("db: server says: %s", msg);
}

/* ---- the one connect path ---- */

static db_timeouts g_timeouts = {
    .statement_ms = DB_STATEMENT_TIMEOUT_MS,
    .lock_ms = DB_LOCK_TIMEOUT_MS,
    .idle_tx_ms = DB_IDLE_TX_TIMEOUT_MS,
};

void db_set_timeouts(const db_timeouts *t)
{
	g_timeouts = *t;
}

db_timeouts db_get_timeouts(void)
{
	return g_timeouts;
}

/* What each role gets, and why:
 *   - a worker (and the health probe) gets all three timeouts: its statements are index lookups
 *     and small appends, its transactions a few round trips with nothing but our own CPU work
 *     between them, so a longer wait means something is stuck; the request is answered 503
 *     (DB_BUSY) instead of holding its thread, and the session killed for idling inside a
 *     transaction releases the row locks it held;
 *   - the LISTEN connection runs one short statement per connection and then only waits,
 *     outside any statement and any transaction: statement and lock timeouts bound that one
 *     statement and cannot fire while it waits; idle_in_transaction is meaningless there (0), and
 *     idle_session_timeout (PostgreSQL 14+), which would end it for waiting, is turned off;
 *   - the notifier's connection sends one autocommitted statement per batch and idles between
 *     batches: statement and lock timeouts, and idle_session_timeout off as for LISTEN;
 *   - a read replica's connection (readpool.c) runs the same reads as a worker: the same
 *     timeouts, and a short connect timeout, since the primary answers when the standby cannot;
 *   - the migration connection gets no statement or lock timeout: a migration may rightly run
 *     long, and the runner waits on the advisory lock while another server migrates (a signal
 *     stops it instead, db_migrate); idle_in_transaction still guards its transactions. */
typedef struct {
	const char *app, *connect_timeout;
	bool statement, lock, idle_tx, keep_idle;
} role_settings;

static const role_settings g_roles[] = {
    [DB_ROLE_WORKER] = {"dicehospital", "2", true, true, true, false},
    [DB_ROLE_LISTEN] = {"dicehospital-listen", "2", true, true, false, true},
    [DB_ROLE_NOTIFY] = {"dicehospital-notify", "2", true, true, true, true},
    [DB_ROLE_MIGRATE] = {"dicehospital-migrate", "5", false, false, true, false},
    [DB_ROLE_READ] = {"dicehospital-read", "1", true, true, true, false},
};

static void ms_text(char buf[16], bool on, unsigned ms)
{
	snprintf(buf, 16, "%u", on ? ms : 0);
}

/* Which PostgreSQL server a connection reached: its postmaster's start and its address. A
 * promoted standby, a restarted server or another host of a multi-host DATABASE_URL all differ
 * from the server before. */
#define SERVER_IDENTITY                                                                            \
	"pg_postmaster_start_time()::text || ' ' || coalesce(host(inet_server_addr()), 'socket') " \
	"|| ' ' || coalesce(inet_server_port(), 0)"

static pthread_mutex_t g_server_mu = PTHREAD_MUTEX_INITIALIZER;
static char g_server[128];         /* the identity of the server last connected to */
static atomic_uint g_server_epoch; /* changes each time that is another server */

/* Records the server a new connection reached; a different one than before starts a new epoch
 * (db_server_epoch). */
static void note_server(const char *identity)
{
	pthread_mutex_lock(&g_server_mu);
	if (strncmp(g_server, identity, sizeof g_server - 1) != 0) {
		if (g_server[0]) {
			atomic_fetch_add(&g_server_epoch, 1);
			log_info("db: connected to another database server than before: %s",
			         identity);
		}
		snprintf(g_server, sizeof g_server, "%s", identity);
	}
	pthread_mutex_unlock(&g_server_mu);
}

unsigned db_server_epoch(void)
{
	return atomic_load(&g_server_epoch);
}

/* Applies the role's timeouts with one round trip, which also tells which server the connection
 * reached (note_server, for connections to the primary: a read replica is another server by
 * design); false (reason in err) when it fails. */
static bool session_settings(PGconn *pg, const role_settings *rs, bool primary, char *err,
                             size_t errlen)
{
	char st[16], lk[16], tx[16];
	ms_text(st, rs->statement, g_timeouts.statement_ms);
	ms_text(lk, rs->lock, g_timeouts.lock_ms);
	ms_text(tx, rs->idle_tx, g_timeouts.idle_tx_ms);
	const char *params[3] = {st, lk, tx};
	/* idle_session_timeout exists from PostgreSQL 14 on */
	bool idle = rs->keep_idle && PQserverVersion(pg) >= 140000;
	PGresult *r =
	    PQexecParams(pg,
	                 idle ? "SELECT " SERVER_IDENTITY ", "
	                        "set_config('statement_timeout', $1, false), "
	                        "set_config('lock_timeout', $2, false), "
	                        "set_config('idle_in_transaction_session_timeout', $3, false), "
	                        "set_config('idle_session_timeout', '0', false)"
	                      : "SELECT " SERVER_IDENTITY ", "
	                        "set_config('statement_timeout', $1, false), "
	                        "set_config('lock_timeout', $2, false), "
	                        "set_config('idle_in_transaction_session_timeout', $3, false)",
	                 3, NULL, params, NULL, NULL, 0);
	bool ok = r && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
	if (!ok)
		one_line(err, errlen, r ? PQresultErrorMessage(r) : PQerrorMessage(pg));
	else if (primary)
		note_server(PQgetvalue(r, 0, 0));
	PQclear(r);
	return ok;
}

PGconn *db_connect(const char *conninfo, db_role role, char *err, size_t errlen)
{
	char spare[8];
	if (!err || errlen == 0) {
		err = spare;
		errlen = sizeof spare;
	}
	err[0] = '\0';
	const role_settings *rs = &g_roles[role];
	/* connect_timeout, the application name and the TCP settings come first so that the
	 * conninfo string can override them. A database machine that vanishes sends no reset:
	 * keepalives notice it on an idle connection (the LISTEN connection waits idle for good)
	 * within idle + interval × count seconds, and tcp_user_timeout ends a connection whose
	 * sent bytes stay unacknowledged that long; without them a connection to a dead host
	 * would wait for the kernel's defaults (two hours, a quarter of an hour), and libpq never
	 * moves on to the new primary of DATABASE_URL's hosts. Unix sockets ignore them. */
	enum { NKEYS = 8 };
	const char *keys[NKEYS] = {"connect_timeout",
	                           "fallback_application_name",
	                           "keepalives_idle",
	                           "keepalives_interval",
	                           "keepalives_count",
	                           "tcp_user_timeout",
	                           NULL,
	                           NULL};
	const char *vals[NKEYS] = {
	    rs->connect_timeout, rs->app, "5", "2", "3", "10000", NULL, NULL};
	if (conninfo && *conninfo) {
		keys[NKEYS - 2] = "dbname";
		vals[NKEYS - 2] = conninfo;
	}
	PGconn *pg = PQconnectdbParams(keys, vals, 1);
	if (!pg) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (PQstatus(pg) != CONNECTION_OK ||
	    !session_settings(pg, rs, role != DB_ROLE_READ, err, errlen)) {
		if (!err[0])
			one_line(err, errlen, PQerrorMessage(pg));
		PQfinish(pg);
		return NULL;
	}
	return pg;
}

/* A worker's new connection (caller owns it, PQfinish), or NULL with the flag lowered. */
static PGconn *connect_pg(const char *conninfo)
{
	char err[512];
	PGconn *pg = db_connect(conninfo, DB_ROLE_WORKER, err, sizeof err);
	if (!pg) {
		mark_unavailable(err);
		return NULL;
	}
	PQsetNoticeReceiver(pg, notice_receiver, NULL);
	return pg;
}

/* Prepares statement s; -1 when the connection failed meanwhile. A statement that does not
 * prepare (an SQL bug) is logged and skipped: it fails when used. */
static int prepare_one(PGconn *pg, const db_statement *s)
{
	PGresult *r = PQprepare(pg, s->name, s->sql, s->nparams, NULL);
	if (PQstatus(pg) != CONNECTION_OK) {
		PQclear(r);
		return -1;
	}
	if (!r || PQresultStatus(r) != PGRES_COMMAND_OK) {
		char what[160];
		snprintf(what, sizeof what, "preparing statement \"%s\"", s->name);
		if (r)
			log_result_error(what, r);
		else
			log_warn("db: %s failed: out of memory", what);
	}
	PQclear(r);
	return 0;
}

/* Prepares every statement of every table; -1 when the connection failed meanwhile. */
static int prepare_all(PGconn *pg)
{
	for (const db_statement *const *t = db_statement_tables; *t; t++)
		for (const db_statement *s = *t; s->name; s++)
			if (prepare_one(pg, s) < 0)
				return -1;
	return 0;
}

static void conn_close(db_conn *c)
{
	if (c->pg)
		PQfinish(c->pg);
	c->pg = NULL;
	c->broken = false;
	c->fatal_notice = false;
}

static void conn_destroy(void *p)
{
	db_conn *c = p;
	if (c) {
		conn_close(c);
		free(c);
	}
}

static void make_key(void)
{
	g_key_ok = pthread_key_create(&g_key, conn_destroy) == 0;
}

/* Makes c usable: checks the cached connection without a round trip (PQconsumeInput reads a
 * termination notice or EOF the server left on an idle socket; a connection still in pipeline
 * mode is not trusted either), reconnects when needed. Without
 * force, fails fast while the database is known to be down and the health thread watches it. */
static bool conn_ensure(db_conn *c, bool force)
{
	if (c->pg && !c->broken) {
		/* read and parse whatever arrived while idle; a second read finds the EOF that
		 * follows a FATAL message */
		if (PQconsumeInput(c->pg) && !PQisBusy(c->pg) && !c->fatal_notice &&
		    PQconsumeInput(c->pg) && PQstatus(c->pg) == CONNECTION_OK && !c->fatal_notice &&
		    PQpipelineStatus(c->pg) == PQ_PIPELINE_OFF) {
			PGTransactionStatusType ts = PQtransactionStatus(c->pg);
			if (ts == PQTRANS_IDLE)
				return true;
			if (ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR) {
				log_bug("db: connection left inside a transaction, "
				        "rolling back");
				PQclear(PQexec(c->pg, "ROLLBACK"));
				if (PQstatus(c->pg) == CONNECTION_OK &&
				    PQtransactionStatus(c->pg) == PQTRANS_IDLE)
					return true;
			}
		}
		c->broken = true;
	}
	conn_close(c);
	if (!force && !db_available() && health_running())
		return false; /* the health thread lifts the flag once the database is back */
	c->pg = connect_pg(g_conninfo);
	if (!c->pg)
		return false;
	PQsetNoticeReceiver(c->pg, notice_receiver, c);
	if (prepare_all(c->pg) != 0) {
		mark_unavailable(PQerrorMessage(c->pg));
		conn_close(c);
		return false;
	}
	mark_available();
	return true;
}

db_conn *db_thread_conn(void)
{
	db_conn *c = t_conn;
	if (!c) {
		c = xcalloc(1, sizeof *c);
		c->seed = (unsigned)time(NULL) ^ (unsigned)(uintptr_t)c;
		pthread_once(&g_key_once, make_key);
		/* Without the key the connection is still closed by db_thread_release. */
		if (g_key_ok)
			pthread_setspecific(g_key, c);
		t_conn = c;
	}
	c->busy = false; /* a new request: nothing of the previous one's */
	c->lock_refused = false;
	c->nowait = false;
	return conn_ensure(c, false) ? c : NULL;
}

void db_thread_release(void)
{
	db_conn *c = t_conn;
	if (!c)
		return;
	t_conn = NULL;
	if (g_key_ok)
		pthread_setspecific(g_key, NULL);
	conn_destroy(c);
}

PGconn *db_pg(db_conn *c)
{
	return c ? c->pg : NULL;
}

bool db_thread_busy(void)
{
	return t_conn && t_conn->busy;
}

/* ---- results ---- */

static void mark_broken(db_conn *c, const char *why)
{
	if (c)
		c->broken = true;
	if (!c || !c->standalone)
		mark_unavailable(why);
}

db_status db_result_status(db_conn *c, const PGresult *r)
{
	PGconn *pg = c ? c->pg : NULL;
	if (!r) {
		if (pg && PQstatus(pg) == CONNECTION_OK)
			return DB_FAIL; /* out of memory */
		mark_broken(c, pg ? PQerrorMessage(pg) : "no connection");
		return DB_UNAVAILABLE;
	}
	switch (PQresultStatus(r)) {
	case PGRES_COMMAND_OK:
	case PGRES_TUPLES_OK:
	case PGRES_EMPTY_QUERY:
		return DB_OK;
	case PGRES_FATAL_ERROR:
		break;
	default:
		return DB_FAIL;
	}
	const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	/* Our own timeouts: the database is fine, the request may be repeated. The session killed
	 * for idling in a transaction (FATAL 25P03) is gone: replaced before the next use, without
	 * lowering the availability flag. */
	if (state && strcmp(state, "25P03") == 0) {
		if (c) {
			c->broken = true;
			c->busy = true;
		}
		return DB_BUSY;
	}
	if (state && (strcmp(state, "57014") == 0 || strcmp(state, "55P03") == 0) &&
	    (!pg || PQstatus(pg) == CONNECTION_OK)) {
		if (c) {
			c->busy = true;
			c->lock_refused =
			    c->lock_refused || (c->nowait && state[0] == '5' && state[1] == '5');
		}
		return DB_BUSY;
	}
	if ((pg && PQstatus(pg) != CONNECTION_OK) ||
	    (state && (strncmp(state, "08", 2) == 0 || strcmp(state, "57P01") == 0 ||
	               strcmp(state, "57P02") == 0 || strcmp(state, "57P03") == 0))) {
		mark_broken(c, PQresultErrorMessage(r));
		return DB_UNAVAILABLE;
	}
	/* A read-only session (25006) is on a standby or on a fenced former primary: this
	 * connection cannot take writes any more, like a lost one. A fresh connection
	 * (target_session_attrs=read-write in DATABASE_URL) finds the primary: db_tx retries on
	 * one at once, other requests get 503 until a connection or the health probe succeeds. */
	if (state && strcmp(state, "25006") == 0) {
		mark_broken(c, PQresultErrorMessage(r));
		return DB_UNAVAILABLE;
	}
	if (state && (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0)) {
		if (c)
			c->saw_retryable = true;
		return DB_RETRY;
	}
	return DB_FAIL;
}

/* The lock timeout of a connection that may not wait (db_conn_nowait), milliseconds as text:
 * the shortest PostgreSQL takes. A lock free at once is granted at once; one held by another
 * session is refused (55P03) within about this. */
#define NOWAIT_LOCK_MS "1"

/* Sends what must precede the statement — the pending BEGIN, this transaction's (or this
 * autocommitted statement's) short lock timeout — and the statement in one pipeline, and
 * returns the statement's result (or the first failed one's before it; NULL when the
 * connection failed). One round trip. Without BEGIN the pipeline is one implicit transaction
 * (it ends at the Sync), so the lock timeout, set for the transaction only, covers the
 * statement and goes with it. A connection whose pipeline could not be entered, filled or left
 * is not used again: it is marked broken (db_tx then retries on a fresh connection, and the
 * next request gets one), so no later statement meets a connection still in pipeline mode. */
static PGresult *exec_pipelined(db_conn *c, const char *begin, bool nowait, const char *stmt,
                                int nparams, const char *const *params, const int *lengths,
                                const int *formats)
{
	static const char *const lock_ms[1] = {NOWAIT_LOCK_MS};
	PGresult *res[3] = {NULL, NULL, NULL}, *x;
	int n = 0;
	bool sent = PQenterPipelineMode(c->pg) == 1;
	if (sent && begin)
		sent = PQsendQueryParams(c->pg, begin, 0, NULL, NULL, NULL, NULL, 0) == 1 && ++n;
	if (sent && nowait)
		sent = PQsendQueryParams(c->pg, "SELECT set_config('lock_timeout', $1, true)", 1,
		                         NULL, lock_ms, NULL, NULL, 0) == 1 &&
		       ++n;
	if (sent)
		sent =
		    PQsendQueryPrepared(c->pg, stmt, nparams, params, lengths, formats, 0) == 1 &&
		    PQpipelineSync(c->pg) == 1;
	if (!sent) {
		/* what was queued may never be flushed: reading it back could wait forever */
		c->broken = true;
		return NULL;
	}
	/* each query's result followed by NULL, the statement's last; then the sync */
	for (int i = 0; i <= n; i++) {
		res[i] = PQgetResult(c->pg);
		while ((x = PQgetResult(c->pg)) != NULL)
			PQclear(x);
	}
	while ((x = PQgetResult(c->pg)) != NULL) { /* the PGRES_PIPELINE_SYNC */
		ExecStatusType t = PQresultStatus(x);
		PQclear(x);
		if (t == PGRES_PIPELINE_SYNC)
			break;
	}
	bool lost = PQexitPipelineMode(c->pg) != 1;
	for (int i = 0; i < n; i++)
		lost = lost || res[i] == NULL;
	if (lost) {
		if (PQstatus(c->pg) == CONNECTION_OK) {
			char msg[256];
			one_line(msg, sizeof msg, PQerrorMessage(c->pg));
			log_warn("db: leaving pipeline mode failed (%s); reconnecting", msg);
		}
		c->broken = true;
		for (int i = 0; i <= n; i++)
			PQclear(res[i]);
		return NULL;
	}
	PGresult *r = res[n];
	for (int i = n - 1; i >= 0; i--) { /* the first failure before the statement is the news */
		ExecStatusType t = PQresultStatus(res[i]);
		if (t != PGRES_COMMAND_OK && t != PGRES_TUPLES_OK) {
			PQclear(r);
			r = res[i];
		} else {
			PQclear(res[i]);
		}
	}
	return r;
}

void db_conn_nowait(db_conn *c, bool on)
{
	if (c)
		c->nowait = on;
}

bool db_conn_lock_refused(const db_conn *c)
{
	return c && c->lock_refused;
}

PGresult *db_exec(db_conn *c, const char *stmt, int nparams, const char *const *params)
{
	return db_exec_bin(c, stmt, nparams, params, NULL, NULL);
}

PGresult *db_exec_bin(db_conn *c, const char *stmt, int nparams, const char *const *params,
                      const int *lengths, const int *formats)
{
	if (!c || !c->pg || c->broken)
		return NULL;
	c->busy = false;
	c->lock_refused = false;
	const db_statement *s = db_statement_find(stmt);
	if (!s || s->nparams != nparams) {
		if (!s)
			log_bug("db: unknown statement \"%s\"", stmt ? stmt : "(null)");
		else
			log_bug("db: statement \"%s\" takes %d parameters, got %d", stmt,
			        s->nparams, nparams);
		/* A failed result (not NULL, which would mean "database down"): the caller's
		 * DB_FAIL path answers 500. */
		return PQmakeEmptyPGresult(c->pg, PGRES_FATAL_ERROR);
	}
	const char *begin = c->begin_pending;
	c->begin_pending = NULL;
	/* the short lock timeout goes with BEGIN, or with a statement outside any transaction */
	bool nowait = c->nowait && (begin || PQtransactionStatus(c->pg) == PQTRANS_IDLE);
	PGresult *r =
	    begin || nowait
	        ? exec_pipelined(c, begin, nowait, stmt, nparams, params, lengths, formats)
	        : PQexecPrepared(c->pg, stmt, nparams, params, lengths, formats, 0);
	switch (db_result_status(c, r)) {
	case DB_UNAVAILABLE:
		PQclear(r);
		return NULL;
	case DB_BUSY: {
		if (c->lock_refused)
			break; /* no incident: the caller waits elsewhere (db_conn_nowait) */
		char what[160];
		snprintf(what, sizeof what, "statement \"%s\"", stmt);
		log_result_error(what, r); /* a warning: 57014, 55P03 and 25P03 are no bugs */
		break;
	}
	case DB_FAIL:
		if (r) {
			/* Constraint violations (class 23) are expected outcomes handlers map to
			 * 409 / 422; anything else is logged. */
			const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
			if (!state || strncmp(state, "23", 2) != 0) {
				char what[160];
				snprintf(what, sizeof what, "statement \"%s\"", stmt);
				log_result_error(what, r);
			}
		}
		break;
	default:
		break;
	}
	return r;
}

/* ---- transactions ---- */

/* Runs a command of our own (BEGIN, COMMIT, ROLLBACK); *tag receives its command tag. */
static db_status run_cmd(db_conn *c, const char *sql, char *tag, size_t taglen)
{
	PGresult *r = PQexec(c->pg, sql);
	db_status st = db_result_status(c, r);
	if (tag)
		snprintf(tag, taglen, "%s", r ? PQcmdStatus(r) : "");
	if (st == DB_FAIL)
		log_result_error(sql, r);
	PQclear(r);
	return st;
}

static void rollback(db_conn *c)
{
	if (!c->broken && PQtransactionStatus(c->pg) != PQTRANS_IDLE)
		run_cmd(c, "ROLLBACK", NULL, 0);
}

/* One attempt. *commit_sent tells whether the outcome of a lost connection is unknown. */
static db_status tx_once(db_conn *c, const char *begin, db_tx_fn fn, void *arg, bool *commit_sent)
{
	*commit_sent = false;
	c->saw_retryable = false;
	c->busy = false;
	c->lock_refused = false;
	/* BEGIN goes out with the first statement fn runs (exec_with_begin) */
	c->begin_pending = begin;
	db_status st = fn(c, arg);
	bool began = c->begin_pending == NULL;
	c->begin_pending = NULL;
	if (c->broken)
		return c->busy ? DB_BUSY : DB_UNAVAILABLE;
	if (!began) /* fn ran no statement: there is no transaction to end */
		return st == DB_OK || st == DB_ABORT ? st : DB_FAIL;
	if (st == DB_OK) {
		char tag[32];
		*commit_sent = true;
		st = run_cmd(c, "COMMIT", tag, sizeof tag);
		if (st == DB_OK && strcmp(tag, "COMMIT") != 0) {
			/* The server answers ROLLBACK to a COMMIT of a failed transaction: fn
			 * ignored an error of one of its statements. */
			if (!c->saw_retryable && !c->busy)
				log_bug("db: transaction function returned DB_OK after "
				        "a failed statement; rolled back");
			st = c->saw_retryable ? DB_RETRY : c->busy ? DB_BUSY : DB_FAIL;
		}
		return st;
	}
	bool busy = c->busy; /* the ROLLBACK's own result does not count */
	rollback(c);
	if (c->broken)
		return DB_UNAVAILABLE;
	switch (st) {
	case DB_ABORT:
	case DB_RETRY:
	case DB_UNAVAILABLE:
	case DB_BUSY:
		return st;
	default:
		/* fn may report a serialization failure or a timeout as a plain failure */
		c->busy = busy;
		return c->saw_retryable ? DB_RETRY : busy ? DB_BUSY : DB_FAIL;
	}
}

static void backoff(db_conn *c, int attempt)
{
	/* 1, 2, 4 … 64 ms (capped), each scaled by a random factor in [0.5, 1.5) */
	long base_us = 1000L << (attempt < 6 ? attempt : 6);
	long us = base_us / 2 + (long)(rand_r(&c->seed) % (unsigned)base_us);
	struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Runs fn in transactions begun by begin until one ends (db_tx). */
static db_status tx_run(db_conn *c, const char *begin, db_tx_fn fn, void *arg)
{
	if (!fn)
		return DB_FAIL;
	if (!c)
		return DB_UNAVAILABLE;
	bool reconnected = false;
	int retries = 0;
	for (;;) {
		if ((!c->pg || c->broken) && !conn_ensure(c, reconnected))
			return DB_UNAVAILABLE;
		bool commit_sent;
		db_status st = tx_once(c, begin, fn, arg, &commit_sent);
		switch (st) {
		case DB_UNAVAILABLE:
			/* Nothing was committed unless COMMIT went out: one more try on a fresh
			 * connection (the common case: the server restarted while we were idle). */
			if (commit_sent || reconnected)
				return DB_UNAVAILABLE;
			reconnected = true;
			c->broken = true;
			continue;
		case DB_RETRY:
			if (retries >= DB_TX_RETRIES) {
				log_warn("db: transaction still failing after %d retries "
				         "(serialization failure / deadlock)",
				         retries);
				return DB_RETRY;
			}
			backoff(c, retries++);
			continue;
		default:
			return st;
		}
	}
}

db_status db_tx(db_conn *c, bool serializable, db_tx_fn fn, void *arg)
{
	return tx_run(c, serializable ? "BEGIN ISOLATION LEVEL SERIALIZABLE" : "BEGIN", fn, arg);
}

db_status db_tx_snapshot(db_conn *c, db_tx_fn fn, void *arg)
{
	return tx_run(c, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", fn, arg);
}

/* ---- health thread ---- */

/* Connects if needed and runs SELECT 1; true when the database answered. */
static bool probe(PGconn **pg)
{
	for (int fresh = 0; fresh < 2; fresh++) {
		if (!*pg || PQstatus(*pg) != CONNECTION_OK) {
			if (*pg)
				PQfinish(*pg);
			*pg = connect_pg(g_conninfo);
			if (!*pg)
				return false;
			fresh = 1;
		}
		PGresult *r = PQexec(*pg, "SELECT 1");
		bool ok = r && PQresultStatus(r) == PGRES_TUPLES_OK;
		if (!ok && fresh)
			mark_unavailable(r ? PQresultErrorMessage(r) : PQerrorMessage(*pg));
		PQclear(r);
		if (ok)
			return true;
		/* an old connection may have died with the previous server: retry once fresh */
		PQfinish(*pg);
		*pg = NULL;
	}
	return false;
}

static void *health_main(void *arg)
{
	(void)arg;
	PGconn *pg = NULL;
	pthread_mutex_lock(&g_health_mu);
	while (!g_health_stop) {
		g_health_kick = false;
		pthread_mutex_unlock(&g_health_mu);
		bool ok = probe(&pg);
		if (ok)
			mark_available();
		pthread_mutex_lock(&g_health_mu);
		struct timespec until;
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec += ok ? HEALTH_UP_INTERVAL_S : HEALTH_DOWN_INTERVAL_S;
		while (!g_health_stop && !g_health_kick) {
			if (pthread_cond_timedwait(&g_health_cv, &g_health_mu, &until) == ETIMEDOUT)
				break;
		}
	}
	pthread_mutex_unlock(&g_health_mu);
	if (pg)
		PQfinish(pg);
	return NULL;
}

int db_init(const char *conninfo)
{
	pthread_mutex_lock(&g_health_mu);
	bool running = g_health_running;
	pthread_mutex_unlock(&g_health_mu);
	if (running) {
		log_bug("db: db_init called twice");
		return -1;
	}
	free(g_conninfo);
	g_conninfo = NULL;
	if (conninfo)
		g_conninfo = xstrdup(conninfo);
	atomic_store(&g_available, true);

	pthread_condattr_t attr;
	if (pthread_condattr_init(&attr) != 0)
		goto fail;
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	int rc = pthread_cond_init(&g_health_cv, &attr);
	pthread_condattr_destroy(&attr);
	if (rc != 0)
		goto fail;
	g_health_stop = false;
	g_health_kick = false;
	pthread_mutex_lock(&g_health_mu);
	rc = pthread_create(&g_health_thread, NULL, health_main, NULL);
	g_health_running = rc == 0;
	pthread_mutex_unlock(&g_health_mu);
	if (rc != 0) {
		pthread_cond_destroy(&g_health_cv);
		goto fail;
	}
	return 0;
fail:
	log_warn("db: cannot start the health thread");
	free(g_conninfo);
	g_conninfo = NULL;
	return -1;
}

void db_shutdown(void)
{
	pthread_mutex_lock(&g_health_mu);
	bool running = g_health_running;
	g_health_stop = true;
	if (running)
		pthread_cond_signal(&g_health_cv);
	pthread_mutex_unlock(&g_health_mu);
	if (running) {
		pthread_join(g_health_thread, NULL);
		pthread_mutex_lock(&g_health_mu);
		g_health_running = false;
		pthread_mutex_unlock(&g_health_mu);
		pthread_cond_destroy(&g_health_cv);
	}
	db_thread_release();
	free(g_conninfo);
	g_conninfo = NULL;
}

// clang-format off
#define HEALTH_PING_COLUMNS(C) C(HEALTH_PING_ONE, one)
// clang-format on
DB_COLUMNS(HEALTH_PING_COLUMNS, HEALTH_PING_NCOLS);

// clang-format off
const db_statement db_health_statements[] = {
	/* db_ping: one round trip (GET /api/v1/health, the health thread's probe) */
	{"health_ping",
	 "SELECT 1 AS one",
	 0, DB_COLUMN_NAMES(HEALTH_PING_COLUMNS)},
	DB_STATEMENTS_END,
};
// clang-format on

bool db_ping(db_conn *c)
{
	PGresult *r = db_exec(c, "health_ping", 0, NULL);
	bool ok = r && db_result_status(c, r) == DB_OK && db_nrows(r) == 1 &&
	          strcmp(db_col_text(r, 0, HEALTH_PING_ONE), "1") == 0;
	PQclear(r);
	return ok;
}

/* ---- standalone connections (a read replica's) ---- */

db_conn *db_conn_open(const char *conninfo, char *err, size_t errlen)
{
	PGconn *pg = db_connect(conninfo, DB_ROLE_READ, err, errlen);
	if (!pg)
		return NULL;
	db_conn *c = xcalloc(1, sizeof *c);
	c->pg = pg;
	c->standalone = true;
	c->seed = (unsigned)time(NULL) ^ (unsigned)(uintptr_t)c;
	PQsetNoticeReceiver(pg, notice_receiver, c);
	if (prepare_all(pg) != 0) {
		one_line(err, errlen, PQerrorMessage(pg));
		db_conn_free(c);
		return NULL;
	}
	return c;
}

bool db_conn_usable(db_conn *c)
{
	/* as conn_ensure: read what arrived while idle (a termination notice, EOF) */
	return c && c->pg && !c->broken && PQconsumeInput(c->pg) && !PQisBusy(c->pg) &&
	       PQconsumeInput(c->pg) && !c->fatal_notice && PQstatus(c->pg) == CONNECTION_OK &&
	       PQtransactionStatus(c->pg) == PQTRANS_IDLE;
}

void db_conn_free(db_conn *c)
{
	conn_destroy(c);
}
