/* League helpers without a database (src/api/leagues.c): dates a play may carry, and the ranks
 * derived from scores or winner flags (api.md "Leagues": rank 1 is best, equal ranks tie,
 * ranks come from the scores when omitted). */
#include "base/oom.h"
#include "accounts/passes.h"
#include "leagues/access.h"
#include "leagues/cache.h"
#include "leagues/dates.h"
#include "leagues/rows.h"
#include "leagues/store.h"
#include "test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

static void dates(void)
{
	char out[64];
	CHECK(dates_parse_when("2026-02-28", out));
	CHECK_STR(out, "2026-02-28T00:00:00Z");
	CHECK(dates_parse_when("2024-02-29", out)); /* a leap year */
	CHECK(!dates_parse_when("2026-02-29", out));
	CHECK(!dates_parse_when("2100-02-29", out)); /* not a leap year */
	CHECK(dates_parse_when("2000-02-29", out));  /* a leap year */
	CHECK(!dates_parse_when("2026-04-31", out));
	CHECK(!dates_parse_when("2026-13-01", out));
	CHECK(!dates_parse_when("26-01-01", out));
	CHECK(dates_parse_when("2026-04-01T21:30:00+02:00", out));
	CHECK_STR(out, "2026-04-01T21:30:00+02:00");
	CHECK(dates_parse_when("2026-04-01T21:30:00.250Z", out));
	CHECK(dates_parse_when("2020-01-01 20:00:00", out)); /* BG Stats: a local wall time */
	CHECK_STR(out, "2020-01-01T20:00:00Z");
	CHECK(dates_parse_when("2020-01-01 20:00", out));
	CHECK(!dates_parse_when("2020-01-01 23:59:60", out)); /* no leap second */
	CHECK(!dates_parse_when("2026-04-01T24:00:00Z", out));
	CHECK(!dates_parse_when("2026-04-01T21:30:00+02", out));
	CHECK(!dates_parse_when("2026-04-01T21:30:00Zjunk", out));
	CHECK(!dates_parse_when("2026-04-01; DROP TABLE plays", out));
}

/* api.md Conventions: timestamps are RFC 3339 (section 5.6), a play keeps its offset. */
static void rfc3339_strict(void)
{
	char out[64];
	int off = 99;
	CHECK(dates_parse_rfc3339("2026-12-31T23:30:00-05:00", out, &off));
	CHECK_STR(out, "2026-12-31T23:30:00-05:00");
	CHECK_EQ_INT(off, -300);
	CHECK(dates_parse_rfc3339("2026-12-31t23:30:00.5z", out, &off)); /* 5.6 NOTE: t, z */
	CHECK_STR(out, "2026-12-31T23:30:00.5Z");
	CHECK_EQ_INT(off, 0);
	CHECK(dates_parse_rfc3339("2026-06-01T08:00:00+05:45", out, &off));
	CHECK_EQ_INT(off, 345);
	CHECK(dates_parse_rfc3339("2026-06-01T08:00:00-00:00", out, &off)); /* offset unknown */
	CHECK_EQ_INT(off, 0);
	CHECK(dates_parse_rfc3339("2026-06-01", out, &off)); /* a local date */
	CHECK_STR(out, "2026-06-01T00:00:00Z");
	CHECK(!dates_parse_rfc3339("2026-06-01T08:00Z", out, &off));         /* seconds */
	CHECK(!dates_parse_rfc3339("2026-06-30T23:59:60Z", out, &off));      /* leap second */
	CHECK(!dates_parse_rfc3339("2026-06-01 08:00:00Z", out, &off));      /* space */
	CHECK(!dates_parse_rfc3339("2026-06-01T08:00:00", out, &off));       /* no offset */
	CHECK(!dates_parse_rfc3339("2026-06-01T08:00:00+0200", out, &off));  /* no colon */
	CHECK(!dates_parse_rfc3339("2026-06-01T08:00:00+24:00", out, &off)); /* hours */
	CHECK(!dates_parse_rfc3339("2026-06-01T08:00:00.Z", out, &off));     /* empty fraction */
	CHECK(!dates_parse_rfc3339("2026-02-29T08:00:00Z", out, &off));      /* not a date */
}

/* A local time nobody gave an offset (BG Stats' playDate, a BGG date, such a play's date sent
 * back by the API) stays one: dates_is_local tells it, dates_parse_play takes it as local. */
