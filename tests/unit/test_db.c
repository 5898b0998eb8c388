/* The database layer without a database: the statement tables' consistency (each row's nparams
 * matches the highest $n of its SQL, names unique) and behaviour when PostgreSQL is unreachable.
 * With TEST_DB_CONNINFO set (tests/api/test_db_timeouts.py runs this binary so, against the
 * throwaway database of the API tests), also what needs a real server: each statement's result
 * columns against its column list (db/statements.h), connections left in pipeline mode. Other
 * tests that need PostgreSQL are in tests/api/. */
#include "db/conn.h" /* struct db_conn: the tests reach its PGconn */
#include "db/db.h"
#include "db/f8array.h"
#include "db/listen.h"
#include "db/notify.h"
#include "db/statements.h"
#include "test.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int highest_param(const char *sql)
{
	int max = 0;
	for (const char *p = sql; *p; p++)
		if (*p == '$' && isdigit((unsigned char)p[1])) {
			int n = atoi(p + 1);
			if (n > max)
				max = n;
		}
	return max;
}

static void statement_table(void)
{
	size_t n = 0;
	for (const db_statement *const *t = db_statement_tables; *t; t++)
		for (const db_statement *s = *t; s->name; s++, n++) {
			CHECK(*s->name && s->sql && *s->sql);
			if (highest_param(s->sql) != s->nparams)
				printf("  statement %s: nparams %d, SQL uses $%d\n", s->name,
				       s->nparams, highest_param(s->sql));
			CHECK_EQ_INT(highest_param(s->sql), s->nparams);
			if (db_statement_find(s->name) != s) {
				printf("  statement %s listed twice\n", s->name);
				CHECK(0);
			}
		}
	CHECK(n > 0);
	CHECK(db_statement_find("no_such_statement") == NULL);
	CHECK(db_statement_find(NULL) == NULL);
	CHECK(db_statement_find("health_ping") != NULL);
}

/* Compares the result columns PostgreSQL describes for prepared statement s with the names
 * its column list registered (db/statements.h): how many, and each one's name in order. A
 * statement with no list must return no columns. */
static void check_columns(PGconn *pg, const db_statement *s)
{
	PGresult *d = PQdescribePrepared(pg, s->name);
	if (PQresultStatus(d) != PGRES_COMMAND_OK) {
		printf("  statement %s: %s", s->name, PQresultErrorMessage(d));
		CHECK(0);
		PQclear(d);
		return;
	}
	int got = PQnfields(d), want = 0;
	for (const char *const *c = s->columns; c && *c; c++, want++)
		if (want < got && strcmp(PQfname(d, want), *c) != 0) {
			printf("  statement %s: column %d is \"%s\", its list says \"%s\"\n",
			       s->name, want, PQfname(d, want), *c);
			CHECK(0);
		}
	if (got != want) {
		printf("  statement %s returns %d columns, its list names %d\n", s->name, got,
		       want);
		CHECK_EQ_INT(got, want);
	}
	PQclear(d);
}

/* Every statement prepares on the migrated database, and what it returns matches its column
 * list: the enums readers use cannot drift from the SQL. */
static void statement_columns(void)
{
	PGconn *pg = db_connect(getenv("TEST_DB_CONNINFO"), DB_ROLE_WORKER, NULL, 0);
	CHECK(pg != NULL);
	if (!pg)
		return;
	int checked = 0;
	for (const db_statement *const *t = db_statement_tables; *t; t++)
		for (const db_statement *s = *t; s->name; s++) {
			PGresult *r = PQprepare(pg, s->name, s->sql, s->nparams, NULL);
			bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
			if (!ok)
				printf("  statement %s: %s", s->name, PQresultErrorMessage(r));
			CHECK(ok);
			PQclear(r);
			if (ok)
				check_columns(pg, s);
			checked += s->columns != NULL;
		}
	CHECK(checked > 0);
	PQfinish(pg);
}

