/* Notifications after commit, batched (notify.h).
 *
 * The queue is a ring of fixed-size payloads behind one mutex; the thread takes up to
 * DB_NOTIFY_BATCH_MAX of them at a time and sends them with
 *   SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p
 * (PQexecParams: the payloads travel as one text[] parameter, never as SQL). */
#include "db/notify.h"
#include "base/clock.h"

#include "base/log.h"
#include "base/oom.h"
#include "db/db.h"

#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RETRY_S = 1 };

static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char (*ring)[DB_NOTIFY_PAYLOAD_MAX]; /* DB_NOTIFY_QUEUE_MAX slots */
	size_t head, len;
	bool catch_all; /* the next batch carries DB_NOTIFY_ALL */
	bool closing, running;
	unsigned long sent, batches;
	char *conninfo, *channel;
	pthread_t thread;
} g = {.mu = PTHREAD_MUTEX_INITIALIZER};

void db_notify_post(const char *payload)
{
	pthread_mutex_lock(&g.mu);
	if (!g.running) {
		pthread_mutex_unlock(&g.mu);
		return;
	}
	bool was_idle = g.len == 0 && !g.catch_all;
	if (strlen(payload) >= DB_NOTIFY_PAYLOAD_MAX || g.len == DB_NOTIFY_QUEUE_MAX) {
		g.catch_all = true; /* covers everything that waits, and this one */
		g.len = 0;
	} else {
		size_t slot = (g.head + g.len) % DB_NOTIFY_QUEUE_MAX;
		memcpy(g.ring[slot], payload, strlen(payload) + 1);
		g.len++;
	}
	/* wake the thread for a batch's first payload and when one is full, not for each: while
	 * a batch gathers, the thread sleeps out its window */
	if (was_idle || g.len == DB_NOTIFY_BATCH_MAX)
		pthread_cond_signal(&g.cv);
	pthread_mutex_unlock(&g.mu);
}

void db_notify_stats_get(db_notify_stats *out)
{
	pthread_mutex_lock(&g.mu);
	*out = (db_notify_stats){
	    .sent = g.sent, .batches = g.batches, .queued = g.len, .catch_all = g.catch_all};
	pthread_mutex_unlock(&g.mu);
}

/* A connection whose transactions do not wait for a flush, or NULL. The first failure of an
 * episode is logged (*said: already logged; the caller resets it once connected). */
static PGconn *notify_connect(bool *said)
{
	char err[512];
	PGconn *pg = db_connect(g.conninfo, DB_ROLE_NOTIFY, err, sizeof err);
	if (pg) {
		PGresult *r = PQexec(pg, "SET synchronous_commit = off");
		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			snprintf(err, sizeof err, "SET synchronous_commit failed: %s",
			         PQerrorMessage(pg));
			err[strcspn(err, "\n")] = '\0';
			PQfinish(pg);
			pg = NULL;
		}
		PQclear(r);
	}
	if (!pg && !*said)
		log_warn("notify: no connection (%s); retrying every second", err);
	if (!pg)
		*said = true;
	return pg;
}

/* Appends s to the array literal in buf as a quoted element ("…" with \ and " escaped). */
static void append_element(char *buf, size_t *len, const char *s)
{
	if (*len > 1)
		buf[(*len)++] = ',';
	buf[(*len)++] = '"';
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			buf[(*len)++] = '\\';
		buf[(*len)++] = *s;
	}
	buf[(*len)++] = '"';
}

/* Takes the next batch off the queue into the array literal buf (NUL-terminated); returns the
 * number of payloads in it. Called with g.mu held. */
static int take_batch(char *buf)
{
	size_t len = 0;
	int n = 0;
	buf[len++] = '{';
	if (g.catch_all) {
		append_element(buf, &len, DB_NOTIFY_ALL);
		g.catch_all = false;
		n++;
	}
	while (g.len > 0 && n < DB_NOTIFY_BATCH_MAX) {
		append_element(buf, &len, g.ring[g.head]);
		g.head = (g.head + 1) % DB_NOTIFY_QUEUE_MAX;
		g.len--;
		n++;
	}
	buf[len++] = '}';
	buf[len] = '\0';
	return n;
}

/* Sends one batch; false when the connection failed (the caller reconnects). */
static bool send_batch(PGconn *pg, const char *array)
{
	const char *params[2] = {g.channel, array};
	PGresult *r = PQexecParams(pg, "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", 2,
	                           NULL, params, NULL, NULL, 0);
	bool ok = PQresultStatus(r) == PGRES_TUPLES_OK;
	if (!ok && PQstatus(pg) == CONNECTION_OK)
		log_bug("notify: the batch failed: %s", PQerrorMessage(pg));
	PQclear(r);
	return ok;
}