static void local_times(void)
{
	char out[64];
	int off = 99;
	bool local = false;
	CHECK(dates_is_local("2024-12-07 22:08:41"));
	CHECK(dates_is_local("2016-12-03"));
	CHECK(!dates_is_local("2024-12-07T22:08:41Z"));
	CHECK(!dates_is_local("2024-12-07T22:08:41-05:00"));
	CHECK(!dates_is_local("2024-12-07 22:08+01:00"));
	CHECK(dates_parse_play("2024-12-07T22:08:41", out, &off, &local));
	CHECK_STR(out, "2024-12-07T22:08:41Z");
	CHECK_EQ_INT(off, 0);
	CHECK(local);
	CHECK(dates_parse_play("2024-12-07T22:08:41.5", out, &off, &local) && local);
	CHECK(dates_parse_play("2024-12-07T22:08:41-05:00", out, &off, &local) && !local);
	CHECK_EQ_INT(off, -300);
	CHECK(dates_parse_play("2024-12-07", out, &off, &local) && !local); /* as ever */
	CHECK(!dates_parse_play("2024-12-07T22:08", out, &off, &local));    /* seconds */
	CHECK(!dates_parse_play("2024-12-07 22:08:41", out, &off, &local)); /* space */
	CHECK(!dates_parse_play("2024-12-07T22:08:41junk", out, &off, &local));
	CHECK(!dates_parse_play("2024-02-30T22:08:41", out, &off, &local));
}

/* PostgreSQL's timestamptz takes offsets up to ±15:59 and refuses more (SQLSTATE 22009): both
 * parsers stop there, on both sides. */
static void offsets_postgres_takes(void)
{
	char out[64];
	int off = 0;
	CHECK(dates_parse_rfc3339("2026-06-01T08:00:00+15:59", out, &off));
	CHECK_EQ_INT(off, 959);
	CHECK(dates_parse_rfc3339("2026-06-01T08:00:00-15:59", out, &off));
	CHECK_EQ_INT(off, -959);
	CHECK(dates_parse_rfc3339("2026-06-01T08:00:00+14:00", out, &off)); /* Kiribati */
	CHECK(!dates_parse_rfc3339("2026-06-01T08:00:00+16:00", out, &off));
	CHECK(!dates_parse_rfc3339("2026-06-01T08:00:00-16:00", out, &off));
	CHECK(!dates_parse_rfc3339("2026-06-01T08:00:00+24:59", out, &off));
	CHECK(!dates_parse_rfc3339("2026-06-01T08:00:00+15:60", out, &off));
	CHECK(dates_parse_when("2026-06-01 08:00:00+15:59", out));
	CHECK(dates_parse_when("2026-06-01T08:00-15:59", out));
	CHECK(!dates_parse_when("2026-06-01 08:00:00+16:00", out));
	CHECK(!dates_parse_when("2026-06-01T08:00:00-16:00", out));
	CHECK(!dates_parse_when("2026-06-01T08:00:00+24:59", out));
	CHECK(!dates_parse_when("2026-06-01T08:00:00+15:60", out));
}

static void ranks_from_scores(void)
{
	league_result r[4] = {{.score = 30, .has_score = true},
	                      {.score = 20, .has_score = true},
	                      {.score = 20, .has_score = true},
	                      {.score = 10, .has_score = true}};
	league_play p = {.results = r, .nresults = 4};
	const char *why = NULL;
	CHECK(store_play_rank(&p, &why));
	CHECK_EQ_INT(r[0].rank, 1);
	CHECK_EQ_INT(r[1].rank, 2);
	CHECK_EQ_INT(r[2].rank, 2);
	CHECK_EQ_INT(r[3].rank, 4);
	CHECK(r[0].winner && !r[1].winner && !r[3].winner);
}

