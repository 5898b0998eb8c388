/* League replies kept per (what was asked, the league's version) in this process (cache.h):
 * standings, head-to-head, histories and the pictures. */
#include "json/jx.h"
#include "leagues/cache.h"
#include "leagues/access.h"
#include <pthread.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the standings/history cache ----
 * Standings and histories change only when the league's plays do, and every such change bumps
 * leagues.version in the same transaction. So a reply computed at version v is valid for any
 * request that finds the league at v (on any server): the per-process cache is keyed by
 * (what was asked, version) and needs no invalidation. The version comes with the access
 * check, which passes.c keeps for a second: a hit usually asks the database nothing, and its
 * bytes are the kept ones (an http_blob reference), not a copy. */
enum {
	LCACHE_SLOTS = 64,
	LCACHE_GZIP_MIN = 1024, /* shorter replies are sent as they are */
};

typedef struct {
	char key[LCACHE_KEY];
	long long version;
	http_blob *text; /* a reference */
	http_blob *gz;   /* a reference: text gzip-compressed, or NULL (short, or it failed) */
	char *link;      /* owned: the reply's Link header, or NULL */
	unsigned long long used;
} lcache_slot;

static lcache_slot g_lcache[LCACHE_SLOTS];

static pthread_mutex_t g_lcache_mu = PTHREAD_MUTEX_INITIALIZER;

static unsigned long long g_lcache_tick;

/* Replies computed right now, one per (key, version): a request that misses while another
 * computes the same reply waits for it instead of computing it again, so a burst of phones
 * opening a league just after a change costs one computation, not one each. */
enum { FLIGHT_SLOTS = 16, FLIGHT_WAIT_S = 10 };

typedef struct {
	char key[LCACHE_KEY];
	long long version;
	bool busy;
} flight;

static flight g_flight[FLIGHT_SLOTS];

static pthread_cond_t g_flight_cv = PTHREAD_COND_INITIALIZER;

/* The flight computing (key, version), or NULL (under g_lcache_mu). */
static flight *flight_find(const char *key, long long version)
{
	for (int i = 0; i < FLIGHT_SLOTS; i++)
		if (g_flight[i].busy && g_flight[i].version == version &&
		    strcmp(g_flight[i].key, key) == 0)
			return &g_flight[i];
	return NULL;
}

/* Puts the kept reply of (key, version) in resp when there is one (under g_lcache_mu): its
 * body shared, gzip-compressed when gz (the client takes it) and kept so, *gzipped then true;
 * *link receives a copy of its Link header (caller frees). */
static bool cache_copy(const char *key, long long version, bool gz, http_resp *resp, char **link,
                       bool *gzipped)
{
	for (int i = 0; i < LCACHE_SLOTS; i++) {
		lcache_slot *e = &g_lcache[i];
		if (e->text && e->version == version && strcmp(e->key, key) == 0) {
			*gzipped = gz && e->gz;
			http_reply_blob(resp, *gzipped ? e->gz : e->text, "application/json");
			*link = e->link ? xstrdup(e->link) : NULL;
			e->used = ++g_lcache_tick;
			return true;
		}
	}
	return false;
}

void cache_key(char out[LCACHE_KEY], const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out, LCACHE_KEY, fmt, ap);
	va_end(ap);
	if (n >= 0 && n < LCACHE_KEY)
		return;
	/* too long to keep whole: the hash of all of it, which no written key starts like */
	size_t len = n > 0 ? (size_t)n + 1 : 1;
	char *full = xmalloc(len);
	va_start(ap, fmt);
	vsnprintf(full, len, fmt, ap);
	va_end(ap);
	unsigned char h[crypto_generichash_BYTES];
	crypto_generichash(h, sizeof h, (const unsigned char *)full, strlen(full), NULL, 0);
	free(full);
	out[0] = '#';
	sodium_bin2hex(out + 1, LCACHE_KEY - 1, h, sizeof h);
}

/* Answers from the cache when it holds key at version (its Link header too). On a miss the
 * caller computes the reply and must end with cache_put or cache_done; when
 * another request is computing it already, this waits for that one first — or, on a thread
 * that may not wait (http_may_wait), defers the request (true, resp marked: the caller
 * returns) so that it runs again on a waiting thread. */
