/* Read connections to a standby and the writers' WAL positions (readpool.h).
 *
 * Ownership and lifetime:
 *   - g_url is a copy of DATABASE_READ_URL made at the first call (pthread_once) and kept for the
 *     life of the process; NULL when reads stay on the primary.
 *   - Each thread's read_slot (and its db_conn) belongs to that thread: created by
 *     db_read_conn, freed by the pthread key destructor when the thread exits.
 *   - g_wrote (the writers' positions) is shared, guarded by g_wrote_mu.
 *
 * Why a floor: the table of writers is bounded; a session pushed out of it still needs its
 * writes read back, so the position it held raises g_floor, which every read then requires. Reads
 * of sessions pushed out wait or go to the primary a little more often; none reads stale. */
#include "db/readpool.h"

#include "base/log.h"
#include "base/oom.h"
#include "db/rows.h"
#include "db/statements.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
	db_conn *c;       /* NULL until connected, or after it broke */
	db_lsn confirmed; /* the standby c reaches has replayed this far (seen by us) */
} read_slot;

typedef struct {
	char session[READ_SESSION_HEX + 1]; /* "" when free */
	db_lsn lsn;
	unsigned long long used;
} wrote_slot;

enum { WROTE_PROBE = 8 }; /* slots looked at for one session (open addressing) */

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static char *g_url; /* NULL: reads on the primary */
static pthread_key_t g_key;
static bool g_key_ok;
static _Thread_local read_slot *t_slot;

static atomic_llong g_down_until_ms; /* monotonic ms: no new connection before */
static atomic_bool g_down;           /* the last connection attempt failed (logged once) */

static pthread_mutex_t g_wrote_mu = PTHREAD_MUTEX_INITIALIZER;
static wrote_slot g_wrote[READ_WROTE_SLOTS];
static db_lsn g_floor;
static unsigned long long g_tick;

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void slot_free(void *p)
{
	read_slot *s = p;
	if (s) {
		db_conn_free(s->c);
		free(s);
	}
}

static void configure(void)
{
	g_key_ok = pthread_key_create(&g_key, slot_free) == 0;
	const char *url = getenv("DATABASE_READ_URL");
	if (!url || !*url)
		return;
	char *msg = NULL;
	PQconninfoOption *opts = PQconninfoParse(url, &msg);
	if (!opts) {
		log_warn("db: DATABASE_READ_URL is not a valid connection string (%s); every read "
		         "goes to the primary",
		         msg ? msg : "out of memory");
		PQfreemem(msg);
		return;
	}
	PQconninfoFree(opts);
	if (!g_key_ok) {
		log_warn("db: no thread key for read connections; every read goes to the primary");
		return;
	}
	g_url = xstrdup(url);
	log_info("db: league reads may go to DATABASE_READ_URL");
}

bool db_read_enabled(void)
{
	pthread_once(&g_once, configure);
	return g_url != NULL;
}

/* "16/B374D848" → 0x16B374D848; false when it is not one. */
static bool lsn_parse(const char *t, db_lsn *out)
{
	char *end;
	errno = 0;
	unsigned long long hi = strtoull(t, &end, 16);
	if (end == t || *end != '/' || errno || hi > UINT32_MAX)
		return false;
	const char *lo_text = end + 1;
	unsigned long long lo = strtoull(lo_text, &end, 16);
	if (end == lo_text || *end != '\0' || errno || lo > UINT32_MAX)
		return false;
	*out = (db_lsn)hi << 32 | (db_lsn)lo;
	return true;
}

/* wal_insert_lsn: the primary's WAL position after a write, as text; wal_replay_lsn: whether
 * this server is a standby, and how far it has replayed (NULL before replay began). */
// clang-format off
#define WAL_INSERT_LSN_COLUMNS(C) C(WAL_INSERT_LSN_LSN, lsn)
#define WAL_REPLAY_LSN_COLUMNS(C) C(WAL_REPLAY_LSN_STANDBY, standby) C(WAL_REPLAY_LSN_LSN, lsn)
// clang-format on
DB_COLUMNS(WAL_INSERT_LSN_COLUMNS, WAL_INSERT_LSN_NCOLS);
DB_COLUMNS(WAL_REPLAY_LSN_COLUMNS, WAL_REPLAY_LSN_NCOLS);

// clang-format off
const db_statement db_readpool_statements[] = {
	{"wal_insert_lsn",
	 "SELECT pg_current_wal_insert_lsn()::text AS lsn",
	 0, DB_COLUMN_NAMES(WAL_INSERT_LSN_COLUMNS)},
	{"wal_replay_lsn",
	 "SELECT pg_is_in_recovery() AS standby, "
	 "       pg_last_wal_replay_lsn()::text AS lsn",
	 0, DB_COLUMN_NAMES(WAL_REPLAY_LSN_COLUMNS)},
	DB_STATEMENTS_END,
};
// clang-format on

/* The primary's position (wal_insert_lsn). */
db_status db_wal_position(db_conn *c, db_lsn *out)
{
	PGresult *r;
	db_status st = db_run(c, "wal_insert_lsn", 0, NULL, &r);
	if (st == DB_OK &&
	    (db_nrows(r) != 1 || !lsn_parse(db_col_text(r, 0, WAL_INSERT_LSN_LSN), out)))
		st = DB_FAIL;
	PQclear(r);
	return st;
}

