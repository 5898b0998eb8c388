/* League replies kept per (what was asked, the league's version) in this process (cache.c):
 * standings, head-to-head, histories and pictures. */
#ifndef LEAGUES_CACHE_H
#define LEAGUES_CACHE_H

#include "db/db.h"
#include "http/http.h"

#include <json-c/json.h>
#include <stdbool.h>

enum { LCACHE_KEY = 400 };

/* The cache key (and ETag key) of what was asked, printf-style, into out: the text itself when
 * it fits, else "#" and the BLAKE2b-256 of all of it in hex; never cut, so two requests
 * differing anywhere never share a kept reply or an ETag. */
void cache_key(char out[LCACHE_KEY], const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Answers resp from the cache when it holds key at version (its Link header too), gzip-
 * compressed when req's Accept-Encoding takes it and the reply is long enough. A miss
 * makes the caller the one computing (key, version): other requests for it wait (at most
 * 10 s) instead of computing it too, until the caller ends with cache_put, or with
 * cache_done when it could not compute it. On a thread that may not wait
 * (http_may_wait: a libmicrohttpd thread) such a request is deferred instead (http_defer):
 * true with resp marked, and the caller returns; it runs again on a waiting thread. */
bool cache_get(const http_req *req, const char *key, long long version, http_resp *resp);

void cache_done(const char *key, long long version);

/* Replies o (taking it) with its Link header (NULL: none; borrowed) and keeps both under
 * (key, version). */
int cache_put(const char *key, long long version, http_resp *resp, json_object *o,
              const char *link);

/* A reply built on a miss of the cache (NULL with *st: a database failure). */
typedef json_object *(*cache_build_fn)(db_conn *c, const http_req *req, const char *season,
                                       const char *game, db_status *st);

/* The reply of key at the league's version with its ETag (a 304 when the client has it), from
 * the cache, else built by build(c, req, season, game) and kept. Returns 0. */
int cache_reply(const http_req *req, http_resp *resp, db_conn *c, long long version,
                const char *key, cache_build_fn build, const char *season, const char *game);

/* Frees the standings/history cache (at shutdown). */
void cache_shutdown(void);

#endif
