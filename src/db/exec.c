/* The statement runner: db_exec runs a prepared statement by name (sending a pending BEGIN and,
 * when the session's is not the one it needs, the lock timeout in the same round trip), and
 * db_result_status classifies what came back: a lost connection lowers the availability flag,
 * our own timeouts are DB_BUSY, serialization failures and deadlocks DB_RETRY. */
#include "base/log.h"
#include "db/conn.h"
#include "db/statements.h"

#include <stdio.h>
#include <string.h>

/* ---- logging ---- */

/* Copies libpq's message without its trailing newline. */
void db_one_line(char *buf, size_t len, const char *msg)
{
	snprintf(buf, len, "%s", msg && *msg ? msg : "(no message)");
	size_t n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
}

void db_log_result_error(const char *what, const PGresult *r)
{
	char msg[512];
	const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	db_one_line(msg, sizeof msg, PQresultErrorMessage(r));
	/* Classes the server's code can produce with correct SQL and valid input are plain errors;
	 * syntax, undefined objects, data exceptions and unknown statements are our bugs. */
	bool bug = !state || strncmp(state, "42", 2) == 0 || strncmp(state, "26", 2) == 0 ||
	           strncmp(state, "22", 2) == 0 || strncmp(state, "0A", 2) == 0;
	if (bug)
		log_bug("db: %s failed: SQLSTATE %s: %s", what, state ? state : "-----", msg);
	else
		log_warn("db: %s failed: SQLSTATE %s: %s", what, state ? state : "-----", msg);
}

/* ---- results ---- */

static void mark_broken(db_conn *c, const char *why)
{
	if (c)
		c->broken = true;
	if (!c || !c->standalone)
		db_mark_unavailable(why);
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

/* How a statement's lock timeout is sent (lock_change): not at all, for the session, for its
 * transaction alone. */
enum lock_set { LOCK_KEEP, LOCK_SESSION, LOCK_TRANSACTION };

/* Sends what must precede the statement — the pending BEGIN, then the lock timeout lock_ms
 * for the session or this transaction alone (lock_change; after BEGIN, which may set an
 * isolation level only before any query) — and the statement in one
 * pipeline, and returns the statement's result (or the first failed one's before it; NULL when
 * the connection failed). One round trip. Without BEGIN the pipeline is one implicit
 * transaction (it ends at the Sync); with it, the setting is part of the transaction: either
 * way a failure takes the setting back with it, which the callers record (lock_session). A
 * connection whose pipeline could not be entered, filled or left is not used again: it is
 * marked broken (db_tx then retries on a fresh connection, and the next request gets one), so
 * no later statement meets a connection still in pipeline mode. */
static PGresult *exec_pipelined(db_conn *c, const char *begin, enum lock_set lock,
                                const char *lock_ms, const char *stmt, int nparams,
                                const char *const *params, const int *lengths, const int *formats)
{
	PGresult *res[3] = {NULL, NULL, NULL}, *x;
	int n = 0;
	bool sent = PQenterPipelineMode(c->pg) == 1;
	if (sent && begin)
		sent = PQsendQueryParams(c->pg, begin, 0, NULL, NULL, NULL, NULL, 0) == 1 && ++n;
	if (sent && lock != LOCK_KEEP)
		sent = PQsendQueryParams(c->pg,
		                         lock == LOCK_SESSION
		                             ? "SELECT set_config('lock_timeout', $1, false)"
		                             : "SELECT set_config('lock_timeout', $1, true)",
		                         1, NULL, &lock_ms, NULL, NULL, 0) == 1 &&
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
			db_one_line(msg, sizeof msg, PQerrorMessage(c->pg));
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

/* What this statement needs sent about the lock timeout, in *set (NULL: nothing), its value as
 * text (buf), and *want, the session's afterwards. Changes are made before a transaction or an
 * autocommitted statement only: inside a transaction, the one it began with holds. A connection
 * that may not wait gets the short one for its session (a thread of libmicrohttpd's keeps it
 * from statement to statement, so it is sent once, not with every write); a statement that may
 * wait on such a session gets the role's for its transaction alone, so that the next short one
 * needs nothing sent. */
static enum lock_set lock_change(const db_conn *c, bool starts, signed char *want, char buf[16])
{
	*want = c->nowait ? DB_LOCK_NOWAIT : c->lock_session;
	if (!starts || c->lock_session == (c->nowait ? DB_LOCK_NOWAIT : DB_LOCK_ROLE))
		return LOCK_KEEP;
	if (c->nowait) {
		snprintf(buf, 16, "%s", NOWAIT_LOCK_MS);
		return LOCK_SESSION;
	}
	snprintf(buf, 16, "%u", db_get_timeouts().lock_ms);
	if (c->lock_session == DB_LOCK_NOWAIT)
		return LOCK_TRANSACTION;
	*want = DB_LOCK_ROLE; /* unknown: the session gets the role's again */
	return LOCK_SESSION;
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
	signed char want;
	char lock_ms[16];
	enum lock_set lock =
	    lock_change(c, begin || PQtransactionStatus(c->pg) == PQTRANS_IDLE, &want, lock_ms);
	PGresult *r =
	    begin || lock != LOCK_KEEP
	        ? exec_pipelined(c, begin, lock, lock_ms, stmt, nparams, params, lengths, formats)
	        : PQexecPrepared(c->pg, stmt, nparams, params, lengths, formats, 0);
	db_status st = db_result_status(c, r);
	if (lock == LOCK_SESSION) { /* a failure took it back; a later ROLLBACK does too (tx.c) */
		c->lock_session = st == DB_OK ? want : DB_LOCK_UNKNOWN;
		c->lock_in_tx = begin != NULL;
	}
	switch (st) {
	case DB_UNAVAILABLE:
		PQclear(r);
		return NULL;
	case DB_BUSY: {
		if (c->lock_refused)
			break; /* no incident: the caller waits elsewhere (db_conn_nowait) */
		char what[160];
		snprintf(what, sizeof what, "statement \"%s\"", stmt);
		db_log_result_error(what, r); /* a warning: 57014, 55P03 and 25P03 are no bugs */
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
				db_log_result_error(what, r);
			}
		}
		break;
	default:
		break;
	}
	return r;
}