/* How far this server has replayed (wal_replay_lsn). A server that is no standby has everything
 * it has: UINT64_MAX. */
static db_status replay_position(db_conn *c, db_lsn *out)
{
	PGresult *r;
	db_status st = db_run(c, "wal_replay_lsn", 0, NULL, &r);
	if (st == DB_OK && db_nrows(r) != 1)
		st = DB_FAIL;
	if (st == DB_OK) {
		*out = 0;
		if (!db_col_bool(r, 0, WAL_REPLAY_LSN_STANDBY))
			*out = UINT64_MAX;
		else if (!db_col_null(r, 0, WAL_REPLAY_LSN_LSN) &&
		         !lsn_parse(db_col_text(r, 0, WAL_REPLAY_LSN_LSN), out))
			st = DB_FAIL;
	}
	PQclear(r);
	return st;
}

/* ---- the writers' positions ---- */

static size_t session_index(const char *session)
{
	unsigned long long h = 0xcbf29ce484222325ULL; /* FNV-1a */
	for (const char *p = session; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 0x100000001b3ULL;
	}
	return (size_t)(h % READ_WROTE_SLOTS);
}

void db_read_wrote(const char *session, db_lsn lsn)
{
	if (!session || !*session || strlen(session) > READ_SESSION_HEX)
		return;
	size_t at = session_index(session);
	pthread_mutex_lock(&g_wrote_mu);
	wrote_slot *victim = NULL;
	for (size_t k = 0; k < WROTE_PROBE; k++) {
		wrote_slot *w = &g_wrote[(at + k) % READ_WROTE_SLOTS];
		if (strcmp(w->session, session) == 0) {
			victim = w;
			break;
		}
		if (!victim || (victim->session[0] && (!w->session[0] || w->used < victim->used)))
			victim = w;
	}
	if (strcmp(victim->session, session) != 0) {
		if (victim->session[0] && victim->lsn > g_floor)
			g_floor = victim->lsn; /* pushed out: its write is required of every read */
		snprintf(victim->session, sizeof victim->session, "%s", session);
		victim->lsn = 0;
	}
	if (lsn > victim->lsn)
		victim->lsn = lsn;
	victim->used = ++g_tick;
	pthread_mutex_unlock(&g_wrote_mu);
}

/* The position a read of session requires of the standby (0: none). */
static db_lsn required(const char *session)
{
	size_t at = session && *session ? session_index(session) : 0;
	pthread_mutex_lock(&g_wrote_mu);
	db_lsn need = g_floor;
	for (size_t k = 0; session && *session && k < WROTE_PROBE; k++) {
		const wrote_slot *w = &g_wrote[(at + k) % READ_WROTE_SLOTS];
		if (strcmp(w->session, session) == 0) {
			if (w->lsn > need)
				need = w->lsn;
			break;
		}
	}
	pthread_mutex_unlock(&g_wrote_mu);
	return need;
}

/* ---- this thread's connection ---- */

static read_slot *thread_slot(void)
{
	if (!t_slot) {
		t_slot = xcalloc(1, sizeof *t_slot);
		pthread_setspecific(g_key, t_slot);
	}
	return t_slot;
}

/* Makes s->c usable: the open one, or a new one unless a recent attempt failed. */
static bool slot_connect(read_slot *s)
{
	if (db_conn_usable(s->c))
		return true;
	db_conn_free(s->c);
	s->c = NULL;
	s->confirmed = 0;
	if (now_ms() < atomic_load(&g_down_until_ms))
		return false;
	char err[512];
	s->c = db_conn_open(g_url, err, sizeof err);
	if (!s->c) {
		atomic_store(&g_down_until_ms, now_ms() + READ_RETRY_MS);
		if (!atomic_exchange(&g_down, true))
			log_warn("db: read replica unavailable (%s); reads go to the primary", err);
		return false;
	}
	if (atomic_exchange(&g_down, false))
		log_info("db: read replica available again");
	return true;
}

/* true once the standby has replayed need, asking it every READ_POLL_MS for READ_WAIT_MS. */
static bool wait_replayed(read_slot *s, db_lsn need)
{
	long long deadline = now_ms() + READ_WAIT_MS;
	for (;;) {
		db_lsn at;
		if (replay_position(s->c, &at) != DB_OK)
			return false;
		s->confirmed = at;
		if (at >= need)
			return true;
		if (now_ms() >= deadline)
			return false;
		struct timespec ts = {0, READ_POLL_MS * 1000000L};
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
}

db_conn *db_read_conn(const char *session)
{
	if (!db_read_enabled())
		return NULL;
	read_slot *s = thread_slot();
	if (!slot_connect(s))
		return NULL;
	db_lsn need = required(session);
	if (need > s->confirmed && !wait_replayed(s, need))
		return NULL;
	return s->c;
}

const char *db_read_source(db_conn *c)
{
	return c && t_slot && c == t_slot->c ? "replica" : "primary";
}
