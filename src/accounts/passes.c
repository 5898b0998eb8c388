/* League reads' session checks kept for a moment, and the league of each player (passes.h).
 *
 * A phone that opens a league page sends several reads at once, and a table of phones does
 * that together after a game: each read would otherwise spend a database round trip on the
 * same session and league check before its reply, often already cached, is sent. A pass is
 * that check's outcome (the account, its access to the league, the league's version), kept
 * per session and league for PASS_TTL_MS. It is dropped early by any write request of this
 * process (passes_forget_all, http_config.on_write: a write's own reads and the reads after
 * it never see an older pass), by a change of database server (db_server_epoch), and is only
 * ever made from a successful check. Changes made by another process or by hand reach league
 * reads within PASS_TTL_MS.
 *
 * Both tables are direct-mapped (a new entry takes its slot) under one mutex; entries are
 * copied out, so nothing is shared after the lock is released. */
#include "accounts/passes.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

enum { PASS_SLOTS = 512, PASS_TTL_MS = 1000, MEMBER_SLOTS = 1024 };

typedef struct {
	bool used;
	unsigned gen, epoch;
	struct timespec at; /* CLOCK_MONOTONIC, when the check began */
	char league[ID_LEN + 1];
	account acc; /* session key, account and pre (pre_conn NULL) */
} pass_slot;

typedef struct {
	bool used;
	unsigned epoch;
	int64_t version; /* the league version the name and the member's existence are from */
	char member[ID_LEN + 1];
	db_member_league ml;
} member_slot;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pass_slot g_pass[PASS_SLOTS];       /* guarded by g_mu */
static member_slot g_member[MEMBER_SLOTS]; /* guarded by g_mu */
static atomic_uint g_gen;                  /* bumped by every write request */

static size_t slot_of(const char *a, const char *b, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (const char *p = a; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	for (const char *p = b; p && *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return (size_t)(h % n);
}

static long long ms_since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long long)(now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000;
}

void passes_forget_all(void)
{
	atomic_fetch_add(&g_gen, 1);
}

void passes_begin(passes_mark *m)
{
	m->gen = atomic_load(&g_gen);
	m->epoch = db_server_epoch();
	clock_gettime(CLOCK_MONOTONIC, &m->at);
}

bool passes_get(const char *session, const char *league, account *acc)
{
	if (session[0] == '\0' || strlen(league) > ID_LEN)
		return false;
	unsigned gen = atomic_load(&g_gen), epoch = db_server_epoch();
	bool hit = false;
	pthread_mutex_lock(&g_mu);
	const pass_slot *s = &g_pass[slot_of(session, league, PASS_SLOTS)];
	if (s->used && s->gen == gen && s->epoch == epoch && strcmp(s->acc.session, session) == 0 &&
	    strcmp(s->league, league) == 0 && ms_since(&s->at) < PASS_TTL_MS) {
		*acc = s->acc;
		hit = true;
	}
	pthread_mutex_unlock(&g_mu);
	return hit;
}

void passes_put(const passes_mark *m, const char *league, const account *acc)
{
	if (acc->session[0] == '\0' || strlen(league) > ID_LEN)
		return;
	pthread_mutex_lock(&g_mu);
	pass_slot *s = &g_pass[slot_of(acc->session, league, PASS_SLOTS)];
	s->used = true;
	s->gen = m->gen;
	s->epoch = m->epoch;
	s->at = m->at;
	snprintf(s->league, sizeof s->league, "%s", league);
	s->acc = *acc;
	s->acc.pre_conn = NULL;
	pthread_mutex_unlock(&g_mu);
}

bool passes_member_get(const char *member, int64_t version, db_member_league *out)
{
	if (strlen(member) > ID_LEN)
		return false;
	unsigned epoch = db_server_epoch();
	bool hit = false;
	pthread_mutex_lock(&g_mu);
	const member_slot *s = &g_member[slot_of(member, NULL, MEMBER_SLOTS)];
	if (s->used && s->epoch == epoch && strcmp(s->member, member) == 0 &&
	    (version < 0 || s->version == version)) {
		*out = s->ml;
		hit = true;
	}
	pthread_mutex_unlock(&g_mu);
	return hit;
}

void passes_member_put(const char *member, int64_t version, unsigned epoch,
                       const db_member_league *ml)
{
	if (!ml->found || strlen(member) > ID_LEN)
		return;
	pthread_mutex_lock(&g_mu);
	member_slot *s = &g_member[slot_of(member, NULL, MEMBER_SLOTS)];
	s->used = true;
	s->epoch = epoch;
	s->version = version;
	snprintf(s->member, sizeof s->member, "%s", member);
	s->ml = *ml;
	pthread_mutex_unlock(&g_mu);
}
