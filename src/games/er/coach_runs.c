/* The coach's searches in flight (coach_runs.h): a fixed table of COACH_RUNS_MAX slots under
 * one mutex. A slot is free, queued (it owns its game), running (the taker owns the game) or
 * failed (its failure waits for the next ask, or COACH_RUNS_FAILED_S). Queued slots are taken
 * in the order they were queued (seq). */
#include "games/er/coach_runs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef enum { SLOT_FREE = 0, SLOT_QUEUED, SLOT_RUNNING, SLOT_FAILED } slot_state;

typedef struct {
	slot_state state;
	coach_run_key key;
	unsigned long seq;   /* queued: the order of the asks */
	er_coach_game *game; /* queued: owned */
	coach_run_failure fail;
	time_t failed_at; /* failed: CLOCK_MONOTONIC seconds */
} slot;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static slot g_slots[COACH_RUNS_MAX];
static unsigned long g_seq;

static time_t now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static bool same_key(const coach_run_key *a, const coach_run_key *b)
{
	return a->seat == b->seat && a->width == b->width && strcmp(a->game, b->game) == 0;
}

/* key's slot, or NULL; frees the failures nobody asked for in time. g_mu held. */
static slot *find_locked(const coach_run_key *key, time_t now)
{
	slot *found = NULL;
	for (int i = 0; i < COACH_RUNS_MAX; i++) {
		slot *s = &g_slots[i];
		if (s->state == SLOT_FAILED && now - s->failed_at >= COACH_RUNS_FAILED_S)
			s->state = SLOT_FREE;
		if (s->state != SLOT_FREE && same_key(&s->key, key))
			found = s;
	}
	return found;
}

static slot *free_slot_locked(void)
{
	for (int i = 0; i < COACH_RUNS_MAX; i++)
		if (g_slots[i].state == SLOT_FREE)
			return &g_slots[i];
	return NULL;
}

coach_run_state coach_runs_ask(const coach_run_key *key, er_coach_game **g, coach_run_failure *fail)
{
	coach_run_state st;
	pthread_mutex_lock(&g_mu);
	slot *s = find_locked(key, now_s());
	if (s && s->state == SLOT_FAILED) {
		*fail = s->fail;
		s->state = SLOT_FREE;
		st = COACH_RUN_FAILED;
	} else if (s) {
		st = COACH_RUN_RUNNING;
	} else if (*g == NULL) {
		st = COACH_RUN_ABSENT;
	} else if ((s = free_slot_locked()) == NULL) {
		st = COACH_RUN_FULL;
	} else {
		*s = (slot){.state = SLOT_QUEUED, .key = *key, .seq = ++g_seq, .game = *g};
		*g = NULL;
		st = COACH_RUN_STARTED;
	}
	pthread_mutex_unlock(&g_mu);
	return st;
}

er_coach_game *coach_runs_take(coach_run_key *key)
{
	er_coach_game *g = NULL;
	pthread_mutex_lock(&g_mu);
	slot *first = NULL;
	for (int i = 0; i < COACH_RUNS_MAX; i++) {
		slot *s = &g_slots[i];
		if (s->state == SLOT_QUEUED && (!first || s->seq < first->seq))
			first = s;
	}
	if (first) {
		first->state = SLOT_RUNNING;
		*key = first->key;
		g = first->game;
		first->game = NULL;
	}
	pthread_mutex_unlock(&g_mu);
	return g;
}

void coach_runs_end(const coach_run_key *key, const coach_run_failure *fail)
{
	pthread_mutex_lock(&g_mu);
	time_t now = now_s();
	slot *s = find_locked(key, now);
	if (s && s->state == SLOT_RUNNING) {
		if (fail) {
			s->state = SLOT_FAILED;
			s->fail = *fail;
			s->failed_at = now;
		} else {
			s->state = SLOT_FREE;
		}
	}
	pthread_mutex_unlock(&g_mu);
}

void coach_runs_reset(void)
{
	pthread_mutex_lock(&g_mu);
	for (int i = 0; i < COACH_RUNS_MAX; i++) {
		free(g_slots[i].game);
		g_slots[i] = (slot){0};
	}
	pthread_mutex_unlock(&g_mu);
}
