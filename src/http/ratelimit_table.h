/* The rate limiter's table (ratelimit.h says what it keeps and drops): its layout, shared by
 * ratelimit.c and its unit test, which reads how many buckets are held. */
#ifndef RATELIMIT_TABLE_H
#define RATELIMIT_TABLE_H

#include "http/ratelimit.h"

#include <pthread.h>
#include <stddef.h>

enum { RL_HASH = 2 * RATELIMIT_CAP, RL_NONE = -1 };

typedef struct {
	char key[RATELIMIT_GROUP]; /* the group or key */
	double tokens;
	double last; /* monotonic seconds of the last update */
	int next;    /* next bucket of the chain, or of the free list; RL_NONE ends it */
} bucket;

/* Owns its buckets; the lock guards everything below it. */
struct ratelimit {
	pthread_mutex_t lock;
	double burst, rate;
	int heads[RL_HASH]; /* chains by hash of key */
	int free_list;
	size_t used; /* buckets held */
	bucket slots[RATELIMIT_CAP];
};

#endif