static void no_connection(void)
{
	CHECK(db_exec(NULL, "health_ping", 0, NULL) == NULL);
	CHECK_EQ_INT(db_result_status(NULL, NULL), DB_UNAVAILABLE);
	CHECK_EQ_INT(db_tx(NULL, false, NULL, NULL), DB_FAIL);
}

static db_status never_called(db_conn *c, void *arg)
{
	(void)c;
	*(int *)arg = 1;
	return DB_OK;
}

/* A socket directory that does not exist: connecting fails at once, no server needed. */
static void unreachable(void)
{
	CHECK_EQ_INT(db_init("host=/nonexistent/socket/dir dbname=x"), 0);
	CHECK(db_thread_conn() == NULL);
	CHECK(!db_available());
	int called = 0;
	CHECK_EQ_INT(db_tx(db_thread_conn(), true, never_called, &called), DB_UNAVAILABLE);
	CHECK_EQ_INT(called, 0);
	/* still down a little later: the health thread keeps probing without lifting the flag */
	usleep(300 * 1000);
	CHECK(!db_available());
	CHECK_EQ_INT(db_init("dbname=x"), -1); /* twice */
	db_shutdown();
	/* migrations: unreachable database, missing directory */
	CHECK_EQ_INT(db_migrate("host=/nonexistent/socket/dir dbname=x", "migrations", NULL), -1);
	CHECK_EQ_INT(db_migrate("host=/nonexistent/socket/dir dbname=x", "/nonexistent", NULL), -1);
	CHECK_EQ_INT(db_migrate("host=/nonexistent/socket/dir dbname=x", NULL, NULL), -1);
}

/* The notifier with the database away (its thread keeps retrying, nothing leaves the queue):
 * payloads queue up; past DB_NOTIFY_QUEUE_MAX, or for a payload too long to send, the queue
 * gives way to the catch-all, so a listener is never left without a wake-up. */
static void notifier_queue(void)
{
	db_notify_stats st;
	db_notify_post("ignored:1"); /* not running: nothing */
	db_notify_stats_get(&st);
	CHECK_EQ_INT((int)st.queued, 0);
	CHECK_EQ_INT(db_notify_start("host=/nonexistent/socket/dir dbname=x", "game_events"), 0);
	CHECK_EQ_INT(db_notify_start("dbname=x", "game_events"), -1); /* one per process */
	char payload[64];
	for (int i = 0; i < DB_NOTIFY_QUEUE_MAX; i++) {
		snprintf(payload, sizeof payload, "%024x:%d", i, i + 1);
		db_notify_post(payload);
	}
	db_notify_stats_get(&st);
	CHECK_EQ_INT((int)st.queued, DB_NOTIFY_QUEUE_MAX);
	CHECK(!st.catch_all);
	db_notify_post("one:1"); /* one too many: everything waiting becomes the catch-all */
	db_notify_stats_get(&st);
	CHECK_EQ_INT((int)st.queued, 0);
	CHECK(st.catch_all);
	db_notify_post("two:2");
	db_notify_stats_get(&st);
	CHECK_EQ_INT((int)st.queued, 1);
	char long_payload[DB_NOTIFY_PAYLOAD_MAX + 8];
	memset(long_payload, 'a', sizeof long_payload - 1);
	long_payload[sizeof long_payload - 1] = '\0';
	db_notify_post(long_payload);
	db_notify_stats_get(&st);
	CHECK_EQ_INT((int)st.queued, 0);
	CHECK(st.catch_all);
	CHECK_EQ_INT((int)st.sent, 0);
	db_notify_stop(); /* the database is away: stops without waiting for it */
	db_notify_stop();
	db_notify_post("after:1");
	db_notify_stats_get(&st);
	CHECK_EQ_INT((int)st.queued, 0);
}

static db_status ping_tx(db_conn *c, void *arg)
{
	(void)arg;
	return db_ping(c) ? DB_OK : DB_FAIL; /* as handlers do: any failure is a failure */
}