static void ranks_from_winners_and_refusals(void)
{
	league_result r[2] = {{.has_winner = true, .winner = false},
	                      {.has_winner = true, .winner = true}};
	league_play p = {.results = r, .nresults = 2};
	const char *why = NULL;
	CHECK(store_play_rank(&p, &why));
	CHECK_EQ_INT(r[0].rank, 2);
	CHECK_EQ_INT(r[1].rank, 1);
	/* some ranks given, others not: refused */
	league_result m[2] = {{.has_rank = true, .rank = 1}, {.has_score = true, .score = 3}};
	league_play q = {.results = m, .nresults = 2};
	CHECK(!store_play_rank(&q, &why) && why != NULL);
	/* nothing to rank by */
	league_result n[2] = {{.has_score = true, .score = 3}, {.score = 0}};
	league_play z = {.results = n, .nresults = 2};
	CHECK(!store_play_rank(&z, &why));
	/* cooperative: everybody rank 1, one outcome for the team */
	league_result c[3] = {
	    {.has_winner = true, .winner = true}, {.score = 0}, {.score = 5, .has_score = true}};
	league_play co = {.results = c, .nresults = 3, .cooperative = true};
	CHECK(store_play_rank(&co, &why));
	CHECK(c[0].rank == 1 && c[1].rank == 1 && c[2].rank == 1);
	CHECK(c[0].winner && c[1].winner && c[2].winner);
	/* cooperative with each player's flag (Mysterium: two of three win): the flags stand */
	league_result my[3] = {{.has_winner = true, .winner = true},
	                       {.has_winner = true, .winner = true},
	                       {.has_winner = true, .winner = false}};
	league_play mys = {.results = my, .nresults = 3, .cooperative = true};
	CHECK(store_play_rank(&mys, &why));
	CHECK(my[0].winner && my[1].winner && !my[2].winner);
	CHECK(my[0].rank == 1 && my[1].rank == 1 && my[2].rank == 2);
}

/* ---- the league cache: one computation per (key, version) ---- */

typedef struct {
	const char *key;
	long long version;
	atomic_bool returned, hit;
} waiter;

static void *wait_for_reply(void *arg)
{
	waiter *w = arg;
	http_resp r = {0};
	http_thread_may_wait(true); /* a waiting thread's */
	bool hit = cache_get(NULL, w->key, w->version, &r);
	atomic_store(&w->hit, hit);
	atomic_store(&w->returned, true);
	if (hit) { /* the kept reply itself, shared */
		CHECK(r.blob != NULL && r.body == NULL);
		if (r.blob)
			CHECK(http_blob_len(r.blob) == 7 &&
			      memcmp(http_blob_data(r.blob), "{\"n\":1}", 7) == 0);
	} else
		cache_done(w->key, w->version);
	http_resp_clear(&r);
	return NULL;
}

/* A second request for a reply being computed waits for it, then answers from the cache;
 * when the computation fails (done without a reply), the waiter computes it itself. */
static void cache_single_flight(void)
{
	http_resp r = {0};
	CHECK(!cache_get(NULL, "test\nflight", 7, &r)); /* this thread computes (7) */
	waiter w = {.key = "test\nflight", .version = 7};
	pthread_t t;
	CHECK(pthread_create(&t, NULL, wait_for_reply, &w) == 0);
	for (int i = 0; i < 20; i++) /* it must still be waiting, however long we take */
		usleep(5000);
	CHECK(!atomic_load(&w.returned));
	json_object *o = json_object_new_object();
	json_object_object_add(o, "n", json_object_new_int(1));
	cache_put("test\nflight", 7, &r, o, NULL);
	pthread_join(t, NULL);
	CHECK(atomic_load(&w.returned) && atomic_load(&w.hit));
	http_resp_clear(&r);

	http_resp r2 = {0};
	CHECK(!cache_get(NULL, "test\nflight", 8, &r2)); /* a new version: computed again */
	waiter w2 = {.key = "test\nflight", .version = 8};
	CHECK(pthread_create(&t, NULL, wait_for_reply, &w2) == 0);
	for (int i = 0; i < 20; i++)
		usleep(5000);
	CHECK(!atomic_load(&w2.returned));
	cache_done("test\nflight", 8); /* failed: the waiter is woken to compute it */
	pthread_join(t, NULL);
	CHECK(atomic_load(&w2.returned) && !atomic_load(&w2.hit));
	http_resp_clear(&r2);

	/* a thread that may not wait (a libmicrohttpd thread's) defers instead, at once */
	http_resp r3 = {0}, r4 = {0};
	CHECK(!http_may_wait());
	CHECK(!cache_get(NULL, "test\nflight", 9, &r3)); /* this thread computes (9) */
	CHECK(cache_get(NULL, "test\nflight", 9, &r4) && r4.defer && r4.status == 0);
	CHECK(r4.body == NULL && r4.blob == NULL);
	cache_done("test\nflight", 9);
	http_resp_clear(&r3);
	http_resp_clear(&r4);
	cache_shutdown();
}

/* Keys too long for the cache are hashed whole, never cut: two that differ only at the end get
 * different entries and ETags; short keys stay as they are. */
