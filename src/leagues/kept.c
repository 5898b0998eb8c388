/* A league's rating input kept between its changes (kept.h).
 *
 * Rating a league again after a change of one of its plays needs every result of the league in
 * play order; at 40,000 results reading them is most of the time (src/leagues/README.md). The
 * rows a recompute used are kept here, per league, for the league version its transaction
 * wrote: the next change of one play, when the league is still at that version, takes them,
 * reads only that play's rows again and puts them in place (kept_splice); the rows before the
 * first one the change moved keep their ratings, and the league is rated from there on
 * (kept_rated, rows_rate_from). Everything else — a
 * version that moved on (a change by another process, of members or seasons, a restore), a
 * change of database server (db_server_epoch), too many spliced plays — reads the whole league.
 *
 * A recompute hands its rows over as the thread's pending entry (kept_pending_set); the
 * league's transaction runner (access_tx) keeps it once the transaction committed
 * (kept_pending_end) and drops it otherwise, so only committed versions are ever kept; outside
 * that runner nothing is kept. An entry is taken out of the table by the transaction that uses
 * it: no two threads share one, and a transaction that rolls back just leaves the league to be
 * read again.
 *
 * The table holds KEPT_SLOTS leagues under one mutex (the least recently kept one gives way):
 * about 20 MB for a league of 10,000 plays (40,000 results), a few hundred kilobytes for a usual
 * one. */
#include "leagues/kept.h"
#include "leagues/rows.h"
#include "engine/tokens.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { KEPT_SLOTS = 4, KEPT_MAX_SETS = 64 };

struct kept_league {
	char league[ID_LEN + 1];
	long long version;
	unsigned epoch;
	unsigned long long stamp; /* when it was kept (a counter): the oldest gives way */
	league_rows s;            /* s.set: the whole league's read; s.rows point into the sets */
	int rated;                /* s.rows[0, rated) are as the last rating left them */
	league_touch touch;       /* where the last spliced play was and is */
	db_league_results *more;  /* the rows of spliced plays, owned */
	int nmore;
	const char **members; /* member ids by index (borrowed from the sets) */
	int cap_members;
};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static kept_league *g_slots[KEPT_SLOTS];
static unsigned long long g_stamp;
static _Thread_local kept_league *t_pending;
static _Thread_local bool t_in_tx; /* inside access_tx: a pending entry has someone to install it */

void kept_free(kept_league *k)
{
	if (!k)
		return;
	rows_free(&k->s);
	for (int i = 0; i < k->nmore; i++)
		db_rowset_clear(&k->more[i]);
	free(k->more);
	free(k->members);
	free(k);
}

/* The member ids of s by index (rows_index numbered them in order of first appearance). */
static void members_of(kept_league *k)
{
	k->cap_members = k->s.nmembers + 8;
	k->members = xcalloc((size_t)k->cap_members, sizeof *k->members);
	for (int i = 0; i < k->s.nrows; i++)
		k->members[k->s.rows[i].m] = k->s.rows[i].member;
}

kept_league *kept_from_rows(const char *league, league_rows *s)
{
	kept_league *k = xcalloc(1, sizeof *k);
	snprintf(k->league, sizeof k->league, "%s", league);
	k->s = *s;
	k->rated = s->nrows;
	memset(s, 0, sizeof *s);
	members_of(k);
	return k;
}

league_rows *kept_rows(kept_league *k)
{
	return &k->s;
}

int kept_rated(const kept_league *k)
{
	return k->rated;
}

void kept_rated_all(kept_league *k)
{
	k->rated = k->s.nrows;
}

const league_touch *kept_touch(const kept_league *k)
{
	return &k->touch;
}

/* The index of member id in k, added when new. */
static int member_of(kept_league *k, const char *id)
{
	for (int m = 0; m < k->s.nmembers; m++)
		if (strcmp(k->members[m], id) == 0)
			return m;
	if (k->s.nmembers == k->cap_members) {
		k->cap_members *= 2;
		k->members = xrealloc(k->members, (size_t)k->cap_members * sizeof *k->members);
	}
	k->members[k->s.nmembers] = id;
	return k->s.nmembers++;
}

/* Does row x come before a play played at at_us with seq? Play order: played_at, then seq. */
static bool before(const league_row *x, int64_t at_us, int64_t seq)
{
	return x->at < at_us || (x->at == at_us && x->seq < seq);
}

