/* The job pool (jobs.h): a FIFO of waiting jobs under one mutex, threads that take from it.
 *
 * Counting: `reserved` places were taken by jobs_reserve and not pushed yet, `queued` jobs
 * wait in the list; together they never exceed queue_len. Running jobs are not counted: the
 * threads bound them. jobs_stop waits for the reserved places to be pushed (a push follows its
 * reserve at once, on the same thread) so that no push can reach a freed pool. */
#include "http/jobs.h"
#include "http/http.h"

#include "base/log.h"
#include "base/oom.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The heavy routes' threads run in the background (Linux's SCHED_IDLE; nice 19 where that is
 * refused): a connection thread that wakes on a CPU running one takes it at once, where at nice
 * 19 it could still wait out the job thread's slice (tests/bench/README.md, "The job pool").
 * Lowering one's own priority needs no privilege; both are per thread. The waiting threads keep
 * the connection threads' priority: they mostly sleep, and the move they then write is as cheap
 * as one on a connection thread. */

/* Whether this thread may wait for another request (http.h): true on every pool thread. */
static _Thread_local bool t_may_wait;

bool http_may_wait(void)
{
	return t_may_wait;
}

void http_thread_may_wait(bool yes)
{
	t_may_wait = yes;
}

int http_defer(http_resp *resp)
{
	http_resp_clear(resp);
	resp->defer = true;
	return 0;
}

int http_defer_untried(http_resp *resp)
{
	http_defer(resp);
	resp->untried = true;
	return 0;
}

int http_park(http_resp *resp, void (*start)(http_ticket *ticket, void *arg), void *arg)
{
	http_resp_clear(resp);
	resp->park = start;
	resp->park_arg = arg;
	return 0;
}

struct jobs {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* a job was queued, a place was pushed, or the pool stops */
	job *head, *tail;
	unsigned queued, reserved, queue_len;
	bool stopping;
	bool background;
	void (*thread_start)(void);
	unsigned started; /* threads that have run thread_start */
	const char *name;
	unsigned nthreads;
	pthread_t *threads;
};

/* The calling thread to SCHED_IDLE, or else to nice 19: 0, or -1 when neither was allowed. */
static int to_background(void)
{
	struct sched_param none = {.sched_priority = 0};
	if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &none) == 0)
		return 0;
	return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
}

/* One job thread: takes the oldest job and runs it, until the pool stops. Its database
 * connection (db_thread_conn) is closed by db/conn.c's thread-exit destructor when it returns. */
static void *worker(void *arg)
{
	jobs *p = arg;
	pthread_setname_np(pthread_self(), p->name); /* in top, perf and gdb */
	http_thread_may_wait(true);
	if (p->background && to_background() != 0)
		log_info("%s: its threads run at the connection threads' priority", p->name);
	if (p->thread_start)
		p->thread_start();
	pthread_mutex_lock(&p->mu);
	p->started++;
	pthread_cond_broadcast(&p->cv);
	for (;;) {
		while (!p->head && !p->stopping)
			pthread_cond_wait(&p->cv, &p->mu);
		job *j = p->head;
		if (!j)
			break;
		p->head = j->next;
		if (!p->head)
			p->tail = NULL;
		p->queued--;
		pthread_mutex_unlock(&p->mu);
		j->next = NULL;
		j->run(j);
		pthread_mutex_lock(&p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

jobs *jobs_start(const char *name, unsigned threads, unsigned queue_len, bool background,
                 void (*thread_start)(void))
{
	jobs *p = xcalloc(1, sizeof *p);
	p->name = name;
	p->background = background;
	p->thread_start = thread_start;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	p->queue_len = queue_len ? queue_len : 1;
	p->threads = xcalloc(threads ? threads : 1, sizeof *p->threads);
	for (unsigned i = 0; i < (threads ? threads : 1); i++) {
		if (pthread_create(&p->threads[i], NULL, worker, p) != 0) {
			log_warn("%s: could start only %u of %u threads", name, i, threads);
			break;
		}
		p->nthreads++;
	}
	if (p->nthreads == 0) {
		jobs_stop(p);
		return NULL;
	}
	pthread_mutex_lock(&p->mu);
	while (p->started < p->nthreads)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
	return p;
}

bool jobs_reserve(jobs *p)
{
	pthread_mutex_lock(&p->mu);
	bool ok = !p->stopping && p->queued + p->reserved < p->queue_len;
	if (ok)
		p->reserved++;
	pthread_mutex_unlock(&p->mu);
	return ok;
}

void jobs_push(jobs *p, job *j)
{
	j->next = NULL;
	pthread_mutex_lock(&p->mu);
	p->reserved--;
	if (p->tail)
		p->tail->next = j;
	else
		p->head = j;
	p->tail = j;
	p->queued++;
	/* broadcast: jobs_stop may be waiting for this push as well as a thread for work */
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

void jobs_stop(jobs *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stopping = true;
	pthread_cond_broadcast(&p->cv);
	while (p->reserved)
		pthread_cond_wait(&p->cv, &p->mu);
	job *j = p->head;
	p->head = p->tail = NULL;
	p->queued = 0;
	pthread_mutex_unlock(&p->mu);
	while (j) {
		job *next = j->next;
		j->next = NULL;
		j->cancel(j);
		j = next;
	}
	for (unsigned i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p->threads);
	free(p);
}
