/* A bounded pool of job threads for the slow handlers (password hashing, imports, PDFs), so
 * they do not stall the libmicrohttpd threads and every connection those threads serve.
 *
 * A place in the queue is taken first (jobs_reserve: fails at once when the queue is full or
 * the pool stops), then the job is handed over (jobs_push), so the caller can do what must
 * happen before a job may run (suspend its connection) in between, without holding a lock.
 *
 * Ownership: a job belongs to its submitter; the pool only links it into its queue and calls
 * exactly one of run (on a job thread) or cancel (on the thread in jobs_stop, for a job still
 * queued when the pool stops). Whatever run touches belongs to the job while it runs: nothing
 * it allocates is shared with another thread (json-c's reference counts are not atomic). */
#ifndef HTTP_JOBS_H
#define HTTP_JOBS_H

#include <stdbool.h>

typedef struct job {
	void (*run)(struct job *j);    /* on a job thread */
	void (*cancel)(struct job *j); /* instead of run, when the pool stops first */
	struct job *next;              /* the pool's queue link */
} job;

typedef struct jobs jobs;

/* threads job threads (≥ 1) behind a queue of queue_len waiting jobs (≥ 1); background: they
 * yield the CPU to every other thread (SCHED_IDLE), else they run at the connection threads'
 * priority. Every job thread may wait (http_may_wait). name ("jobs", "waits") is for the log.
 * Each thread first runs thread_start (unless NULL: its database connection, say), and
 * jobs_start returns once every one has. NULL (logged) when no thread could be started. */
jobs *jobs_start(const char *name, unsigned threads, unsigned queue_len, bool background,
                 void (*thread_start)(void));
/* A place for one job: false when queue_len jobs are waiting already or the pool stops. */
bool jobs_reserve(jobs *p);
/* Queues j on the place jobs_reserve gave (every reserve is followed by one push). */
void jobs_push(jobs *p, job *j);
/* Refuses new jobs, cancels the queued ones, waits for the running ones, joins the threads
 * (each closes its own database connection as it exits) and frees the pool. */
void jobs_stop(jobs *p);

#endif
