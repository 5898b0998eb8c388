/* Token buckets keyed by client address group or any string, in a chained hash table of
 * RATELIMIT_CAP buckets (see ratelimit.h for what is dropped when it is full). */
#include "http/ratelimit.h"
#include "http/ratelimit_table.h"
#include "base/log.h"
#include "base/oom.h"

#include <arpa/inet.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

ratelimit *ratelimit_new(double burst, double per_second)
{
	ratelimit *rl = xcalloc(1, sizeof *rl);
	if (pthread_mutex_init(&rl->lock, NULL) != 0) {
		free(rl);
		return NULL;
	}
	rl->burst = burst;
	rl->rate = per_second;
	for (int i = 0; i < RL_HASH; i++)
		rl->heads[i] = RL_NONE;
	for (int i = 0; i < RATELIMIT_CAP; i++)
		rl->slots[i].next = i + 1 < RATELIMIT_CAP ? i + 1 : RL_NONE;
	rl->free_list = 0;
	(void)ratelimit_ipv6_prefix(); /* read (and judged) at start, not at a first request */
	return rl;
}

void ratelimit_free(ratelimit *rl)
{
	if (rl == NULL)
		return;
	pthread_mutex_destroy(&rl->lock);
	free(rl);
}

static unsigned hash_of(const char *key)
{
	unsigned h = 2166136261u; /* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h % RL_HASH;
}

/* Tokens bucket b would hold at now. */
static double tokens_at(const ratelimit *rl, const bucket *b, double now)
{
	return fmin(rl->burst, b->tokens + (now - b->last) * rl->rate);
}

/* Unlinks every bucket that drop() picks, back to the free list. Called locked. */
static void sweep(ratelimit *rl, bool (*drop)(const ratelimit *, const bucket *, double, double),
                  double now, double arg)
{
	for (int h = 0; h < RL_HASH; h++) {
		for (int *link = &rl->heads[h]; *link != RL_NONE;) {
			bucket *b = &rl->slots[*link];
			if (!drop(rl, b, now, arg)) {
				link = &b->next;
				continue;
			}
			int i = *link;
			*link = b->next;
			b->next = rl->free_list;
			rl->free_list = i;
			rl->used--;
		}
	}
}

static bool refilled(const ratelimit *rl, const bucket *b, double now, double arg)
{
	(void)arg;
	return tokens_at(rl, b, now) >= rl->burst;
}

static bool at_least(const ratelimit *rl, const bucket *b, double now, double arg)
{
	return tokens_at(rl, b, now) >= arg;
}

/* Makes room for one bucket: drops the refilled ones (nothing is lost: a new bucket starts
 * full), else the fullest. Called locked, with the table full. */
static void make_room(ratelimit *rl, double now)
{
	sweep(rl, refilled, now, 0);
	if (rl->free_list != RL_NONE)
		return;
	double most = -INFINITY;
	for (int i = 0; i < RATELIMIT_CAP; i++)
		most = fmax(most, tokens_at(rl, &rl->slots[i], now));
	sweep(rl, at_least, now, most);
}

/* The bucket of key, or a new full one. Called locked. */
static bucket *find(ratelimit *rl, const char *key, double now)
{
	unsigned h = hash_of(key);
	for (int i = rl->heads[h]; i != RL_NONE; i = rl->slots[i].next)
		if (strcmp(rl->slots[i].key, key) == 0)
			return &rl->slots[i];
	if (rl->free_list == RL_NONE)
		make_room(rl, now);
	int i = rl->free_list;
	bucket *b = &rl->slots[i];
	rl->free_list = b->next;
	snprintf(b->key, sizeof b->key, "%s", key);
	b->tokens = rl->burst;
	b->last = now;
	b->next = rl->heads[h];
	rl->heads[h] = i;
	rl->used++;
	return b;
}

bool ratelimit_take(ratelimit *rl, const http_req *req, int *retry_after_s)
{
	char key[RATELIMIT_GROUP];
	ratelimit_client_group(req, key, sizeof key);
	return ratelimit_take_key(rl, key, retry_after_s);
}

bool ratelimit_take_key(ratelimit *rl, const char *key, int *retry_after_s)
{
	char k[RATELIMIT_GROUP];
	snprintf(k, sizeof k, "%s", key[0] ? key : "?"); /* unknown clients share one bucket */
	double now = now_s();
	pthread_mutex_lock(&rl->lock);
	bucket *b = find(rl, k, now);
	b->tokens = tokens_at(rl, b, now);
	b->last = now;
	bool ok = b->tokens >= 1.0;
	if (ok)
		b->tokens -= 1.0;
	else
		*retry_after_s = (int)ceil((1.0 - b->tokens) / rl->rate);
	pthread_mutex_unlock(&rl->lock);
	if (!ok && *retry_after_s < 1)
		*retry_after_s = 1;
	return ok;
}

/* 429 problem+json with Retry-After: retry seconds; returns true (for "return reply_429(…)"). */
static bool reply_429(http_resp *resp, int retry, const char *detail)
{
	char v[16];
	snprintf(v, sizeof v, "%d", retry);
	http_reply_problem(resp, 429, detail, NULL, NULL);
	http_resp_header(resp, "Retry-After", v);
	return true;
}

bool ratelimit_reply(ratelimit *rl, const http_req *req, http_resp *resp)
{
	int retry = 0;
	if (rl == NULL || ratelimit_take(rl, req, &retry))
		return false;
	return reply_429(resp, retry, "too many attempts from this address; try again shortly");
}

/* ---- address groups ---- */

static pthread_once_t g_prefix_once = PTHREAD_ONCE_INIT;
static unsigned g_prefix = IPV6_PREFIX_DEFAULT; /* written once under g_prefix_once */

static void prefix_read(void)
{
	const char *v = getenv("IPV6_PREFIX");
	char *end;
	if (v == NULL || *v == '\0')
		return;
	long n = strtol(v, &end, 10);
	if (*end != '\0' || n < IPV6_PREFIX_MIN || n > 128) {
		log_warn("IPV6_PREFIX=%s is not a prefix length from %d to 128; using %d", v,
		         IPV6_PREFIX_MIN, IPV6_PREFIX_DEFAULT);
		return;
	}
	g_prefix = (unsigned)n;
}

unsigned ratelimit_ipv6_prefix(void)
{
	pthread_once(&g_prefix_once, prefix_read);
	return g_prefix;
}

/* Clears the bits of a beyond prefix. */
static void mask(struct in6_addr *a, unsigned prefix)
{
	for (unsigned i = 0; i < 16; i++) {
		unsigned keep = prefix > 8 * i ? prefix - 8 * i : 0;
		if (keep < 8)
			a->s6_addr[i] &= (unsigned char)(0xff00u >> keep);
	}
}

void ratelimit_group_of(const char *addr, unsigned prefix, char *out, size_t len)
{
	struct in6_addr a;
	char text[INET6_ADDRSTRLEN];
	if (!len)
		return;
	if (inet_pton(AF_INET6, addr, &a) != 1 || IN6_IS_ADDR_V4MAPPED(&a) || prefix >= 128) {
		snprintf(out, len, "%s", addr);
		return;
	}
	mask(&a, prefix);
	if (!inet_ntop(AF_INET6, &a, text, sizeof text))
		snprintf(out, len, "%s", addr);
	else
		snprintf(out, len, "%s/%u", text, prefix);
}

void ratelimit_client_group(const http_req *req, char *out, size_t len)
{
	char addr[INET6_ADDRSTRLEN];
	http_client_addr(req, addr, sizeof addr);
	ratelimit_group_of(addr, ratelimit_ipv6_prefix(), out, len);
}

bool ratelimit_same_group(const struct in6_addr *a, const struct in6_addr *b)
{
	if (IN6_IS_ADDR_V4MAPPED(a) || IN6_IS_ADDR_V4MAPPED(b))
		return memcmp(a, b, sizeof *a) == 0;
	struct in6_addr x = *a, y = *b;
	unsigned prefix = ratelimit_ipv6_prefix();
	mask(&x, prefix);
	mask(&y, prefix);
	return memcmp(&x, &y, sizeof x) == 0;
}