/* A connection whose pipeline is not left cleanly (here: a query queued without a sync, so
 * PQexitPipelineMode refuses) is dropped: the transaction is retried on a fresh connection and
 * later requests get a connection out of pipeline mode. */
static void pipeline_left_open(void)
{
	const char *conninfo = getenv("TEST_DB_CONNINFO");
	CHECK_EQ_INT(db_init(conninfo), 0);
	db_conn *c = db_thread_conn();
	CHECK(c != NULL);
	if (!c)
		return;
	/* the pipeline of a transaction's first statement cannot be left */
	CHECK_EQ_INT(PQenterPipelineMode(c->pg), 1);
	CHECK_EQ_INT(PQsendQueryParams(c->pg, "SELECT 1", 0, NULL, NULL, NULL, NULL, 0), 1);
	CHECK_EQ_INT(db_tx(c, false, ping_tx, NULL), DB_OK);
	CHECK_EQ_INT(PQpipelineStatus(c->pg), PQ_PIPELINE_OFF);
	CHECK(db_ping(c));
	/* a connection still in pipeline mode is not handed to the next request */
	CHECK_EQ_INT(PQenterPipelineMode(c->pg), 1);
	c = db_thread_conn();
	CHECK(c != NULL);
	CHECK_EQ_INT(PQpipelineStatus(c->pg), PQ_PIPELINE_OFF);
	CHECK(db_ping(c));
	CHECK(db_available());
	db_shutdown();
}

static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/* The session's lock_timeout on c, as SHOW prints it. */
static void show_lock_timeout(db_conn *c, char *out, size_t len)
{
	PGresult *r = PQexec(c->pg, "SHOW lock_timeout");
	snprintf(out, len, "%s",
	         PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) ? PQgetvalue(r, 0, 0) : "?");
	PQclear(r);
}

/* Runs game_get on c while another session holds the games table; *ms: how long it took. */
static void read_locked_games(db_conn *c, bool nowait, long *ms)
{
	const char *p[2] = {"no-such-game", NULL};
	db_conn_nowait(c, nowait);
	long t0 = now_ms();
	PGresult *r = db_exec(c, "game_get", 2, p);
	*ms = now_ms() - t0;
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	CHECK(state && strcmp(state, "55P03") == 0); /* lock_timeout */
	CHECK(db_conn_lock_refused(c) == nowait);
	PQclear(r);
	db_conn_nowait(c, false);
}

/* A connection that may not wait (db_conn_nowait) keeps the short lock timeout on its session
 * from its first such statement on, so later ones send nothing more; a statement that may wait,
 * on the same connection, still gets the role's whole lock timeout, for its own transaction. */
static void lock_timeout_kept(void)
{
	const char *conninfo = getenv("TEST_DB_CONNINFO");
	db_timeouts was = db_get_timeouts(), t = was;
	t.lock_ms = 1500;
	db_set_timeouts(&t);
	CHECK_EQ_INT(db_init(conninfo), 0);
	db_conn *c = db_thread_conn();
	PGconn *holder = db_connect(conninfo, DB_ROLE_MIGRATE, NULL, 0);
	CHECK(c != NULL && holder != NULL);
	if (!c || !holder)
		goto out;
	char shown[32];
	show_lock_timeout(c, shown, sizeof shown);
	CHECK_STR(shown, "1500ms");
	const char *p[2] = {"no-such-game", NULL};
	db_conn_nowait(c, true); /* a statement that succeeds: its setting stays */
	PGresult *r = db_exec(c, "game_get", 2, p);
	CHECK(r && PQresultStatus(r) == PGRES_TUPLES_OK);
	PQclear(r);
	db_conn_nowait(c, false);
	show_lock_timeout(c, shown, sizeof shown);
	CHECK_STR(shown, "1ms");
	r = PQexec(holder, "BEGIN; LOCK TABLE games IN ACCESS EXCLUSIVE MODE");
	CHECK_EQ_INT(PQresultStatus(r), PGRES_COMMAND_OK);
	PQclear(r);
	long ms;
	read_locked_games(c, true, &ms);
	CHECK(ms < 1000);
	read_locked_games(c, false, &ms);
	CHECK(ms >= 1400);
	show_lock_timeout(c, shown, sizeof shown);
	CHECK_STR(shown, "1ms");
	read_locked_games(c, true, &ms);
	CHECK(ms < 1000);
	PQclear(PQexec(holder, "ROLLBACK"));
	r = db_exec(c, "game_get", 2, p);
	CHECK(r && PQresultStatus(r) == PGRES_TUPLES_OK);
	PQclear(r);
out:
	if (holder)
		PQfinish(holder);
	db_set_timeouts(&was);
	db_shutdown();
}