bool cache_get(const http_req *req, const char *key, long long version, http_resp *resp)
{
	bool hit = false, gz = http_accepts_gzip(http_header(req, "Accept-Encoding")),
	     gzipped = false, defer = false, may_wait = http_may_wait();
	char *link = NULL;
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += FLIGHT_WAIT_S;
	pthread_mutex_lock(&g_lcache_mu);
	while (!(hit = cache_copy(key, version, gz, resp, &link, &gzipped)) &&
	       flight_find(key, version)) {
		if (!may_wait) {
			defer = true;
			break;
		}
		if (pthread_cond_timedwait(&g_flight_cv, &g_lcache_mu, &until) != 0)
			break; /* the other one is slow: compute it here too */
	}
	if (!hit && !defer && flight_find(key, version) == NULL)
		for (int i = 0; i < FLIGHT_SLOTS; i++)
			if (!g_flight[i].busy) { /* no free slot: computed without waiting */
				snprintf(g_flight[i].key, sizeof g_flight[i].key, "%s", key);
				g_flight[i].version = version;
				g_flight[i].busy = true;
				break;
			}
	pthread_mutex_unlock(&g_lcache_mu);
	if (defer)
		return http_defer(resp), true;
	if (gzipped)
		http_resp_header(resp, "Content-Encoding", "gzip");
	if (link)
		http_resp_header(resp, "Link", link);
	free(link);
	return hit;
}

/* Ends the flight of (key, version), waking the requests that wait for it (under
 * g_lcache_mu). */
static void flight_end(const char *key, long long version)
{
	flight *f = flight_find(key, version);
	if (f) {
		f->busy = false;
		pthread_cond_broadcast(&g_flight_cv);
	}
}

void cache_done(const char *key, long long version)
{
	pthread_mutex_lock(&g_lcache_mu);
	flight_end(key, version);
	pthread_mutex_unlock(&g_lcache_mu);
}

/* Replies o (taking it) with its Link header (link: NULL for none; borrowed) and keeps both
 * under (key, version). */
int cache_put(const char *key, long long version, http_resp *resp, json_object *o, const char *link)
{
	const char *text = jx_text(o);
	size_t len = strlen(text), gz_len = 0;
	/* compressed once per version, outside the lock: phones take gzip */
	char *gz = len >= LCACHE_GZIP_MIN ? http_gzip(text, len, &gz_len) : NULL;
	char *copy = xmalloc(len + 1);
	memcpy(copy, text, len + 1);
	pthread_mutex_lock(&g_lcache_mu);
	lcache_slot *victim = &g_lcache[0];
	for (int i = 0; i < LCACHE_SLOTS; i++) {
		lcache_slot *e = &g_lcache[i];
		if (strcmp(e->key, key) == 0 || e->text == NULL) {
			victim = e;
			break;
		}
		if (e->used < victim->used)
			victim = e;
	}
	http_blob_unref(victim->text);
	http_blob_unref(victim->gz);
	free(victim->link);
	snprintf(victim->key, sizeof victim->key, "%s", key);
	victim->version = version;
	victim->text = http_blob_take(copy, len);
	victim->gz = gz ? http_blob_take(gz, gz_len) : NULL;
	victim->link = link ? xstrdup(link) : NULL;
	victim->used = ++g_lcache_tick;
	flight_end(key, version);
	pthread_mutex_unlock(&g_lcache_mu);
	http_reply_json(resp, 200, o);
	if (link)
		http_resp_header(resp, "Link", link);
	return 0;
}

void cache_shutdown(void)
{
	pthread_mutex_lock(&g_lcache_mu);
	for (int i = 0; i < LCACHE_SLOTS; i++) {
		http_blob_unref(g_lcache[i].text);
		http_blob_unref(g_lcache[i].gz);
		free(g_lcache[i].link);
		memset(&g_lcache[i], 0, sizeof g_lcache[i]);
	}
	pthread_mutex_unlock(&g_lcache_mu);
}

/* ---- a reply from the cache ---- */

int cache_reply(const http_req *req, http_resp *resp, db_conn *c, long long version,
                const char *key, cache_build_fn build, const char *season, const char *game)
{
	char etag[LEAGUE_ETAG_LEN];
	access_etag(etag, version, key);
	if (access_not_modified(req, resp, etag))
		return 0;
	if (!cache_get(req, key, version, resp)) {
		db_status st;
		json_object *o = build(c, req, season, game, &st);
		if (o == NULL) {
			cache_done(key, version);
			return acct_reply_db(resp);
		}
		cache_put(key, version, resp, o, NULL);
	}
	access_tag_reply(resp, etag);
	return 0;
}
