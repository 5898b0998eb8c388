/* The transaction runner: db_tx and db_tx_snapshot run a function inside BEGIN … COMMIT,
 * retrying serialization failures and deadlocks with jittered backoff, and once on a fresh
 * connection when the connection was lost before COMMIT was sent. */
#include "base/log.h"
#include "db/conn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Runs a command of our own (BEGIN, COMMIT, ROLLBACK); *tag receives its command tag. */
static db_status run_cmd(db_conn *c, const char *sql, char *tag, size_t taglen)
{
	PGresult *r = PQexec(c->pg, sql);
	db_status st = db_result_status(c, r);
	if (tag)
		snprintf(tag, taglen, "%s", r ? PQcmdStatus(r) : "");
	if (st == DB_FAIL)
		db_log_result_error(sql, r);
	PQclear(r);
	return st;
}

/* The transaction has ended, committed or not: a session setting made inside it went with it
 * when it did not commit (the lock timeout is then unknown). */
static void lock_settled(db_conn *c, bool committed)
{
	if (c->lock_in_tx && !committed)
		c->lock_session = DB_LOCK_UNKNOWN;
	c->lock_in_tx = false;
}

static void rollback(db_conn *c)
{
	lock_settled(c, false);
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
		lock_settled(c, st == DB_OK && strcmp(tag, "COMMIT") == 0);
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
		if ((!c->pg || c->broken) && !db_conn_ensure(c, reconnected))
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