/* A connection found unusable (here: marked broken, as a lost one or a read-only session is)
 * counts as lost for this thread until a request's connection replaces it, whatever the
 * availability flag says meanwhile. */
static void thread_lost(void)
{
	CHECK_EQ_INT(db_init(getenv("TEST_DB_CONNINFO")), 0);
	db_conn *c = db_thread_conn();
	CHECK(c != NULL);
	if (!c)
		goto out;
	CHECK(!db_thread_lost());
	c->broken = true;
	CHECK(db_thread_lost());
	CHECK(db_available());
	c = db_thread_conn(); /* the next request's: replaced */
	CHECK(c != NULL && !db_thread_lost());
out:
	db_shutdown();
}

static atomic_int g_heard; /* version of the last notification for game "g" */

static void heard(void *cls, const char *id, int version)
{
	(void)cls;
	if (id && strcmp(id, "g") == 0)
		atomic_store(&g_heard, version);
}

/* Runs sql on a connection of its own; true when it succeeds. */
static bool run_sql(const char *conninfo, const char *sql, const char *param, char *out,
                    size_t outlen)
{
	PGconn *pg = db_connect(conninfo, DB_ROLE_WORKER, NULL, 0);
	if (!pg)
		return false;
	PGresult *r = PQexecParams(pg, sql, param ? 1 : 0, NULL, &param, NULL, NULL, 0);
	bool ok = PQresultStatus(r) == PGRES_TUPLES_OK;
	if (ok && out)
		snprintf(out, outlen, "%s", PQntuples(r) ? PQgetvalue(r, 0, 0) : "");
	PQclear(r);
	PQfinish(pg);
	return ok;
}

/* Reads snap.v on c's connection inside its transaction (begun by a db statement first). */
static int snap_value(db_conn *c)
{
	PGresult *r = PQexec(c->pg, "SELECT v FROM snap");
	int v =
	    PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) ? atoi(PQgetvalue(r, 0, 0)) : -1;
	PQclear(r);
	return v;
}

typedef struct {
	int before, after, next;
} snap_arg;

/* Reads snap.v, lets another connection change it, reads it again. */
static db_status snap_tx(db_conn *c, void *arg)
{
	snap_arg *a = arg;
	if (!db_ping(c)) /* the transaction's first statement: BEGIN goes with it */
		return DB_FAIL;
	a->before = snap_value(c);
	char sql[64];
	snprintf(sql, sizeof sql, "UPDATE snap SET v = %d RETURNING v", a->next);
	if (!run_sql(getenv("TEST_DB_CONNINFO"), sql, NULL, NULL, 0))
		return DB_FAIL;
	a->after = snap_value(c);
	return DB_OK;
}

/* db_tx_snapshot's statements see one snapshot: a change committed meanwhile by another
 * connection is not seen (db_tx's READ COMMITTED statements do see it). */
