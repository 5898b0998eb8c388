/* A small fixed-size cache (GAME_CACHE_SLOTS entries, evicting the least recently used) behind
 * one mutex: lookups are a string compare over a few hundred slots and a memcpy. */
#include "engine/game_cache.h"
#include "base/oom.h"
#include "db/db.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { GAME_CACHE_SLOTS = 256, GAME_ID_MAX = 64 };

typedef struct {
	char id[GAME_ID_MAX];
	int version;
	uint64_t used; /* last use, for eviction */
	void *value;   /* owned copy */
	size_t size;
} slot;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static slot g_slots[GAME_CACHE_SLOTS];
static uint64_t g_clock;
static unsigned g_epoch; /* the server epoch of every entry */

/* Empties the cache when the process has reached another database server since it last looked. */
static void check_epoch_locked(void)
{
	unsigned now = db_server_epoch();
	if (now == g_epoch)
		return;
	for (int i = 0; i < GAME_CACHE_SLOTS; i++) {
		free(g_slots[i].value);
		g_slots[i] = (slot){0};
	}
	g_epoch = now;
}

static slot *find_locked(const char *id)
{
	for (int i = 0; i < GAME_CACHE_SLOTS; i++)
		if (g_slots[i].value && strcmp(g_slots[i].id, id) == 0)
			return &g_slots[i];
	return NULL;
}

int game_cache_get(const char *id, void *out, size_t size)
{
	int version = -1;
	pthread_mutex_lock(&g_lock);
	check_epoch_locked();
	slot *s = find_locked(id);
	if (s && s->size == size) {
		memcpy(out, s->value, size);
		s->used = ++g_clock;
		version = s->version;
	}
	pthread_mutex_unlock(&g_lock);
	return version;
}

void game_cache_put(const char *id, int version, const void *value, size_t size, unsigned epoch)
{
	if (strlen(id) >= GAME_ID_MAX)
		return;
	pthread_mutex_lock(&g_lock);
	check_epoch_locked();
	if (epoch != g_epoch)
		goto out; /* read from a server the process has left since */
	slot *s = find_locked(id);
	if (s && s->version > version)
		goto out; /* a newer state is already here */
	if (s == NULL) {
		s = &g_slots[0];
		for (int i = 0; i < GAME_CACHE_SLOTS; i++) {
			if (g_slots[i].value == NULL) {
				s = &g_slots[i];
				break;
			}
			if (g_slots[i].used < s->used)
				s = &g_slots[i];
		}
	}
	if (s->value == NULL || s->size != size)
		s->value = xrealloc(s->value, size);
	memcpy(s->value, value, size);
	s->size = size;
	s->version = version;
	s->used = ++g_clock;
	memcpy(s->id, id, strlen(id) + 1);
out:
	pthread_mutex_unlock(&g_lock);
}
