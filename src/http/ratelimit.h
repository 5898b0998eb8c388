/* Per-client rate limiting (api.md: 429): a token bucket per client address in a small
 * fixed-size table (least recently seen addresses are forgotten first). Thread-safe. */
#ifndef RATELIMIT_H
#define RATELIMIT_H

#include <stdbool.h>

#include "http/http.h"

typedef struct ratelimit ratelimit;

/* burst: tokens a new client starts with; per_second: refill rate. */
ratelimit *ratelimit_new(double burst, double per_second);
void ratelimit_free(ratelimit *rl);

/* Takes one token for the request's client. false: none left, and *retry_after_s says when
 * the next one comes (whole seconds, ≥ 1). */
bool ratelimit_take(ratelimit *rl, const http_req *req, int *retry_after_s);

/* Replies 429 problem+json with Retry-After when the client is over its limit; returns true
 * when it replied (the handler then stops). */
bool ratelimit_reply(ratelimit *rl, const http_req *req, http_resp *resp);

/* Leagues: the same bucket keyed by any string (an account's e-mail, say) instead
 * of the client address. */
bool ratelimit_take_key(ratelimit *rl, const char *key, int *retry_after_s);
/* The same as ratelimit_reply for a key, with the reply's detail. */
bool ratelimit_reply_key(ratelimit *rl, const char *key, const char *detail, http_resp *resp);

#endif
