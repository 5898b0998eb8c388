/* Per-client rate limiting (api.md: 429): a token bucket per client address group or per key,
 * in a table of RATELIMIT_CAP buckets. A bucket that has refilled to its burst is the same as
 * none and is dropped when room is needed; a bucket still below its burst (a client being
 * limited) is dropped only when every bucket of the table is, the fullest first. Thread-safe.
 *
 * Address groups: an IPv4 address is its own group; an IPv6 address counts as its network of
 * IPV6_PREFIX bits (default 64: one customer's /64 holds 2^64 addresses, one per request if it
 * likes), so per-address limits and connection caps hold for a whole /64. */
#ifndef RATELIMIT_H
#define RATELIMIT_H

#include <stdbool.h>
#include <stddef.h>

#include "http/http.h"

enum {
	RATELIMIT_CAP = 16384, /* buckets per table */
	RATELIMIT_GROUP = 48,  /* an address group as text, "2001:db8:1:2::/64" */
	IPV6_PREFIX_DEFAULT = 64,
	IPV6_PREFIX_MIN = 32,
};

typedef struct ratelimit ratelimit;
struct in6_addr; /* <netinet/in.h> */

/* burst: tokens a new client starts with; per_second: refill rate. NULL when out of mutexes. */
ratelimit *ratelimit_new(double burst, double per_second);
void ratelimit_free(ratelimit *rl);

/* Takes one token for the request's client address group. false: none left, and
 * *retry_after_s says when the next one comes (whole seconds, ≥ 1). */
bool ratelimit_take(ratelimit *rl, const http_req *req, int *retry_after_s);

/* Replies 429 problem+json with Retry-After when the client is over its limit; returns true
 * when it replied (the handler then stops). */
bool ratelimit_reply(ratelimit *rl, const http_req *req, http_resp *resp);

/* The same bucket keyed by any string (at most RATELIMIT_GROUP - 1 bytes are kept). */
bool ratelimit_take_key(ratelimit *rl, const char *key, int *retry_after_s);

/* The prefix length IPv6 clients are grouped by: IPV6_PREFIX from the environment (32–128),
 * read once; a value outside that range is logged and the default used. */
unsigned ratelimit_ipv6_prefix(void);

/* The group of a numeric address as text into out (len ≥ RATELIMIT_GROUP): IPv4 (and IPv4-mapped
 * IPv6) as the address, IPv6 as "network/prefix" with bits beyond prefix cleared; prefix 128
 * leaves the address alone. A text that is no address is copied as it is (cut to fit). */
void ratelimit_group_of(const char *addr, unsigned prefix, char *out, size_t len);

/* The request's client (http_client_addr: behind a trusted proxy the forwarded client) as its
 * group, with ratelimit_ipv6_prefix(). "" when unknown. */
void ratelimit_client_group(const http_req *req, char *out, size_t len);

/* Are a and b (IPv4 as IPv4-mapped) in one group (per-address connection caps)? */
bool ratelimit_same_group(const struct in6_addr *a, const struct in6_addr *b);

#endif
