/* Write groups (writegroup.h): one FIFO of handed-over writes under a mutex (a game's later
 * writes chained to its write there, in the same entry), and threads that each take everything
 * waiting (up to WRITE_GROUP_MAX entries), send it as one statement on their own connection and
 * run each entry's `done`. While one thread's statement is out, the writes that
 * arrive meanwhile gather for the next statement: a second thread sends them only once that
 * statement has been out HANDOFF_US (a slow commit, a busy machine), so that under load the
 * groups stay large and a write waits for at most about that long before its statement goes. */
#include "engine/writegroup.h"

#include "base/log.h"
#include "base/oom.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { HANDOFF_US = 1500 };

static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* a write was queued, a statement came back, or the groups stop */
	wg_write *head, *tail;
	unsigned out;         /* statements sent and not back yet */
	struct timespec sent; /* when the last of them was sent (CLOCK_MONOTONIC) */
	bool stopping;
	unsigned ready; /* threads that have their connection (or failed to get one) */
	unsigned nthreads;
	pthread_t *threads;
	/* sent so far (the log's figures at stop): writes, of them chained to another write of
	 * their game, statements, the most writes in one */
	unsigned long writes, chained, statements, largest;
	unsigned long queued; /* writes in the queue now, chained ones included */
} g_wg = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* t plus us microseconds */
static struct timespec plus_us(struct timespec t, long us)
{
	t.tv_nsec += us * 1000;
	t.tv_sec += t.tv_nsec / 1000000000;
	t.tv_nsec %= 1000000000;
	return t;
}

static bool before(struct timespec a, struct timespec b)
{
	return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

/* Waits (g_wg.mu held) until there is something to send and this thread may send it: no
 * statement is out, or the last one has been out HANDOFF_US; or the groups stop. */
static void wait_turn(void)
{
	for (;;) {
		while (!g_wg.head && !g_wg.stopping)
			pthread_cond_wait(&g_wg.cv, &g_wg.mu);
		if (!g_wg.head || g_wg.out == 0)
			return;
		struct timespec now, due = plus_us(g_wg.sent, HANDOFF_US);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (!before(now, due))
			return;
		pthread_cond_timedwait(&g_wg.cv, &g_wg.mu, &due);
	}
}

/* The writes of the entry that starts with w. */
static unsigned long entry_writes(const wg_write *w)
{
	unsigned long n = 0;
	for (const db_append_one *x = &w->w; x; x = x->next)
		n++;
	return n;
}

/* Takes up to WRITE_GROUP_MAX writes off the queue into out, counted as a statement out; waits
 * for them (wait_turn). 0: the groups stop and nothing is left. */
static int take(wg_write **out)
{
	pthread_mutex_lock(&g_wg.mu);
	wait_turn();
	int n = 0;
	unsigned long writes = 0;
	while (g_wg.head && n < WRITE_GROUP_MAX) {
		wg_write *w = g_wg.head;
		g_wg.head = w->next;
		w->next = NULL;
		out[n++] = w;
		writes += entry_writes(w);
	}
	if (!g_wg.head)
		g_wg.tail = NULL;
	g_wg.queued -= writes;
	if (n) {
		g_wg.out++;
		clock_gettime(CLOCK_MONOTONIC, &g_wg.sent);
		g_wg.writes += writes;
		g_wg.chained += writes - (unsigned long)n;
		g_wg.statements++;
		if (writes > g_wg.largest)
			g_wg.largest = writes;
	}
	pthread_mutex_unlock(&g_wg.mu);
	return n;
}

/* Sends n writes as one statement and runs each one's done. */
static void send_group(wg_write **ws, int n)
{
	db_append_one *one[WRITE_GROUP_MAX];
	for (int i = 0; i < n; i++)
		one[i] = &ws[i]->w;
	db_conn *c = db_thread_conn();
	db_status st = DB_UNAVAILABLE;
	if (c) {
		/* a row another session holds ends the statement at once: its writes go where
		 * waiting is allowed (their done defers them), not the whole group behind one row
		 */
		db_conn_nowait(c, true);
		st = db_events_append_group(c, one, n);
		db_conn_nowait(c, false);
	}
	pthread_mutex_lock(&g_wg.mu); /* back: the writes waiting may go at once */
	g_wg.out--;
	pthread_cond_broadcast(&g_wg.cv);
	pthread_mutex_unlock(&g_wg.mu);
	for (int i = 0; i < n; i++) /* w.applied, and its chained writes', say what was written */
		ws[i]->done(ws[i], c, st);
}

/* The thread's connection, made while the server starts (so it is there before the first
 * request, and its descriptor before any count of them), its session already at the short
 * lock timeout its statements run with: a group's statement is the one statement a write
 * costs. */
static void connect_early(void)
{
	db_conn *c = db_thread_conn();
	if (c) {
		db_conn_nowait(c, true);
		db_ping(c);
		db_conn_nowait(c, false);
	}
	pthread_mutex_lock(&g_wg.mu);
	g_wg.ready++;
	pthread_cond_broadcast(&g_wg.cv);
	pthread_mutex_unlock(&g_wg.mu);
}

static void *group_thread(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "wgroups"); /* in top, perf and gdb */
	connect_early();
	wg_write *ws[WRITE_GROUP_MAX];
	int n;
	while ((n = take(ws)) > 0)
		send_group(ws, n);
	db_thread_release();
	return NULL;
}

