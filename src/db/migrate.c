/* The migration runner: applies dir/NNNN_name.sql files not yet recorded in schema_migrations,
 * in version order, each in its own transaction together with its schema_migrations row.
 *
 * Concurrency: the whole run holds a session advisory lock, so servers starting together apply
 * each migration exactly once (the second one waits, then finds everything applied).
 *
 * Migration files are our own trusted files, sent as one simple-protocol query inside
 * BEGIN … COMMIT; they must not contain transaction control (BEGIN/COMMIT/ROLLBACK) nor statements
 * that cannot run in a transaction block (CREATE INDEX CONCURRENTLY, VACUUM …).
 *
 * Signals: the caller keeps SIGTERM/SIGINT blocked (main.c) and passes them as `stop`. Every
 * statement is sent asynchronously and, while it runs, the runner looks for a pending stop
 * signal every STOP_POLL_MS; when one is pending the statement is cancelled (PQcancel), its
 * transaction rolled back, and db_migrate returns DB_MIGRATE_STOPPED. So a migration is either
 * applied together with its schema_migrations row or not at all, and waiting for the advisory
 * lock (another server migrating) can be interrupted too. COMMIT itself is not cancelled: it is
 * short, and its own answer says whether the migration is in.
 *
 * After the files, still under the lock, the runner keys members' names that have no key yet
 * (db/member_keys.c): the key is computed in C, which a migration file cannot call. */
#include "base/log.h"
#include "base/oom.h"
#include "db/db.h"
#include "db/member_keys.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* pg_advisory_lock key: "DHER" read as a big-endian int32 (0x44484552). */
#define MIGRATE_LOCK_KEY "1145587026"
enum { MIGRATION_MAX_BYTES = 8 * 1024 * 1024, MIGRATION_MAX_FILES = 9999, STOP_POLL_MS = 100 };

/* The run's connection and the signals that stop it (NULL: none). */
typedef struct {
	PGconn *pg;
	const sigset_t *stop;
	bool stopped; /* a stop signal arrived: the current statement was cancelled */
} run;

typedef struct {
	int version;
	char *name; /* file name, owned */
} migration;

/* NNNN_[a-z0-9_]+.sql with NNNN ≥ 0001; *version receives NNNN. */
static bool valid_name(const char *name, int *version)
{
	size_t n = strlen(name);
	if (n < 10 || n > 128 || strcmp(name + n - 4, ".sql") != 0)
		return false;
	for (int i = 0; i < 4; i++)
		if (!isdigit((unsigned char)name[i]))
			return false;
	if (name[4] != '_')
		return false;
	for (size_t i = 5; i < n - 4; i++) {
		char ch = name[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'))
			return false;
	}
	*version =
	    (name[0] - '0') * 1000 + (name[1] - '0') * 100 + (name[2] - '0') * 10 + (name[3] - '0');
	return *version > 0;
}

static int cmp_migration(const void *a, const void *b)
{
	const migration *x = a, *y = b;
	return (x->version > y->version) - (x->version < y->version);
}

static void free_list(migration *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i].name);
	free(list);
}

/* Lists dir's migrations sorted by version into *out (caller frees with free_list). Any other
 * *.sql name, or two files of one version, is an error: a misnamed file would silently not
 * apply. Other files (README, dotfiles) are ignored. */
static int list_migrations(const char *dir, migration **out, size_t *count)
{
	*out = NULL;
	*count = 0;
	DIR *d = opendir(dir);
	if (!d) {
		log_warn("migrate: cannot open %s: %s", dir, strerror(errno));
		return -1;
	}
	migration *list = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		const char *name = e->d_name;
		size_t len = strlen(name);
		if (name[0] == '.' || len < 4 || strcmp(name + len - 4, ".sql") != 0)
			continue;
		int version;
		if (!valid_name(name, &version)) {
			log_warn(
			    "migrate: %s/%s: bad migration file name (want NNNN_[a-z0-9_]+.sql)",
			    dir, name);
			rc = -1;
			break;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			if (ncap > MIGRATION_MAX_FILES) {
				log_warn("migrate: more than %d files", MIGRATION_MAX_FILES);
				rc = -1;
				break;
			}
			list = xrealloc(list, ncap * sizeof *list);
			cap = ncap;
		}
		list[n].version = version;
		list[n].name = xstrdup(name);
		n++;
	}
	closedir(d);
	if (rc == 0 && n > 1) {
		qsort(list, n, sizeof *list, cmp_migration);
		for (size_t i = 1; i < n; i++)
			if (list[i].version == list[i - 1].version) {
				log_warn("migrate: %s and %s have the same version",
				         list[i - 1].name, list[i].name);
				rc = -1;
				break;
			}
	}
	if (rc != 0) {
		free_list(list, n);
		return -1;
	}
	*out = list;
	*count = n;
	return 0;
}