bool kept_splice(kept_league *k, const char *play, db_league_results *rows)
{
	if (k->nmore == KEPT_MAX_SETS) {
		db_rowset_clear(rows);
		return false;
	}
	k->more = xrealloc(k->more, (size_t)(k->nmore + 1) * sizeof *k->more);
	db_league_results *set = &k->more[k->nmore++];
	*set = *rows;
	memset(rows, 0, sizeof *rows);
	/* the play's old rows out (they are next to each other) */
	int n = 0, first = -1;
	k->touch.n = 0;
	for (int i = 0; i < k->s.nrows; i++) {
		const league_row *x = &k->s.rows[i];
		if (strcmp(x->play, play) != 0) {
			k->s.rows[n++] = *x;
		} else if (first < 0) { /* its strings stay with the sets k keeps */
			first = i;
			k->touch.key[k->touch.n] = x->key;
			k->touch.date[k->touch.n++] = x->date;
		}
	}
	if (first >= 0 && first < k->rated)
		k->rated = first;
	int add = set->n;
	k->s.rows = xrealloc(k->s.rows, (size_t)(n + add + 1) * sizeof *k->s.rows);
	/* its new rows where the play now falls */
	int at = n;
	if (add > 0) {
		const db_league_result *y0 = &set->rows[0];
		int lo = 0, hi = n;
		while (lo < hi) {
			int mid = lo + (hi - lo) / 2;
			if (before(&k->s.rows[mid], y0->at_us, y0->seq))
				lo = mid + 1;
			else
				hi = mid;
		}
		at = lo;
		memmove(&k->s.rows[at + add], &k->s.rows[at], (size_t)(n - at) * sizeof *k->s.rows);
	}
	for (int j = 0; j < add; j++) {
		const db_league_result *y = &set->rows[j];
		k->s.rows[at + j] = (league_row){.play = y->play,
		                                 .member = y->member,
		                                 .name = y->name,
		                                 .m = member_of(k, y->member),
		                                 .seq = y->seq,
		                                 .at = y->at_us,
		                                 .rank = y->rank,
		                                 .score = y->score,
		                                 .has_score = y->has_score,
		                                 .winner = y->winner,
		                                 .coop = y->cooperative,
		                                 .team = y->team,
		                                 .key = y->game_key,
		                                 .date = y->local_date};
	}
	if (add > 0) {
		k->touch.key[k->touch.n] = set->rows[0].game_key;
		k->touch.date[k->touch.n++] = set->rows[0].local_date;
	}
	k->s.nrows = n + add;
	if (at < k->rated)
		k->rated = at;
	return true;
}

kept_league *kept_take(const char *league, long long version)
{
	unsigned epoch = db_server_epoch();
	kept_league *k = NULL;
	pthread_mutex_lock(&g_mu);
	for (int i = 0; i < KEPT_SLOTS; i++)
		if (g_slots[i] && strcmp(g_slots[i]->league, league) == 0) {
			k = g_slots[i];
			g_slots[i] = NULL;
			break;
		}
	pthread_mutex_unlock(&g_mu);
	if (k && (k->version != version || k->epoch != epoch)) { /* stale: read again */
		kept_free(k);
		k = NULL;
	}
	return k;
}

/* Keeps k in the table: in its league's slot, else a free one, else the oldest one's. */
static void kept_put(kept_league *k)
{
	kept_league *out = NULL;
	pthread_mutex_lock(&g_mu);
	k->stamp = ++g_stamp;
	int slot = -1;
	for (int i = 0; i < KEPT_SLOTS && slot < 0; i++)
		if (g_slots[i] && strcmp(g_slots[i]->league, k->league) == 0)
			slot = i;
	for (int i = 0; i < KEPT_SLOTS && slot < 0; i++)
		if (!g_slots[i])
			slot = i;
	if (slot < 0) {
		slot = 0;
		for (int i = 1; i < KEPT_SLOTS; i++)
			if (g_slots[i]->stamp < g_slots[slot]->stamp)
				slot = i;
	}
	out = g_slots[slot];
	if (out && strcmp(out->league, k->league) == 0 && out->version > k->version) {
		out = k; /* a newer version is kept already */
	} else {
		g_slots[slot] = k;
	}
	pthread_mutex_unlock(&g_mu);
	kept_free(out);
}

void kept_pending_set(kept_league *k, long long version)
{
	if (!t_in_tx) { /* another runner's transaction (a table game's end): nothing kept */
		kept_free(k);
		return;
	}
	kept_free(t_pending);
	k->version = version;
	k->epoch = db_server_epoch();
	t_pending = k;
}

void kept_pending_begin(void)
{
	kept_free(t_pending);
	t_pending = NULL;
	t_in_tx = true;
}

void kept_pending_end(bool committed)
{
	if (t_pending && committed)
		kept_put(t_pending);
	else
		kept_free(t_pending);
	t_pending = NULL;
	t_in_tx = false;
}
