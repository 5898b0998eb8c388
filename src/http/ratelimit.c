/* Token buckets keyed by the client's IP address. */
#include "http/ratelimit.h"
#include "base/oom.h"

#include <arpa/inet.h>
#include <math.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RL_SLOTS = 1024, RL_KEY = 48 };

typedef struct {
	char key[RL_KEY]; /* textual address; "" = free */
	double tokens;
	double last; /* monotonic seconds of the last update */
} bucket;

struct ratelimit {
	pthread_mutex_t lock;
	double burst, rate;
	bucket slots[RL_SLOTS];
};

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
	return rl;
}

void ratelimit_free(ratelimit *rl)
{
	if (rl == NULL)
		return;
	pthread_mutex_destroy(&rl->lock);
	free(rl);
}

/* The client's address as text ("" when unknown: such requests share one bucket); behind a
 * trusted reverse proxy, the address it forwarded (http_client_addr). */
static void client_key(const http_req *req, char key[RL_KEY])
{
	http_client_addr(req, key, RL_KEY);
}

/* The bucket of key, or a recycled one (the least recently updated). Called locked. */
static bucket *find(ratelimit *rl, const char *key, double now)
{
	bucket *oldest = &rl->slots[0];
	for (int i = 0; i < RL_SLOTS; i++) {
		bucket *b = &rl->slots[i];
		if (b->key[0] && strcmp(b->key, key) == 0)
			return b;
		if (b->key[0] == '\0' || b->last < oldest->last)
			oldest = b;
		if (b->key[0] == '\0')
			break;
	}
	snprintf(oldest->key, RL_KEY, "%s", key[0] ? key : "?");
	oldest->tokens = rl->burst;
	oldest->last = now;
	return oldest;
}

bool ratelimit_take(ratelimit *rl, const http_req *req, int *retry_after_s)
{
	char key[RL_KEY];
	client_key(req, key);
	return ratelimit_take_key(rl, key, retry_after_s);
}

bool ratelimit_take_key(ratelimit *rl, const char *key, int *retry_after_s)
{
	double now = now_s();
	pthread_mutex_lock(&rl->lock);
	bucket *b = find(rl, key[0] ? key : "?", now);
	b->tokens = fmin(rl->burst, b->tokens + (now - b->last) * rl->rate);
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

bool ratelimit_reply_key(ratelimit *rl, const char *key, const char *detail, http_resp *resp)
{
	int retry = 0;
	if (ratelimit_take_key(rl, key, &retry))
		return false;
	return reply_429(resp, retry, detail);
}
