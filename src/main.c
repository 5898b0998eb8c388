/* The server: configuration from the environment, migrations, serving, graceful stop.
 *
 *   server            serve (applies pending migrations first)
 *   server migrate    apply pending migrations and exit
 *   server routes     print "METHOD PATTERN" per route (no database needed)
 *
 * Environment: PORT (8080), DATABASE_URL (unset → libpq's PG* variables), STATIC_DIR (static),
 * TEMPLATES_DIR (templates), MIGRATIONS_DIR (migrations), THREADS (4), CONN_TIMEOUT (30 s,
 * 1..30), CONN_LIMIT (from the file descriptor limit, at most 8192), DB_WAIT (30 s: how long to
 * wait for the database at start), DB_STATEMENT_TIMEOUT_MS (5000), DB_LOCK_TIMEOUT_MS (2000),
 * DB_IDLE_TX_TIMEOUT_MS (10000): the server-side timeouts of the server's database sessions (0:
 * off; db.h, db/connect.c say which session gets which); LISTEN (every interface), CONN_PER_ADDR
 * (64), REQUEST_DEADLINE (10 s), TRUST_PROXY (none), TLS_CERT / TLS_KEY (HTTPS), SSE_PER_GAME (32),
 * SSE_PER_TOKEN (4); JOB_THREADS (one less than the CPUs, at least 1) and JOB_QUEUE (64): the
 * pool that runs the slow routes (log-in, sign-up, import, PDFs); WAIT_THREADS (as many as
 * THREADS) and WAIT_QUEUE (256): the threads that run requests which must wait (http_defer);
 * WRITE_GROUPS (2, 0: none): the threads that send the games' optimistic writes, as many as are
 * waiting in one statement (engine/writegroup.h).
 *
 * Signals: SIGTERM/SIGINT are blocked in every thread and taken by sigwait() in main, which
 * then stops the server gracefully (in-flight requests finish) and exits 0. Before serving,
 * while waiting for the database or applying migrations, one of them stops the start: the
 * running migration is cancelled and rolled back (db_migrate), the log says so, and the process
 * exits 0 (`serve`: stopped as asked) or 1 (`migrate`: the migrations are not all applied). */
#include "base/alloc.h"
#include "base/log.h"
#include "api/api.h"
#include "engine/live.h"
#include "engine/table.h"
#include "engine/writegroup.h"
#include "accounts/accounts.h"
#include "accounts/passes.h"
#include "db/db.h"
#include "http/http.h"

#include <errno.h>
#include <libpq-fe.h>
#include <libxml/parser.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
	const char *conninfo, *static_dir, *templates_dir, *migrations_dir;
	unsigned port, threads, conn_timeout, conn_limit, db_wait;
	db_timeouts db;
	/* against hostile and broken clients (src/http/README.md) */
	const char *listen, *trust_proxy, *tls_cert, *tls_key;
	unsigned per_addr, deadline, sse_per_game, sse_per_token;
	unsigned job_threads, job_queue;   /* README "Configuration" */
	unsigned wait_threads, wait_queue; /* 0: http_start sizes them */
	unsigned write_groups;             /* 0: no write groups */
} config;

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v && *v ? v : def;
}

/* Unsigned from the environment within [lo, hi]; -1 (logged) when malformed. */
static int env_uint(const char *name, unsigned def, unsigned lo, unsigned hi, unsigned *out)
{
	const char *v = getenv(name);
	if (!v || !*v) {
		*out = def;
		return 0;
	}
	char *end;
	errno = 0;
	unsigned long x = strtoul(v, &end, 10);
	if (errno || *end || end == v || v[0] == '-' || x < lo || x > hi) {
		log_warn("config: %s=%s is not a number from %u to %u", name, v, lo, hi);
		return -1;
	}
	*out = (unsigned)x;
	return 0;
}

/* DATABASE_READ_URL (src/db/readpool.c reads it when a league read first needs it) must at
 * least parse as a connection string: a typo refuses to start, as one in DATABASE_URL does,
 * rather than sending every read to the primary unnoticed. */
static int check_read_url(void)
{
	const char *url = getenv("DATABASE_READ_URL");
	if (!url || !*url)
		return 0;
	char *err = NULL;
	PQconninfoOption *opts = PQconninfoParse(url, &err);
	if (opts) {
		PQconninfoFree(opts);
		return 0;
	}
	log_warn("config: DATABASE_READ_URL is not a valid connection string: %s",
	         err ? err : "out of memory");
	PQfreemem(err);
	return -1;
}