static void snapshot_tx(void)
{
	const char *conninfo = getenv("TEST_DB_CONNINFO");
	PGconn *pg = db_connect(conninfo, DB_ROLE_WORKER, NULL, 0);
	CHECK(pg != NULL);
	if (!pg)
		return;
	PQclear(PQexec(pg, "DROP TABLE IF EXISTS snap; CREATE TABLE snap (v int); "
	                   "INSERT INTO snap VALUES (1)"));
	PQfinish(pg);
	CHECK_EQ_INT(db_init(conninfo), 0);
	db_conn *c = db_thread_conn();
	CHECK(c != NULL);
	if (!c)
		return;
	snap_arg a = {.next = 2};
	CHECK_EQ_INT(db_tx_snapshot(c, snap_tx, &a), DB_OK);
	CHECK_EQ_INT(a.before, 1);
	CHECK_EQ_INT(a.after, 1);
	snap_arg b = {.next = 3};
	CHECK_EQ_INT(db_tx(c, false, snap_tx, &b), DB_OK);
	CHECK_EQ_INT(b.before, 2);
	CHECK_EQ_INT(b.after, 3);
	db_shutdown();
}

/* The LISTEN connection quotes its channel: a name that is no plain identifier (here with a
 * space, quotes and a semicolon) is listened to as that very channel; the connection carries
 * the listener's application name. Waits for the notification with a deadline. */
static void listen_odd_channel(void)
{
	const char *conninfo = getenv("TEST_DB_CONNINFO");
	const char *channel = "Odd \"chan\"; x";
	atomic_store(&g_heard, 0);
	CHECK_EQ_INT(db_listen_start(conninfo, channel, heard, NULL), 0);
	char n[32] = "0";
	struct timespec step = {0, 20 * 1000 * 1000};
	for (int i = 0; i < 500 && atomic_load(&g_heard) != 7; i++) { /* 10 s at most */
		/* until the listener is there, a notification is lost: send again */
		CHECK(run_sql(conninfo, "SELECT pg_notify($1, 'g:7')", channel, NULL, 0));
		nanosleep(&step, NULL);
	}
	CHECK_EQ_INT(atomic_load(&g_heard), 7);
	CHECK(run_sql(conninfo, "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1",
	              "dicehospital-listen", n, sizeof n));
	CHECK_STR(n, "1");
	db_listen_stop();
}

/* The bytes of a binary float8[] parameter: what PostgreSQL's array_recv reads. */
static void f8array_bytes(void)
{
	db_f8array a = {0};
	int len = 0;
	const unsigned char *b = (const unsigned char *)db_f8array_done(&a, &len);
	const unsigned char empty[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 189};
	CHECK_EQ_INT(len, 12);
	CHECK(memcmp(b, empty, sizeof empty) == 0);
	db_f8array_free(&a);
	db_f8array_add(&a, 1.5);
	db_f8array_null(&a);
	db_f8array_add(&a, -2.0);
	b = (const unsigned char *)db_f8array_done(&a, &len);
	const unsigned char want[] = {
	    0,    0,    0,    1,    0,    0,    0, 1,
	    0,    0,    2,    189,                    /* one dimension, NULLs, float8 (701) */
	    0,    0,    0,    3,    0,    0,    0, 1, /* three elements from 1 */
	    0,    0,    0,    8,    0x3f, 0xf8, 0, 0,
	    0,    0,    0,    0,    /* 1.5 */
	    0xff, 0xff, 0xff, 0xff, /* NULL */
	    0,    0,    0,    8,    0xc0, 0,    0, 0,
	    0,    0,    0,    0}; /* -2 */
	CHECK_EQ_INT(len, (int)sizeof want);
	CHECK(memcmp(b, want, sizeof want) == 0);
	db_f8array_free(&a);
	CHECK(a.b == NULL && a.n == 0 && !a.hasnull);
}