static void cache_long_keys(void)
{
	char a[LCACHE_KEY], b[LCACHE_KEY], c[LCACHE_KEY];
	char *game = xmalloc(LCACHE_KEY + 100);
	memset(game, 'g', LCACHE_KEY + 99);
	game[LCACHE_KEY + 99] = '\0';
	cache_key(a, "standings\n%s\n%s\n%s1", "L", "", game);
	cache_key(b, "standings\n%s\n%s\n%s2", "L", "", game);
	cache_key(c, "standings\n%s\n%s\n%s1", "L", "", game);
	free(game);
	CHECK(a[0] == '#' && strlen(a) == 65 && strcmp(a, b) != 0 && strcmp(a, c) == 0);
	char ea[LEAGUE_ETAG_LEN], eb[LEAGUE_ETAG_LEN];
	access_etag(ea, 3, a);
	access_etag(eb, 3, b);
	CHECK(strcmp(ea, eb) != 0);
	cache_key(a, "standings\n%s\n%s\n%s", "L", "s", "g");
	CHECK(strcmp(a, "standings\nL\ns\ng") == 0);
	/* and the cache keeps them apart */
	http_resp r = {0};
	cache_key(a, "standings\n%0*d1", LCACHE_KEY, 0);
	cache_key(b, "standings\n%0*d2", LCACHE_KEY, 0);
	CHECK(!cache_get(NULL, a, 1, &r));
	json_object *o = json_object_new_object();
	json_object_object_add(o, "n", json_object_new_int(1));
	cache_put(a, 1, &r, o, NULL);
	http_resp_clear(&r);
	CHECK(!cache_get(NULL, b, 1, &r)); /* a miss: b is not a's entry */
	cache_done(b, 1);
	http_resp_clear(&r);
	CHECK(cache_get(NULL, a, 1, &r) && r.blob != NULL);
	http_resp_clear(&r);
	cache_shutdown();
}

static account pass_account(const char *session, const char *member, int64_t version)
{
	account a;
	memset(&a, 0, sizeof a);
	snprintf(a.id, sizeof a.id, "acc1");
	snprintf(a.session, sizeof a.session, "%s", session);
	a.pre.found = true;
	snprintf(a.pre.member, sizeof a.pre.member, "%s", member);
	a.pre.version = version;
	return a;
}

/* A league read's session check is kept per session and league, and any write request drops
 * it, even one that began while the check was being made (its pass would be older than the
 * write). */
static void passes(void)
{
	account a = pass_account("s1", "m1", 7), got;
	passes_mark m;
	passes_begin(&m);
	passes_put(&m, "L1", &a);
	CHECK(passes_get("s1", "L1", &got));
	CHECK_STR(got.pre.member, "m1");
	CHECK(got.pre.version == 7 && got.pre_conn == NULL);
	CHECK(!passes_get("s2", "L1", &got)); /* another session */
	CHECK(!passes_get("s1", "L2", &got)); /* another league */
	passes_forget_all();                  /* a write request */
	CHECK(!passes_get("s1", "L1", &got));
	/* a check begun before a write is not kept past it */
	passes_begin(&m);
	passes_forget_all();
	passes_put(&m, "L1", &a);
	CHECK(!passes_get("s1", "L1", &got));
	/* nor is a session that was never checked */
	account none = pass_account("", "m1", 7);
	passes_begin(&m);
	passes_put(&m, "L1", &none);
	CHECK(!passes_get("", "L1", &got));
	/* and it ages out */
	passes_begin(&m);
	m.at.tv_sec -= 2;
	passes_put(&m, "L1", &a);
	CHECK(!passes_get("s1", "L1", &got));
}

/* A player's league is kept for good; the name only for the league version it was read at. */
static void member_leagues(void)
{
	db_member_league ml = {.found = true}, got;
	snprintf(ml.league, sizeof ml.league, "L1");
	snprintf(ml.name, sizeof ml.name, "Ana");
	passes_member_put("m1", 4, db_server_epoch(), &ml);
	CHECK(passes_member_get("m1", 4, &got));
	CHECK_STR(got.name, "Ana");
	CHECK(passes_member_get("m1", -1, &got));
	CHECK_STR(got.league, "L1");
	CHECK(!passes_member_get("m1", 5, &got)); /* a newer version: read again */
	CHECK(!passes_member_get("m2", -1, &got));
	db_member_league gone = {.found = false};
	passes_member_put("m3", 4, db_server_epoch(), &gone); /* no such member: nothing kept */
	CHECK(!passes_member_get("m3", -1, &got));
}