static int load_config(config *c)
{
	c->conninfo = env_or("DATABASE_URL", "");
	c->static_dir = env_or("STATIC_DIR", "static");
	c->templates_dir = env_or("TEMPLATES_DIR", "templates");
	c->migrations_dir = env_or("MIGRATIONS_DIR", "migrations");
	if (env_uint("PORT", 8080, 0, 65535, &c->port) ||
	    env_uint("THREADS", 4, 1, 256, &c->threads) ||
	    env_uint("CONN_TIMEOUT", 30, 1, 30, &c->conn_timeout) ||
	    env_uint("CONN_LIMIT", 0, 1, 100000, &c->conn_limit) || /* 0: http_start sizes it */
	    env_uint("DB_WAIT", 30, 0, 3600, &c->db_wait) ||
	    env_uint("DB_STATEMENT_TIMEOUT_MS", DB_STATEMENT_TIMEOUT_MS, 0, 3600000,
	             &c->db.statement_ms) ||
	    env_uint("DB_LOCK_TIMEOUT_MS", DB_LOCK_TIMEOUT_MS, 0, 3600000, &c->db.lock_ms) ||
	    env_uint("DB_IDLE_TX_TIMEOUT_MS", DB_IDLE_TX_TIMEOUT_MS, 0, 3600000, &c->db.idle_tx_ms))
		return -1;
	c->listen = env_or("LISTEN", "");
	c->trust_proxy = env_or("TRUST_PROXY", "");
	c->tls_cert = env_or("TLS_CERT", "");
	c->tls_key = env_or("TLS_KEY", "");
	if (env_uint("CONN_PER_ADDR", 64, 1, 100000, &c->per_addr) ||
	    env_uint("REQUEST_DEADLINE", 10, 1, 300, &c->deadline) ||
	    env_uint("SSE_PER_GAME", 32, 1, 100000, &c->sse_per_game) ||
	    env_uint("SSE_PER_TOKEN", 4, 1, 100000, &c->sse_per_token))
		return -1;
	if (env_uint("JOB_THREADS", 0, 1, 256, &c->job_threads) || /* 0: http_start sizes it */
	    env_uint("JOB_QUEUE", 64, 1, 100000, &c->job_queue))
		return -1;
	if (env_uint("WAIT_THREADS", 0, 1, 256, &c->wait_threads) ||
	    env_uint("WAIT_QUEUE", 256, 1, 100000, &c->wait_queue) ||
	    env_uint("WRITE_GROUPS", 2, 0, 16, &c->write_groups))
		return -1;
	return check_read_url();
}