int writegroup_start(unsigned threads)
{
	if (threads == 0)
		return 0;
	g_wg.stopping = false;
	g_wg.ready = 0;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g_wg.cv, &ca);
	pthread_condattr_destroy(&ca);
	g_wg.threads = xcalloc(threads, sizeof *g_wg.threads);
	for (unsigned i = 0; i < threads; i++) {
		if (pthread_create(&g_wg.threads[i], NULL, group_thread, NULL) != 0)
			break;
		g_wg.nthreads++;
	}
	if (g_wg.nthreads == 0) {
		free(g_wg.threads);
		g_wg.threads = NULL;
		pthread_cond_destroy(&g_wg.cv);
		return -1;
	}
	if (g_wg.nthreads < threads)
		log_warn("engine: %u of %u write group threads started", g_wg.nthreads, threads);
	pthread_mutex_lock(&g_wg.mu);
	while (g_wg.ready < g_wg.nthreads)
		pthread_cond_wait(&g_wg.cv, &g_wg.mu);
	pthread_mutex_unlock(&g_wg.mu);
	return 0;
}

bool writegroup_on(void)
{
	return g_wg.nthreads > 0;
}

void writegroup_push(wg_write *w)
{
	w->next = NULL;
	pthread_mutex_lock(&g_wg.mu);
	if (g_wg.tail)
		g_wg.tail->next = w;
	else
		g_wg.head = w;
	g_wg.tail = w;
	g_wg.queued += entry_writes(w);
	pthread_cond_signal(&g_wg.cv);
	pthread_mutex_unlock(&g_wg.mu);
}

/* The write of game id waiting in the queue (g_wg.mu held), or NULL. */
static wg_write *queued(const char *id)
{
	for (wg_write *w = g_wg.head; w; w = w->next)
		if (strcmp(w->w.id, id) == 0)
			return w;
	return NULL;
}

bool writegroup_waiting(const char *id)
{
	pthread_mutex_lock(&g_wg.mu);
	bool waiting = queued(id) != NULL;
	pthread_mutex_unlock(&g_wg.mu);
	return waiting;
}

bool writegroup_chain(const char *id, bool (*chain)(wg_write *w, void *arg), void *arg)
{
	pthread_mutex_lock(&g_wg.mu);
	wg_write *w = queued(id);
	bool chained = w && chain(w, arg);
	if (chained)
		g_wg.queued++;
	pthread_mutex_unlock(&g_wg.mu);
	return chained;
}

unsigned long writegroup_queued(void)
{
	pthread_mutex_lock(&g_wg.mu);
	unsigned long n = g_wg.queued;
	pthread_mutex_unlock(&g_wg.mu);
	return n;
}

void writegroup_stop(void)
{
	if (g_wg.nthreads == 0)
		return;
	pthread_mutex_lock(&g_wg.mu);
	g_wg.stopping = true;
	pthread_cond_broadcast(&g_wg.cv);
	pthread_mutex_unlock(&g_wg.mu);
	for (unsigned i = 0; i < g_wg.nthreads; i++)
		pthread_join(g_wg.threads[i], NULL);
	free(g_wg.threads);
	g_wg.threads = NULL;
	g_wg.nthreads = 0;
	pthread_cond_destroy(&g_wg.cv);
	if (g_wg.statements) /* how well the writes were grouped */
		log_info("engine: %lu write(s) sent in %lu group statement(s), at most %lu in one, "
		         "%lu chained to another write of their game",
		         g_wg.writes, g_wg.statements, g_wg.largest, g_wg.chained);
	g_wg.writes = g_wg.chained = g_wg.statements = g_wg.largest = 0;
}
