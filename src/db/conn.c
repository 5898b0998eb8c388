/* Connections: each thread's own (db_thread_conn), opened lazily and replaced when broken, and
 * a read replica's (db_conn_open); every statement of every table (statements.c) is prepared on
 * each new one.
 *
 * Ownership and lifetime: each thread's db_conn (and its PGconn) belongs to that thread:
 * created by db_thread_conn, freed by db_thread_release or, for threads that simply exit
 * (libmicrohttpd's pool), by the pthread key destructor. A db_conn pointer must never be
 * handed to another thread. A read replica's belongs to whoever opened it (db_conn_free). */
#include "base/log.h"
#include "base/oom.h"
#include "db/conn.h"
#include "db/statements.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t g_key;
static bool g_key_ok;
static _Thread_local db_conn *t_conn;

/* ---- each thread's connection ---- */

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
	db_one_line(msg, sizeof msg, PQresultErrorMessage(r));
	log_warn("db: server says: %s", msg);
}

/* A worker's new connection (caller owns it, PQfinish), or NULL with the flag lowered. */
PGconn *db_connect_worker(const char *conninfo)
{
	char err[512];
	PGconn *pg = db_connect(conninfo, DB_ROLE_WORKER, err, sizeof err);
	if (!pg) {
		db_mark_unavailable(err);
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
			db_log_result_error(what, r);
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
bool db_conn_ensure(db_conn *c, bool force)
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
				c->lock_session = DB_LOCK_UNKNOWN;
				c->lock_in_tx = false;
				if (PQstatus(c->pg) == CONNECTION_OK &&
				    PQtransactionStatus(c->pg) == PQTRANS_IDLE)
					return true;
			}
		}
		c->broken = true;
	}
	conn_close(c);
	if (!force && !db_available() && db_health_running())
		return false; /* the health thread lifts the flag once the database is back */
	c->pg = db_connect_worker(db_conninfo());
	if (!c->pg)
		return false;
	c->lock_session = DB_LOCK_ROLE; /* db_connect set the role's timeouts */
	c->lock_in_tx = false;
	PQsetNoticeReceiver(c->pg, notice_receiver, c);
	if (prepare_all(c->pg) != 0) {
		db_mark_unavailable(PQerrorMessage(c->pg));
		conn_close(c);
		return false;
	}
	db_mark_available();
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
	return db_conn_ensure(c, false) ? c : NULL;
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

bool db_thread_busy(void)
{
	return t_conn && t_conn->busy;
}

bool db_thread_lost(void)
{
	return t_conn && (!t_conn->pg || t_conn->broken);
}

/* ---- standalone connections (a read replica's) ---- */

db_conn *db_conn_open(const char *conninfo, char *err, size_t errlen)
{
	PGconn *pg = db_connect(conninfo, DB_ROLE_READ, err, errlen);
	if (!pg)
		return NULL;
	db_conn *c = xcalloc(1, sizeof *c);
	c->pg = pg;
	c->lock_session = DB_LOCK_ROLE;
	c->standalone = true;
	c->seed = (unsigned)time(NULL) ^ (unsigned)(uintptr_t)c;
	PQsetNoticeReceiver(pg, notice_receiver, c);
	if (prepare_all(pg) != 0) {
		db_one_line(err, errlen, PQerrorMessage(pg));
		db_conn_free(c);
		return NULL;
	}
	return c;
}

bool db_conn_usable(db_conn *c)
{
	/* as db_conn_ensure: read what arrived while idle (a termination notice, EOF) */
	return c && c->pg && !c->broken && PQconsumeInput(c->pg) && !PQisBusy(c->pg) &&
	       PQconsumeInput(c->pg) && !c->fatal_notice && PQstatus(c->pg) == CONNECTION_OK &&
	       PQtransactionStatus(c->pg) == PQTRANS_IDLE;
}

void db_conn_free(db_conn *c)
{
	conn_destroy(c);
}