/* A job or waiting thread's database connection, made as it starts (http_config). */
static void connect_thread(void)
{
	(void)db_thread_conn();
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The stop signal that arrived within `ms` milliseconds (taken), or 0. */
static int wait_signal(const sigset_t *sigs, long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	int sig;
	while ((sig = sigtimedwait(sigs, NULL, &ts)) < 0 && errno == EINTR)
		;
	return sig > 0 ? sig : 0;
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : "SIGTERM";
}

/* Waits up to c->db_wait seconds for the database and applies migrations: 0, -1, or the stop
 * signal (one of sigs) that interrupted it. */
static int migrate(const config *c, const sigset_t *sigs)
{
	double deadline = now_s() + c->db_wait;
	bool said = false;
	const char *keys[3] = {"connect_timeout", NULL, NULL};
	const char *vals[3] = {"2", NULL, NULL};
	if (*c->conninfo) {
		keys[1] = "dbname";
		vals[1] = c->conninfo;
	}
	for (;;) {
		PGPing ping = PQpingParams(keys, vals, 1);
		if (ping == PQPING_OK) {
			int rc = db_migrate(c->conninfo, c->migrations_dir, sigs);
			if (rc == 0)
				return 0;
			if (rc == DB_MIGRATE_STOPPED) {
				int sig = wait_signal(sigs, 0); /* take it: it is pending */
				return sig ? sig : -1;
			}
		} else if (ping == PQPING_NO_ATTEMPT) {
			log_warn("server: DATABASE_URL is not a valid connection string");
			return -1;
		} else if (!said) {
			log_info("server: waiting up to %u s for the database…", c->db_wait);
			said = true;
		}
		if (now_s() >= deadline)
			break;
		int sig = wait_signal(sigs, 1000);
		if (sig)
			return sig;
	}
	log_warn("server: could not reach the database or apply the migrations in %s within %u s; "
	         "check DATABASE_URL (or PGHOST/PGDATABASE/…) and the log above",
	         c->migrations_dir, c->db_wait);
	return -1;
}

static void print_routes(void)
{
	for (size_t i = 0; i < api_nroutes; i++)
		printf("%s %s\n", api_routes[i].method, api_routes[i].pattern);
}

int main(int argc, char **argv)
{
	config c;
	const char *cmd = argc > 1 ? argv[1] : "serve";
	if (argc > 2 || (strcmp(cmd, "serve") != 0 && strcmp(cmd, "migrate") != 0 &&
	                 strcmp(cmd, "routes") != 0)) {
		log_warn("usage: %s [serve|migrate|routes]", argv[0]);
		return 2;
	}
	if (strcmp(cmd, "routes") == 0) {
		print_routes();
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (load_config(&c) != 0)
		return 1;

	/* Before any thread exists (db_init starts one, MHD its pool): every thread inherits the
	 * blocked set, so only sigwait() below receives these signals. */
	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	if (pthread_sigmask(SIG_BLOCK, &sigs, NULL) != 0) {
		log_bug("server: cannot block signals");
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	xmlInitParser(); /* libxml2's global state, once, before any thread parses (BGG imports) */

	db_set_timeouts(&c.db);
	if (strcmp(cmd, "migrate") == 0) {
		int rc = migrate(&c, &sigs);
		if (rc == 0)
			log_info("server: migrations applied");
		else if (rc > 0)
			log_warn("server: %s received, stopped before applying every migration "
			         "(each one is applied and recorded, or not at all)",
			         signal_name(rc));
		return rc == 0 ? 0 : 1;
	}

	if (db_init(c.conninfo) != 0) {
		log_warn("server: database setup failed");
		return 1;
	}
	int rc = migrate(&c, &sigs);
	if (rc != 0) {
		if (rc > 0)
			log_info("server: %s received while starting, stopped before serving "
			         "(each migration is applied and recorded, or not at all)",
			         signal_name(rc));
		db_shutdown();
		return rc > 0 ? 0 : 1;
	}
	if (api_init(c.templates_dir) != 0 || api_openapi_init(c.static_dir) != 0) {
		log_warn("server: cannot load the game data from %s", c.templates_dir);
		api_openapi_shutdown();
		api_shutdown();
		db_shutdown();
		return 1;
	}
	if (writegroup_start(c.write_groups) != 0) {
		log_warn("server: the write group threads did not start");
		api_openapi_shutdown();
		api_shutdown();
		db_shutdown();
		return 1;
	}
	http_addresses_init(c.port, *c.tls_cert, c.listen, *c.trust_proxy);
	http_config hc = {
	    .port = (uint16_t)c.port,
	    .threads = c.threads,
	    .conn_limit = c.conn_limit,
	    .conn_timeout_s = c.conn_timeout,
	    .static_dir = c.static_dir,
	    .routes = api_routes,
	    .nroutes = api_nroutes,
	    .api_available = db_available,
	    /* a display token (read-only) never gets past a request that is not GET or HEAD */
	    .write_guard = table_write_guard,
	    /* ends the server-sent-event streams so the drain can finish (idempotent: api_shutdown
	     * calls it again) */
	    .on_quiesce = live_shutdown,
	    .on_write = passes_forget_all,
	    /* hostile and broken clients */
	    .listen = c.listen,
	    .per_addr = c.per_addr,
	    .deadline_s = c.deadline,
	    .trust_proxy = c.trust_proxy,
	    .tls_cert = c.tls_cert,
	    .tls_key = c.tls_key,
	    .sse_per_topic = c.sse_per_game,
	    .sse_per_owner = c.sse_per_token,
	    .job_threads = c.job_threads,
	    .job_queue = c.job_queue,
	    .wait_threads = c.wait_threads,
	    .wait_queue = c.wait_queue,
	    .pool_thread_start = connect_thread,
	};
	http_server *srv = http_start(&hc);
	if (!srv) {
		log_warn("server: cannot listen on port %u", c.port);
		writegroup_stop();
		api_openapi_shutdown();
		api_shutdown();
		db_shutdown();
		return 1;
	}
	http_addresses_port(http_port(srv));
	log_info("server: listening on %s port %u, %s (%u threads, static files from %s)",
	         *c.listen ? c.listen : "every interface", (unsigned)http_port(srv),
	         http_tls(srv) ? "HTTPS" : "HTTP", c.threads, c.static_dir);
	log_info("server: memory from %s %s", alloc_name(), alloc_version());

	int sig = 0;
	while (sigwait(&sigs, &sig) != 0)
		;
	log_info("server: %s received, stopping", signal_name(sig));
	http_stop(srv);
	writegroup_stop(); /* after the last parked write (http_stop waits for them) */
	api_openapi_shutdown();
	api_shutdown();
	db_shutdown();
	xmlCleanupParser(); /* every thread that parsed has ended with http_stop */
	log_info("server: stopped");
	return 0;
}