/* A binary float8[] parameter reaches PostgreSQL with every double exact and its NULLs. */
static void f8array_server(void)
{
	PGconn *pg = PQconnectdb(getenv("TEST_DB_CONNINFO"));
	CHECK_EQ_INT(PQstatus(pg), CONNECTION_OK);
	db_f8array a = {0};
	for (int i = 0; i < 3000; i++) /* past the first growth of the buffer */
		if (i % 7 == 3)
			db_f8array_null(&a);
		else
			db_f8array_add(&a, 25.0 / (i + 3) - i * 0.1);
	int len = 0;
	const char *v[1] = {db_f8array_done(&a, &len)};
	int fmt[1] = {1};
	PGresult *r =
	    PQexecParams(pg,
	                 "SELECT count(*), count(x), sum(x), bool_and(x IS NULL = (k % 7 = 4)),"
	                 " bool_and(x IS NULL OR x = 25::float8 / (k + 2) - (k - 1) * 0.1::float8)"
	                 " FROM unnest($1::float8[]) WITH ORDINALITY AS u(x, k)",
	                 1, NULL, v, &len, fmt, 0);
	CHECK_EQ_INT(PQresultStatus(r), PGRES_TUPLES_OK);
	if (PQresultStatus(r) == PGRES_TUPLES_OK) {
		CHECK_STR(PQgetvalue(r, 0, 0), "3000");
		CHECK_STR(PQgetvalue(r, 0, 1), "2571");
		CHECK_STR(PQgetvalue(r, 0, 3), "t");
		CHECK_STR(PQgetvalue(r, 0, 4), "t");
	}
	PQclear(r);
	db_f8array_free(&a);
	PQfinish(pg);
}

/* bigint[] and integer[] parameters in the same format reach PostgreSQL as they were, an
 * empty one with its element type. */
static void int_arrays_server(void)
{
	PGconn *pg = PQconnectdb(getenv("TEST_DB_CONNINFO"));
	CHECK_EQ_INT(PQstatus(pg), CONNECTION_OK);
	db_f8array a = {.oid = DB_ARRAY_INT8}, b = {.oid = DB_ARRAY_INT4},
	           e = {.oid = DB_ARRAY_INT8};
	for (int i = 0; i < 3000; i++) {
		db_f8array_int8(&a, (int64_t)i * 3000000007LL - 4000000000LL);
		db_f8array_int4(&b, i % 2 ? -i : i);
	}
	int len[3] = {0};
	const char *v[3] = {db_f8array_done(&a, &len[0]), db_f8array_done(&b, &len[1]),
	                    db_f8array_done(&e, &len[2])};
	int fmt[3] = {1, 1, 1};
	PGresult *r =
	    PQexecParams(pg,
	                 "SELECT count(*), bool_and(x = (k - 1) * 3000000007 - 4000000000),"
	                 " bool_and(y = CASE WHEN k % 2 = 0 THEN 1 - k ELSE k - 1 END), "
	                 "cardinality($3::bigint[])"
	                 " FROM unnest($1::bigint[], $2::int[]) WITH ORDINALITY AS u(x, y, k)",
	                 3, NULL, v, len, fmt, 0);
	CHECK_EQ_INT(PQresultStatus(r), PGRES_TUPLES_OK);
	if (PQresultStatus(r) == PGRES_TUPLES_OK) {
		CHECK_STR(PQgetvalue(r, 0, 0), "3000");
		CHECK_STR(PQgetvalue(r, 0, 1), "t");
		CHECK_STR(PQgetvalue(r, 0, 2), "t");
		CHECK_STR(PQgetvalue(r, 0, 3), "0");
	}
	PQclear(r);
	db_f8array_free(&a);
	db_f8array_free(&b);
	db_f8array_free(&e);
	PQfinish(pg);
}

/* text[] and jsonb[] parameters in the same format reach PostgreSQL byte for byte: quotes,
 * backslashes, braces and commas (which the text form of an array would have to escape), UTF-8,
 * an empty string, a NULL, and JSON that jsonb reads as the same value. */