/* Reads dir/name into a NUL-terminated buffer (caller frees). */
static char *read_file(const char *dir, const char *name)
{
	char path[4096];
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
		log_warn("migrate: path too long: %s/%s", dir, name);
		return NULL;
	}
	FILE *f = fopen(path, "rb");
	if (!f) {
		log_warn("migrate: cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	char *buf = xmalloc(MIGRATION_MAX_BYTES + 1);
	size_t len = fread(buf, 1, MIGRATION_MAX_BYTES + 1, f);
	bool err = ferror(f) != 0;
	fclose(f);
	if (err || len > MIGRATION_MAX_BYTES || memchr(buf, '\0', len)) {
		log_warn("migrate: %s: %s", path,
		         err                         ? "read error"
		         : len > MIGRATION_MAX_BYTES ? "too large"
		                                     : "contains NUL");
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* Line number of the 1-based character position pos (as the server counts characters). */
static int line_of(const char *sql, long pos)
{
	int line = 1;
	long chars = 0;
	for (const unsigned char *p = (const unsigned char *)sql; *p; p++) {
		if ((*p & 0xC0) != 0x80 && ++chars >= pos)
			break;
		if (*p == '\n')
			line++;
	}
	return line;
}

static void log_error(const char *what, PGconn *pg, const PGresult *r, const char *sql)
{
	const char *primary = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	const char *msg = primary ? primary : r ? PQresultErrorMessage(r) : PQerrorMessage(pg);
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	const char *hint = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_HINT) : NULL;
	const char *pos = r ? PQresultErrorField(r, PG_DIAG_STATEMENT_POSITION) : NULL;
	char clean[1024];
	snprintf(clean, sizeof clean, "%s", msg && *msg ? msg : "unknown error");
	for (char *p = clean; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	for (size_t n = strlen(clean); n > 0 && clean[n - 1] == ' '; n--)
		clean[n - 1] = '\0';
	char line[32] = "";
	if (sql && pos)
		snprintf(line, sizeof line, " at line %d", line_of(sql, strtol(pos, NULL, 10)));
	log_warn("migrate: %s failed%s: %s%s%s%s", what, line, clean, state ? " (SQLSTATE " : "",
	         state ? state : "", state ? ")" : "");
	if (hint)
		log_warn("migrate: hint: %s", hint);
}

/* Is one of the stop signals pending? They stay pending: main takes them afterwards. */
static bool stop_pending(const sigset_t *stop)
{
	sigset_t pending;
	if (!stop || sigpending(&pending) != 0)
		return false;
	static const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		if (sigismember(stop, sigs[i]) == 1 && sigismember(&pending, sigs[i]) == 1)
			return true;
	return false;
}

/* Asks the server to cancel what the connection runs; the answer comes as the result. */
static void cancel(PGconn *pg)
{
	char err[256];
	PGcancel *cn = PQgetCancel(pg);
	if (!cn || !PQcancel(cn, err, sizeof err))
		log_warn("migrate: could not cancel the running statement: %s",
		         cn ? err : "out of memory");
	PQfreeCancel(cn);
}

/* Waits for the result of what was sent and returns it, as PQexec does (the last result, or the
 * first failure); cancels it once a stop signal is pending (with `stoppable`). NULL when the
 * connection failed. */
static PGresult *wait_result(run *x, bool stoppable)
{
	bool cancelled = false;
	while (PQisBusy(x->pg)) {
		if (stoppable && !cancelled && stop_pending(x->stop)) {
			cancel(x->pg);
			cancelled = x->stopped = true;
		}
		struct pollfd p = {.fd = PQsocket(x->pg), .events = POLLIN};
		if (poll(&p, 1, STOP_POLL_MS) < 0 && errno != EINTR)
			break;
		if (!PQconsumeInput(x->pg))
			break;
	}
	PGresult *r = NULL, *next;
	while ((next = PQgetResult(x->pg)) != NULL) {
		if (r && PQresultStatus(r) == PGRES_FATAL_ERROR) {
			PQclear(next); /* the first failure is the one to report */
			continue;
		}
		PQclear(r);
		r = next;
	}
	return r;
}

/* Sends sql (simple protocol: several statements allowed) and waits for it. */
static PGresult *run_sql(run *x, const char *sql, bool stoppable)
{
	if (stoppable && stop_pending(x->stop)) {
		x->stopped = true;
		return NULL;
	}
	if (!PQsendQuery(x->pg, sql))
		return NULL;
	return wait_result(x, stoppable);
}

/* Sends one parameterised statement and waits for it. */
static PGresult *run_params(run *x, const char *sql, int n, const char *const *params)
{
	if (stop_pending(x->stop)) {
		x->stopped = true;
		return NULL;
	}
	if (!PQsendQueryParams(x->pg, sql, n, NULL, params, NULL, NULL, 0))
		return NULL;
	return wait_result(x, true);
}

/* Runs a command of ours; 0 or -1 (logged unless a stop signal cancelled it). */
static int exec_ok(run *x, const char *sql, const char *what, bool stoppable)
{
	PGresult *r = run_sql(x, sql, stoppable);
	ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
	int rc = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? 0 : -1;
	if (rc && !x->stopped)
		log_error(what, x->pg, r, NULL);
	PQclear(r);
	return rc;
}

/* Applies one file in its own transaction; 0, or -1 (rolled back; logged unless a stop
 * signal cancelled it, x->stopped). */
static int apply_one(run *x, const char *dir, const migration *m)
{
	char *sql = read_file(dir, m->name);
	if (!sql)
		return -1;
	int rc = -1;
	if (exec_ok(x, "BEGIN", "BEGIN", true) != 0)
		goto out;
	PGresult *r = run_sql(x, sql, true);
	if (!r || PQresultStatus(r) != PGRES_COMMAND_OK) {
		/* an empty or comment-only file gives PGRES_EMPTY_QUERY: nothing to apply, fine;
		 * a trailing SELECT gives TUPLES_OK: accepted too */
		ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
		if (st != PGRES_EMPTY_QUERY && st != PGRES_TUPLES_OK) {
			if (!x->stopped)
				log_error(m->name, x->pg, r, sql);
			PQclear(r);
			goto out;
		}
	}
	PQclear(r);
	if (PQtransactionStatus(x->pg) != PQTRANS_INTRANS) {
		log_warn("migrate: %s: must not contain BEGIN/COMMIT/ROLLBACK", m->name);
		goto out;
	}
	char version[16];
	snprintf(version, sizeof version, "%d", m->version);
	const char *params[2] = {version, m->name};
	r = run_params(x, "INSERT INTO schema_migrations (version, name) VALUES ($1::int, $2)", 2,
	               params);
	if (!r || PQresultStatus(r) != PGRES_COMMAND_OK) {
		if (!x->stopped)
			log_error("recording the migration", x->pg, r, NULL);
		PQclear(r);
		goto out;
	}
	PQclear(r);
	r = run_sql(x, "COMMIT", false);
	if (r && PQresultStatus(r) == PGRES_COMMAND_OK && strcmp(PQcmdStatus(r), "COMMIT") == 0)
		rc = 0;
	else
		log_error("COMMIT", x->pg, r, NULL);
	PQclear(r);
out:
	if (rc != 0 && PQstatus(x->pg) == CONNECTION_OK &&
	    PQtransactionStatus(x->pg) != PQTRANS_IDLE)
		PQclear(run_sql(x, "ROLLBACK", false));
	if (rc == 0)
		log_info("migrate: applied %s", m->name);
	else if (x->stopped)
		log_warn("migrate: stopped by a signal while applying %s: rolled back, "
		         "not recorded",
		         m->name);
	free(sql);
	return rc;
}

/* The applied migrations, in version order (migrate_locked reads them once). */
static const char SQL_APPLIED[] = "SELECT version, name "
                                  "  FROM schema_migrations "
                                  " ORDER BY version";
enum { APPLIED_VERSION, APPLIED_NAME }; /* SQL_APPLIED's columns */

/* Is version recorded? Applied versions come from one query; the list is small. */
static bool applied(const PGresult *done, int version)
{
	for (int i = 0; i < PQntuples(done); i++)
		if (atoi(PQgetvalue(done, i, APPLIED_VERSION)) == version)
			return true;
	return false;
}

/* Warns about versions the database has but this directory lacks (a newer server migrated
 * it) or knows under another name. */
static void check_applied(const PGresult *done, const migration *list, size_t n)
{
	for (int i = 0; i < PQntuples(done); i++) {
		int v = atoi(PQgetvalue(done, i, APPLIED_VERSION));
		bool known = false;
		for (size_t j = 0; j < n && !known; j++) {
			known = list[j].version == v;
			if (known && strcmp(list[j].name, PQgetvalue(done, i, APPLIED_NAME)) != 0)
				log_warn("migrate: warning: version %d applied as %s, now %s", v,
				         PQgetvalue(done, i, APPLIED_NAME), list[j].name);
		}
		if (!known)
			log_warn("migrate: warning: database has migration %s unknown here",
			         PQgetvalue(done, i, APPLIED_NAME));
	}
}

static int migrate_locked(run *x, const char *dir, const migration *list, size_t n)
{
	if (exec_ok(x,
	            "CREATE TABLE IF NOT EXISTS schema_migrations ("
	            " version int PRIMARY KEY,"
	            " name text NOT NULL,"
	            " applied_at timestamptz NOT NULL DEFAULT now())",
	            "creating schema_migrations", true) != 0)
		return -1;
	PGresult *done = run_sql(x, SQL_APPLIED, true);
	if (!done || PQresultStatus(done) != PGRES_TUPLES_OK) {
		if (!x->stopped)
			log_error("reading schema_migrations", x->pg, done, NULL);
		PQclear(done);
		return -1;
	}
	check_applied(done, list, n);
	int rc = 0, count = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (applied(done, list[i].version))
			continue;
		rc = apply_one(x, dir, &list[i]);
		count += rc == 0;
	}
	PQclear(done);
	if (rc == 0)
		log_info("migrate: %d applied, schema at %04d", count, n ? list[n - 1].version : 0);
	else if (x->stopped)
		log_info("migrate: %d applied before the signal", count);
	return rc;
}

int db_migrate(const char *conninfo, const char *dir, const sigset_t *stop)
{
	if (!dir) {
		log_warn("migrate: no migrations directory");
		return -1;
	}
	migration *list;
	size_t n;
	if (list_migrations(dir, &list, &n) != 0)
		return -1;
	char err[512];
	run x = {.pg = db_connect(conninfo, DB_ROLE_MIGRATE, err, sizeof err), .stop = stop};
	int rc = -1;
	if (!x.pg) {
		log_warn("migrate: connecting failed: %s", err);
		goto out;
	}
	/* "relation already exists, skipping" and the like are not news */
	if (exec_ok(&x, "SET client_min_messages TO warning", "SET", true) != 0 ||
	    exec_ok(&x, "SELECT pg_advisory_lock(" MIGRATE_LOCK_KEY ")",
	            "taking the migration lock", true) != 0)
		goto out;
	rc = migrate_locked(&x, dir, list, n);
	/* what a migration cannot compute in SQL, computed in C under the same lock */
	if (rc == 0 && !x.stopped)
		rc = db_member_keys_fill(x.pg);
	/* closing the session releases the lock too; unlocking says so explicitly */
	if (PQstatus(x.pg) == CONNECTION_OK &&
	    exec_ok(&x, "SELECT pg_advisory_unlock(" MIGRATE_LOCK_KEY ")", "unlocking", false) != 0)
		rc = -1;
out:
	if (x.pg)
		PQfinish(x.pg);
	free_list(list, n);
	return x.stopped ? DB_MIGRATE_STOPPED : rc;
}
