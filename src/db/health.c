/* The availability flag and the health thread, db_init and db_shutdown, db_ping.
 *
 * Ownership and lifetime: g_conninfo is a copy made by db_init and freed by db_shutdown; it is
 * written only while no other thread uses the module (before the server starts, after it
 * stopped). The health thread owns its own PGconn, closed when db_shutdown stops it.
 *
 * Availability: g_available starts true; it turns false when a connection attempt or a query finds
 * the database gone, and true again when a connection succeeds. While it is false (and the health
 * thread runs), db_thread_conn fails fast instead of stalling a request thread for the connect
 * timeout: the health thread alone probes the database (every 1 s while down, every 5 s while up,
 * at once when a request thread reports a failure) and lifts the flag. */
#include "base/log.h"
#include "base/oom.h"
#include "db/conn.h"
#include "db/rows.h"
#include "db/statements.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
	HEALTH_UP_INTERVAL_S = 5,
	HEALTH_DOWN_INTERVAL_S = 1,
};

static char *g_conninfo; /* NULL or "": libpq's PG* environment */

static atomic_bool g_available = true;

static pthread_mutex_t g_health_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_health_cv;
static pthread_t g_health_thread;
static bool g_health_running; /* guarded by g_health_mu */
static bool g_health_stop;    /* guarded by g_health_mu */
static bool g_health_kick;    /* guarded by g_health_mu */

const char *db_conninfo(void)
{
	return g_conninfo;
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

void db_mark_unavailable(const char *why)
{
	if (atomic_exchange(&g_available, false)) {
		char msg[512];
		db_one_line(msg, sizeof msg, why);
		log_warn("db: database unavailable: %s", msg);
		health_kick();
	}
}

void db_mark_available(void)
{
	if (!atomic_exchange(&g_available, true))
		log_info("db: database available again");
}

bool db_available(void)
{
	return atomic_load(&g_available);
}

bool db_health_running(void)
{
	pthread_mutex_lock(&g_health_mu);
	bool running = g_health_running;
	pthread_mutex_unlock(&g_health_mu);
	return running;
}

/* ---- health thread ---- */

/* Connects if needed and runs SELECT 1; true when the database answered. */
static bool probe(PGconn **pg)
{
	for (int fresh = 0; fresh < 2; fresh++) {
		if (!*pg || PQstatus(*pg) != CONNECTION_OK) {
			if (*pg)
				PQfinish(*pg);
			*pg = db_connect_worker(g_conninfo);
			if (!*pg)
				return false;
			fresh = 1;
		}
		PGresult *r = PQexec(*pg, "SELECT 1");
		bool ok = r && PQresultStatus(r) == PGRES_TUPLES_OK;
		if (!ok && fresh)
			db_mark_unavailable(r ? PQresultErrorMessage(r) : PQerrorMessage(*pg));
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
	pthread_setname_np(pthread_self(), "db-health"); /* in top, perf and gdb */
	PGconn *pg = NULL;
	pthread_mutex_lock(&g_health_mu);
	while (!g_health_stop) {
		g_health_kick = false;
		pthread_mutex_unlock(&g_health_mu);
		bool ok = probe(&pg);
		if (ok)
			db_mark_available();
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

/* health_ping: one round trip (GET /api/v1/health, db_ping) */
#define HEALTH_PING_COLUMNS(C) C(HEALTH_PING_ONE, one)
DB_COLUMNS(HEALTH_PING_COLUMNS, HEALTH_PING_NCOLS);

// clang-format off
const db_statement db_health_statements[] = {
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