/* Lets the batch fill for DB_NOTIFY_WINDOW_MS after its first payload (less if it fills up or
 * the notifier is closing): one statement then carries every change of that window. Called
 * with g.mu held. */
static void gather_locked(void)
{
	struct timespec ts = clock_in_ms(DB_NOTIFY_WINDOW_MS);
	while (!g.closing && g.len < DB_NOTIFY_BATCH_MAX &&
	       pthread_cond_timedwait(&g.cv, &g.mu, &ts) == 0)
		;
}

/* Waits RETRY_S seconds unless the notifier is closing. Called with g.mu held. */
static void pause_locked(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += RETRY_S;
	while (!g.closing && pthread_cond_timedwait(&g.cv, &g.mu, &ts) == 0)
		;
}

static void *notifier(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "db-notify"); /* in top, perf and gdb */
	/* worst case: every element escaped, quoted and separated */
	char *array =
	    xmalloc(2 + (size_t)(DB_NOTIFY_BATCH_MAX + 1) * (2 * DB_NOTIFY_PAYLOAD_MAX + 3));
	bool said = false;
	PGconn *pg = notify_connect(&said); /* at once, as the listener does: ready for the first
	                                     * change, and the process's descriptors settle at
	                                     * start */
	pthread_mutex_lock(&g.mu);
	for (;;) {
		while (!g.closing && g.len == 0 && !g.catch_all)
			pthread_cond_wait(&g.cv, &g.mu);
		if (g.len == 0 && !g.catch_all)
			break; /* closing, and nothing left */
		gather_locked();
		if (pg == NULL) {
			pthread_mutex_unlock(&g.mu);
			pg = notify_connect(&said);
			pthread_mutex_lock(&g.mu);
			if (pg == NULL) {
				if (g.closing)
					break; /* the database is away: nothing can be sent */
				pause_locked();
				continue;
			}
			if (said)
				log_info("notify: connected again");
			said = false;
		}
		int n = take_batch(array);
		pthread_mutex_unlock(&g.mu);
		bool ok = send_batch(pg, array);
		pthread_mutex_lock(&g.mu);
		if (ok) {
			g.sent += (unsigned long)n;
			g.batches++;
			continue;
		}
		/* it may not have gone out: tell every listener to refresh once we can */
		g.catch_all = true;
		if (PQstatus(pg) != CONNECTION_OK) {
			PQfinish(pg);
			pg = NULL;
		}
		if (g.closing)
			break;
		pause_locked();
	}
	pthread_mutex_unlock(&g.mu);
	PQfinish(pg);
	free(array);
	return NULL;
}

/* Back to "not running": frees what db_notify_start allocated (no thread runs). */
static void release(void)
{
	pthread_mutex_lock(&g.mu);
	g.running = false;
	free(g.ring);
	free(g.conninfo);
	free(g.channel);
	g.ring = NULL;
	g.conninfo = g.channel = NULL;
	pthread_mutex_unlock(&g.mu);
	pthread_cond_destroy(&g.cv);
}

int db_notify_start(const char *conninfo, const char *channel)
{
	pthread_mutex_lock(&g.mu);
	bool running = g.running;
	pthread_mutex_unlock(&g.mu);
	if (running || channel == NULL)
		return -1;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g.cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_lock(&g.mu);
	g.ring = xcalloc(DB_NOTIFY_QUEUE_MAX, sizeof *g.ring);
	g.conninfo = xstrdup(conninfo ? conninfo : "");
	g.channel = xstrdup(channel);
	g.head = g.len = 0;
	g.catch_all = g.closing = false;
	g.sent = g.batches = 0;
	g.running = true;
	pthread_mutex_unlock(&g.mu);
	if (pthread_create(&g.thread, NULL, notifier, NULL) != 0) {
		log_warn("notify: cannot start the notifier thread");
		release();
		return -1;
	}
	return 0;
}

void db_notify_stop(void)
{
	pthread_mutex_lock(&g.mu);
	if (!g.running) {
		pthread_mutex_unlock(&g.mu);
		return;
	}
	g.closing = true;
	pthread_cond_signal(&g.cv);
	pthread_mutex_unlock(&g.mu);
	pthread_join(g.thread, NULL);
	release();
}