static void text_arrays_server(void)
{
	PGconn *pg = PQconnectdb(getenv("TEST_DB_CONNINFO"));
	CHECK_EQ_INT(PQstatus(pg), CONNECTION_OK);
	static const char *texts[] = {"move", "a \"quoted\" {brace}, comma", "back\\slash", "",
	                              "\xc3\xa9t\xc3\xa9"};
	static const char *jsons[] = {"{\"move\": {\"die\": \"green\"}}", "[1, \"}\\\"\", null]",
	                              "\"\xc3\xa9\"", "{}", "3"};
	db_f8array t = {.oid = DB_ARRAY_TEXT}, j = {.oid = DB_ARRAY_JSONB};
	for (int i = 0; i < 5; i++) {
		db_f8array_text(&t, texts[i], strlen(texts[i]));
		db_f8array_jsonb(&j, jsons[i], strlen(jsons[i]));
	}
	db_f8array_null(&t);
	db_f8array_jsonb(&j, "true", 4);
	int len[2] = {0};
	const char *v[2] = {db_f8array_done(&t, &len[0]), db_f8array_done(&j, &len[1])};
	int fmt[2] = {1, 1};
	PGresult *r =
	    PQexecParams(pg,
	                 "SELECT coalesce(x, '<null>'), y::text, pg_typeof(y)"
	                 " FROM unnest($1::text[], $2::jsonb[]) WITH ORDINALITY AS u(x, y, k)"
	                 " ORDER BY k",
	                 2, NULL, v, len, fmt, 0);
	CHECK_EQ_INT(PQresultStatus(r), PGRES_TUPLES_OK);
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 6) {
		static const char *want_json[] = {"{\"move\": {\"die\": \"green\"}}",
		                                  "[1, \"}\\\"\", null]",
		                                  "\"\xc3\xa9\"",
		                                  "{}",
		                                  "3",
		                                  "true"};
		for (int i = 0; i < 6; i++) {
			CHECK_STR(PQgetvalue(r, i, 0), i < 5 ? texts[i] : "<null>");
			CHECK_STR(PQgetvalue(r, i, 1), want_json[i]);
			CHECK_STR(PQgetvalue(r, i, 2), "jsonb");
		}
	} else {
		CHECK_EQ_INT(PQntuples(r), 6);
	}
	PQclear(r);
	db_f8array_free(&t);
	db_f8array_free(&j);
	PQfinish(pg);
}

int main(void)
{
	TEST("db statement table", statement_table);
	TEST("db without a connection", no_connection);
	TEST("db unreachable", unreachable);
	TEST("db notifier queue", notifier_queue);
	TEST("db binary float8[] parameter bytes", f8array_bytes);
	if (getenv("TEST_DB_CONNINFO"))
		TEST("db binary float8[] parameter read by PostgreSQL", f8array_server);
	if (getenv("TEST_DB_CONNINFO"))
		TEST("db binary bigint[] and integer[] parameters read by PostgreSQL",
		     int_arrays_server);
	if (getenv("TEST_DB_CONNINFO"))
		TEST("db binary text[] and jsonb[] parameters read by PostgreSQL",
		     text_arrays_server);
	if (getenv("TEST_DB_CONNINFO"))
		TEST("db statements' result columns match their lists", statement_columns);
	if (getenv("TEST_DB_CONNINFO"))
		TEST("db connection left in pipeline mode", pipeline_left_open);
	if (getenv("TEST_DB_CONNINFO"))
		TEST("db LISTEN on a channel that needs quoting", listen_odd_channel);
	if (getenv("TEST_DB_CONNINFO"))
		TEST("db reads in one snapshot (db_tx_snapshot)", snapshot_tx);
	if (getenv("TEST_DB_CONNINFO"))
		TEST("db lock timeout: nowait's kept on the session, the role's for a wait",
		     lock_timeout_kept);
	if (getenv("TEST_DB_CONNINFO"))
		TEST("db a broken connection counts as lost until replaced", thread_lost);
	TEST_MAIN_END();
}
