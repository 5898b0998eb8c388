/* The one connect path (db_connect): every connection the server opens gets its role's
 * application name, connect timeout, TCP keepalives and session timeouts here, and tells which
 * database server it reached (db_server_epoch). */
#include "base/log.h"
#include "db/conn.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

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
	"|| ' ' || coalesce(inet_server_port(), 0) AS server"
enum { SETTINGS_SERVER }; /* session_settings' first column: SERVER_IDENTITY */

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
		db_one_line(err, errlen, r ? PQresultErrorMessage(r) : PQerrorMessage(pg));
	else if (primary)
		note_server(PQgetvalue(r, 0, SETTINGS_SERVER));
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
			db_one_line(err, errlen, PQerrorMessage(pg));
		PQfinish(pg);
		return NULL;
	}
	return pg;
}
