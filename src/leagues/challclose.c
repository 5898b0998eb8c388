/* The closer of league challenges (challclose.h). Each round lists the challenges past their
 * closing time (db_challenges_due, every league) and closes each as a read of its board would
 * (challboard_close by time: one transaction under the league's lock, exactly once, whichever
 * server or request gets there first). The thread may wait (it serves no connection); its
 * database connection is closed by db/conn.c's thread-exit destructor. */
#include "leagues/challclose.h"

#include "leagues/challboard.h"
#include "base/clock.h"
#include "base/log.h"
#include "db/challenges.h"
#include "db/db.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv; /* stop asked, or the thread connected (monotonic clock) */
static bool g_stopping, g_running, g_connected;
static pthread_t g_thread;
static long g_period_ms;

/* One round: every due challenge closed; a failure is logged and left for the next round. */
static void close_due(void)
{
	db_conn *c = db_thread_conn();
	if (c == NULL)
		return; /* the database is away: the next round looks again */
	db_due_challenges due = {0};
	db_status st = db_challenges_due(c, &due);
	account nobody = {0};
	for (int i = 0; st == DB_OK && i < due.n; i++) {
		http_resp resp = {0};
		if (!challboard_close(c, due.rows[i].league, due.rows[i].id, true, NULL, &nobody,
		                      &resp))
			log_warn("challenge %s: not closed (%d), tried again later", due.rows[i].id,
			         resp.status);
		http_resp_clear(&resp);
	}
	if (st != DB_OK)
		log_warn("challenges: the due ones not listed, tried again later");
	db_rowset_clear(&due);
}

static void *closer(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "chall-close"); /* in top, perf and gdb */
	http_thread_may_wait(true);
	/* its connection first, while the server starts: the server's descriptors and connections
	 * are what they will stay once it serves (a database away now: the first look retries) */
	(void)db_thread_conn();
	pthread_mutex_lock(&g_mu);
	g_connected = true;
	pthread_cond_broadcast(&g_cv);
	while (!g_stopping) {
		struct timespec until = clock_in_ms(g_period_ms);
		while (!g_stopping && pthread_cond_timedwait(&g_cv, &g_mu, &until) != ETIMEDOUT)
			;
		if (g_stopping)
			break;
		pthread_mutex_unlock(&g_mu);
		close_due();
		pthread_mutex_lock(&g_mu);
	}
	pthread_mutex_unlock(&g_mu);
	return NULL;
}

int challclose_start(void)
{
	const char *p = getenv("CHALLENGE_CLOSE_PERIOD_MS");
	g_period_ms = p && *p ? atol(p) : 10000;
	if (g_period_ms < 50)
		g_period_ms = 50;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g_cv, &ca);
	pthread_condattr_destroy(&ca);
	g_stopping = g_connected = false;
	if (pthread_create(&g_thread, NULL, closer, NULL) != 0) {
		pthread_cond_destroy(&g_cv);
		log_warn("challenges: the closer thread did not start");
		return -1;
	}
	g_running = true;
	pthread_mutex_lock(&g_mu);
	while (!g_connected)
		pthread_cond_wait(&g_cv, &g_mu);
	pthread_mutex_unlock(&g_mu);
	return 0;
}

void challclose_stop(void)
{
	if (!g_running)
		return;
	pthread_mutex_lock(&g_mu);
	g_stopping = true;
	pthread_cond_signal(&g_cv);
	pthread_mutex_unlock(&g_mu);
	pthread_join(g_thread, NULL);
	pthread_cond_destroy(&g_cv);
	g_running = false;
}