/* A league of plays (nplays, members ids m0..m4) as rows in play order, ranks from a fixed
 * sequence, every seventh play cooperative; rows (caller frees) of s. */
enum { RF_PLAYS = 60, RF_MEMBERS = 5 };
static const char *rf_ids[RF_MEMBERS] = {"m0", "m1", "m2", "m3", "m4"};
static void rf_league(league_rows *s)
{
	unsigned x = 12345;
	memset(s, 0, sizeof *s);
	s->rows = xcalloc(RF_PLAYS * 4, sizeof *s->rows);
	s->nmembers = RF_MEMBERS;
	for (int p = 0; p < RF_PLAYS; p++) {
		int np = 2 + p % 3;
		for (int k = 0; k < np; k++) {
			x = x * 1103515245u + 12345u;
			league_row *r = &s->rows[s->nrows++];
			r->m = (p + k) % RF_MEMBERS;
			r->member = rf_ids[r->m];
			r->seq = p + 1;
			r->rank = 1 + (int)((x >> 16) % (unsigned)np);
			r->coop = p % 7 == 6;
		}
	}
}

static int rf_first_row(const league_rows *s, int64_t seq)
{
	for (int i = 0; i < s->nrows; i++)
		if (s->rows[i].seq == seq)
			return i;
	return -1;
}

static bool same_rating(rating a, rating b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* An edit of one play rates the league from that play on (rows_rate_from): what it
 * gives is bit for bit what rating every play again gives, and the plays before it are not
 * rated again (a change made to one of them, unseen, changes nothing). */
static void rate_from_a_play(void)
{
	league_rows a, b;
	rf_league(&a);
	rf_league(&b);
	rating ca[RF_MEMBERS], cb[RF_MEMBERS];
	rows_rate(&a, ca); /* what was kept */
	/* play 40's order of finish turned round, in both */
	int from = rf_first_row(&a, 40), to = rf_first_row(&a, 41);
	CHECK(from > 0 && to > from + 1);
	for (int i = from; i < to; i++) {
		a.rows[i].rank = to - i;
		b.rows[i].rank = to - i;
	}
	rows_rate(&b, cb); /* every play again */
	/* a play before it changed behind the kept ratings' back */
	int early = rf_first_row(&a, 10);
	a.rows[early].rank = a.rows[early].rank == 1 ? 2 : 1;
	rows_rate_from(&a, from, ca);
	bool same = true;
	for (int i = 0; i < a.nrows; i++)
		same = same && same_rating(a.rows[i].line, b.rows[i].line) &&
		       (i < from || same_rating(a.rows[i].after, b.rows[i].after)) &&
		       a.rows[i].rated == b.rows[i].rated;
	for (int m = 0; m < RF_MEMBERS; m++)
		same = same && same_rating(ca[m], cb[m]);
	CHECK(same);
	/* the change behind its back does matter when every play is rated again */
	rows_rate(&a, ca);
	bool differs = false;
	for (int m = 0; m < RF_MEMBERS; m++)
		differs = differs || !same_rating(ca[m], cb[m]);
	CHECK(differs);
	free(a.rows);
	free(b.rows);
}

int main(void)
{
	TEST("leagues: play dates (calendar, RFC 3339, BG Stats)", dates);
	TEST("leagues: strict RFC 3339 with the offset kept (api.md Conventions)", rfc3339_strict);
	TEST("leagues: local times without an offset stay local", local_times);
	TEST("leagues: offsets up to ±15:59, as PostgreSQL takes them (api.md Conventions)",
	     offsets_postgres_takes);
	TEST("leagues: ranks from scores tie 1,2,2,4 (api.md)", ranks_from_scores);
	TEST("leagues: ranks from winner flags; refusals; cooperative flags stand",
	     ranks_from_winners_and_refusals);
	TEST("leagues: a reply being computed is waited for, not computed again",
	     cache_single_flight);
	TEST("leagues: cache keys too long are hashed whole, never cut", cache_long_keys);
	TEST("leagues: session checks kept until a write request or a second", passes);
	TEST("leagues: a player's league kept, the name per version", member_leagues);
	TEST("leagues: an edit rates from its play on, as rating every play would",
	     rate_from_a_play);
	TEST_MAIN_END();
}
