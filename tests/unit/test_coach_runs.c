/* The coach's searches in flight (src/games/er/coach_runs.c): one search per (game, seat,
 * width) however many ask at once, taken in the order they were queued, a failure told to one
 * ask, and no more than COACH_RUNS_MAX in flight. */
#include "games/er/coach_runs.h"
#include "test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

static coach_run_key key(const char *game, int seat, int width)
{
	coach_run_key k = {.seat = seat, .width = width};
	snprintf(k.game, sizeof k.game, "%s", game);
	return k;
}

static er_coach_game *game(int nturns)
{
	er_coach_game *g = calloc(1, sizeof *g);
	g->nturns = nturns;
	return g;
}

static void t_one_search_per_key(void)
{
	coach_runs_reset();
	coach_run_key a = key("g1", 1, 64);
	coach_run_failure f;
	er_coach_game *g = NULL;
	CHECK_EQ_INT(coach_runs_ask(&a, &g, &f), COACH_RUN_ABSENT);
	g = game(24);
	CHECK_EQ_INT(coach_runs_ask(&a, &g, &f), COACH_RUN_STARTED);
	CHECK(g == NULL);
	er_coach_game *again = game(24);
	CHECK_EQ_INT(coach_runs_ask(&a, &again, &f), COACH_RUN_RUNNING);
	CHECK(again != NULL); /* not taken: the caller frees it */
	free(again);
	/* another seat, another width: other searches */
	coach_run_key b = key("g1", 2, 64), c = key("g1", 1, 8);
	g = game(23);
	CHECK_EQ_INT(coach_runs_ask(&b, &g, &f), COACH_RUN_STARTED);
	g = game(22);
	CHECK_EQ_INT(coach_runs_ask(&c, &g, &f), COACH_RUN_STARTED);
	/* taken in the order queued, each once */
	coach_run_key k;
	int want[] = {24, 23, 22};
	for (int i = 0; i < 3; i++) {
		er_coach_game *t = coach_runs_take(&k);
		CHECK(t != NULL);
		if (t)
			CHECK_EQ_INT(t->nturns, want[i]);
		free(t);
		coach_runs_end(&k, NULL);
	}
	CHECK(coach_runs_take(&k) == NULL);
	g = NULL;
	CHECK_EQ_INT(coach_runs_ask(&a, &g, &f), COACH_RUN_ABSENT);
}

static void t_running_until_it_ends(void)
{
	coach_runs_reset();
	coach_run_key a = key("g2", 1, 64), k;
	coach_run_failure f;
	er_coach_game *g = game(24);
	CHECK_EQ_INT(coach_runs_ask(&a, &g, &f), COACH_RUN_STARTED);
	er_coach_game *t = coach_runs_take(&k);
	CHECK_STR(k.game, "g2");
	CHECK_EQ_INT(k.seat, 1);
	CHECK_EQ_INT(k.width, 64);
	g = NULL;
	CHECK_EQ_INT(coach_runs_ask(&a, &g, &f), COACH_RUN_RUNNING);
	coach_runs_end(&k, NULL);
	CHECK_EQ_INT(coach_runs_ask(&a, &g, &f), COACH_RUN_ABSENT);
	free(t);
}

static void t_a_failure_is_told_once(void)
{
	coach_runs_reset();
	coach_run_key a = key("g3", 1, 64), k;
	coach_run_failure f = {0}, bad = {503, "the database is unavailable"};
	er_coach_game *g = game(24);
	CHECK_EQ_INT(coach_runs_ask(&a, &g, &f), COACH_RUN_STARTED);
	free(coach_runs_take(&k));
	coach_runs_end(&k, &bad);
	g = NULL;
	CHECK_EQ_INT(coach_runs_ask(&a, &g, &f), COACH_RUN_FAILED);
	CHECK_EQ_INT(f.status, 503);
	CHECK_STR(f.detail, "the database is unavailable");
	CHECK_EQ_INT(coach_runs_ask(&a, &g, &f),
	             COACH_RUN_ABSENT); /* the next ask searches again */
}

static void t_full(void)
{
	coach_runs_reset();
	coach_run_failure f;
	char id[16];
	for (int i = 0; i < COACH_RUNS_MAX; i++) {
		snprintf(id, sizeof id, "g%d", i);
		coach_run_key k = key(id, 1, 64);
		er_coach_game *g = game(24);
		CHECK_EQ_INT(coach_runs_ask(&k, &g, &f), COACH_RUN_STARTED);
	}
	coach_run_key over = key("over", 1, 64);
	er_coach_game *g = game(24);
	CHECK_EQ_INT(coach_runs_ask(&over, &g, &f), COACH_RUN_FULL);
	CHECK(g != NULL);
	/* one taken and ended makes room */
	coach_run_key k;
	free(coach_runs_take(&k));
	coach_runs_end(&k, NULL);
	CHECK_EQ_INT(coach_runs_ask(&over, &g, &f), COACH_RUN_STARTED);
	coach_runs_reset(); /* frees the queued games */
}

/* eight threads ask for one key with a game each: exactly one queues it */
static atomic_int g_started, g_running;

static void *asker(void *arg)
{
	(void)arg;
	coach_run_key a = key("race", 1, 64);
	coach_run_failure f;
	er_coach_game *g = game(24);
	coach_run_state st = coach_runs_ask(&a, &g, &f);
	atomic_fetch_add(st == COACH_RUN_STARTED ? &g_started : &g_running, 1);
	free(g);
	return NULL;
}

static void t_threads_one_search(void)
{
	coach_runs_reset();
	pthread_t th[8];
	for (int i = 0; i < 8; i++)
		pthread_create(&th[i], NULL, asker, NULL);
	for (int i = 0; i < 8; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ_INT(atomic_load(&g_started), 1);
	CHECK_EQ_INT(atomic_load(&g_running), 7);
	coach_runs_reset();
}

int main(void)
{
	TEST("coach_runs: one search per game, seat and width, taken in order",
	     t_one_search_per_key);
	TEST("coach_runs: running until it ends", t_running_until_it_ends);
	TEST("coach_runs: a failure is told to one ask", t_a_failure_is_told_once);
	TEST("coach_runs: no more than COACH_RUNS_MAX in flight", t_full);
	TEST("coach_runs: eight threads asking at once queue one search", t_threads_one_search);
	TEST_MAIN_END();
}
